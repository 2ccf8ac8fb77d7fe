import Foundation
import Lectern

/// Everything the CLI writes goes through here: results to stdout, progress and problems to
/// stderr (as text, a progress line on a terminal, or JSON lines with `--events json`).
final class Terminal: @unchecked Sendable {
    let events: EventFormat
    let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    let stderrIsTTY = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var progressShown = false

    init(events: EventFormat) {
        self.events = events
    }

    /// Colour only on a terminal and without NO_COLOR.
    var colour: Bool {
        stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func out(_ line: String) {
        lock.withLock {
            clearProgress()
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    func err(_ line: String) {
        lock.withLock {
            clearProgress()
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    private func clearProgress() {
        if progressShown {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            progressShown = false
        }
    }

    private func progress(_ line: String) {
        lock.withLock {
            let width = 100
            let cut = line.count > width ? String(line.prefix(width - 1)) + "…" : line
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + cut).utf8))
            progressShown = true
        }
    }

    /// `input:line: ` (or `input: `) in front of a message, the way compilers name a place.
    private func place(_ event: PipelineEvent) -> String {
        guard let input = event.input else { return event.line.map { "line \($0): " } ?? "" }
        return input + (event.line.map { ":\($0)" } ?? "") + ": "
    }

    /// Renders one pipeline event.
    func event(_ event: PipelineEvent) {
        switch events {
        case .json:
            if let data = Self.compactJSON(event) {
                lock.withLock { FileHandle.standardError.write(data + Data("\n".utf8)) }
            }
        case .text:
            switch event.event {
            case .failed:
                err("lectern: \(place(event))\(event.message ?? "failed")")
            case .warning:
                err("lectern: warning: \(place(event))\(event.message ?? "")")
            case .inputStarted:
                if stderrIsTTY, let index = event.index, let total = event.total {
                    progress("[\(index)/\(total)] \(event.input ?? "")")
                }
            case .progress:
                if stderrIsTTY, let index = event.index, let total = event.total {
                    progress("\(event.input ?? "") \(event.message ?? "") \(index)/\(total)")
                }
            default:
                break
            }
        }
    }

    func finishProgress() {
        lock.withLock { clearProgress() }
    }

    /// One line of JSON (JSON lines), to stdout.
    func jsonLine<T: Encodable>(_ value: T) {
        if let data = Self.compactJSON(value) { out(String(decoding: data, as: UTF8.self)) }
    }

    /// Keys sorted, on one line: what JSON-lines output (events, `extract` of several files) writes.
    static func compactJSON<T: Encodable>(_ value: T) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(value)
    }

    /// Pretty JSON of any encodable value, to stdout.
    func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(value) {
            out(String(decoding: data, as: UTF8.self))
        }
    }

    func bold(_ s: String) -> String { colour ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func dim(_ s: String) -> String { colour ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    func highlight(_ s: String) -> String { colour ? "\u{1B}[1;33m\(s)\u{1B}[0m" : s }
}
