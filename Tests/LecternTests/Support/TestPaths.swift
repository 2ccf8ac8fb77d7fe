import Foundation
import XCTest
@testable import Lectern

/// Where the repository, its corpora and the shared real-world corpus are, from this file.
enum TestPaths {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let corpora = packageRoot.appendingPathComponent("corpora")

    /// ../shared/corpus beside the repository (or `$LECTERN_SHARED_CORPUS`, for a clone kept
    /// elsewhere); tests that need it skip, with a message, when it is absent.
    static func sharedCorpus(_ relative: String = "") throws -> URL {
        let base = ProcessInfo.processInfo.environment["LECTERN_SHARED_CORPUS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let url = base.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("\(url.path) is absent (a clone without the shared corpus; set LECTERN_SHARED_CORPUS): skipping")
        }
        return url
    }

    /// The built `lectern` executable, next to the test bundle.
    static var lecternBinary: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("lectern")
        }
        return Bundle.main.bundleURL.appendingPathComponent("lectern")
    }

    /// Skips the test, naming the path, when the `lectern` executable is not built.
    static func requireLecternBinary() throws {
        guard FileManager.default.isExecutableFile(atPath: lecternBinary.path) else {
            throw XCTSkip("the lectern binary is not built at \(lecternBinary.path)")
        }
    }
}

/// A fresh temporary folder, removed at the end of the test.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-test-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var path: String { url.path }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target
    }
}

/// Runs the real `lectern` binary and captures what a user would see.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

func runLectern(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> CommandResult {
    try runLectern(arguments, in: directory, environment: environment, asUnprivilegedUser: false)
}

/// The environment a test's `lectern` runs in: isolated from the user's own config file and
/// library (the library is `./lectern.db` of the test's folder, and the default library's data
/// folder is inside it too), the hashing embedder unless a test is about embeddings (those pass LECTERN_EMBEDDER
/// themselves, or "" to get the real default, MiniLM); an empty override removes a variable.
func lecternEnvironment(in directory: URL, overrides: [String: String] = [:]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config-home").path
    env.removeValue(forKey: "LECTERN_CONFIG")
    env["LECTERN_DB"] = "lectern.db"
    env["XDG_DATA_HOME"] = directory.appendingPathComponent("data-home").path
    env["LECTERN_EMBEDDER"] = HashingEmbedder.name
    for (key, value) in overrides {
        if value.isEmpty { env.removeValue(forKey: key) } else { env[key] = value }
    }
    return env
}

/// `asUnprivilegedUser`: run as `nobody` (through util-linux's `setpriv` when the tests run as
/// root, where file permissions would not apply), for tests about files the user cannot read.
func runLectern(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
                asUnprivilegedUser: Bool) throws -> CommandResult {
    let process = Process()
    if asUnprivilegedUser && getuid() == 0 {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", TestPaths.lecternBinary.path] + arguments
    } else {
        process.executableURL = TestPaths.lecternBinary
        process.arguments = arguments
    }
    process.currentDirectoryURL = directory
    process.environment = lecternEnvironment(in: directory, overrides: environment)
    return try capture(process)
}

/// Runs `process` to its end and returns its status and both outputs.
func capture(_ process: Process) throws -> CommandResult {
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Both pipes drain at once: a child that fills one while the other is being read would
    // otherwise block forever.
    let errData = LockedData()
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        errData.set(err.fileHandleForReading.readDataToEndOfFile())
        errDone.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData.get(), as: UTF8.self))
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
