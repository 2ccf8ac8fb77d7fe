import Foundation
import XCTest
@testable import Lectern

/// The `lectern` binary started in the background, as a user starts a long command before
/// pressing Ctrl-C: its stderr is read line by line as it comes, so a test can wait for a moment
/// (the third document stored) and then send a signal.
final class RunningLectern {
    let process = Process()
    private let stderrLines = LineBuffer()
    private let stdoutData = LineBuffer()
    private let stdoutDone = DispatchSemaphore(value: 0)

    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws {
        process.executableURL = TestPaths.lecternBinary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = lecternEnvironment(in: directory, overrides: environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let lines = stderrLines
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { lines.append(data) }
        }
        try process.run()
        let done = stdoutDone, stdout = stdoutData
        DispatchQueue.global().async {
            stdout.append(out.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }
    }

    /// Waits until a line of stderr satisfies `predicate` (true), or the process ends or
    /// `timeout` passes first (false).
    func waitForStderr(timeout: TimeInterval = 60, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderrLines.lines.contains(where: predicate) { return true }
            if !process.isRunning { return stderrLines.lines.contains(where: predicate) }
            usleep(10_000)
        }
        return false
    }

    /// The JSON events (`--events json`) seen so far.
    var events: [PipelineEvent] {
        stderrLines.lines.compactMap { try? JSONDecoder().decode(PipelineEvent.self, from: Data($0.utf8)) }
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end (at most `timeout`, then kills it and fails the test). The
    /// status is the exit status, or minus the signal that killed the process.
    func finish(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) -> CommandResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            XCTFail("lectern did not stop within \(timeout) s", file: file, line: line)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        stdoutDone.wait()
        // The readability handler may still be draining the pipe's last bytes.
        usleep(50_000)
        // Killed by a signal is not the same as exiting 130: a negative status says which signal.
        let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return CommandResult(status: status, stdout: stdoutData.text, stderr: stderrLines.text)
    }
}

private final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    var lines: [String] { text.split(separator: "\n").map(String.init) }
}
