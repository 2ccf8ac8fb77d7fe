import Foundation
import Lectern

/// Everything the CLI writes goes through here: results to stdout, progress and problems to
/// stderr (as text, a progress line on a terminal, or JSON lines with `--events json`). Text is
/// `TerminalText`, so nothing from a file or a document reaches the terminal with its control
/// characters raw; JSON is escaped by its encoder.
final class Terminal: Sendable {
    let events: EventFormat
    let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    let stderrIsTTY = isatty(STDERR_FILENO) == 1
    /// The progress line's state; holding its lock also keeps writes to stdout and stderr whole.
    private struct Screen {
        var progressShown = false
        /// The progress line a spinner turns in front of, while `spinning` (see `withSpinner`).
        var progressText = ""
        var spinning = false
        var spinnerFrame = 0
        /// Rates and times left of the progress lines (`12.5/s, 0:42 left`).
        var rates = ProgressRates()
    }
    private let screen = Locked(Screen())
    static let spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    init(events: EventFormat) {
        self.events = events
    }

    /// Colour only on a terminal and without NO_COLOR.
    var colour: Bool {
        stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func out(_ line: TerminalText) {
        write(line.safe, to: FileHandle.standardOutput)
    }

    func err(_ line: TerminalText) {
        write(line.safe, to: FileHandle.standardError)
    }

    /// Text of several lines (a passage, a summary, a model's answer): each line escaped.
    func outLines(_ text: String, indent: String = "") {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { out("\(TerminalText(indent))\(String(line))") }
    }

    /// A piece of text that arrives as it is written (a model's answer): line breaks kept, other
    /// control characters shown, no line break added.
    func outPiece(_ text: String) {
        let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.visible(String($0)) }.joined(separator: "\n")
        screen.withLock { screen in
            Self.clearProgress(&screen)
            FileHandle.standardOutput.write(Data(safe.utf8))
        }
    }

    /// Runs `work` with a spinner turning on stderr in front of the progress line (only on a
    /// terminal, with text events): a long wait for a model shows that something is happening.
    func withSpinner<T>(_ label: String, _ work: () throws -> T) rethrows -> T {
        guard stderrIsTTY, events == .text else { return try work() }
        screen.withLock { screen in
            screen.progressText = label
            screen.spinning = true
        }
        let thread = Thread { [screen] in
            while screen.withLock({ $0.spinning }) {
                screen.withLock { screen in
                    guard screen.spinning else { return }
                    screen.spinnerFrame = (screen.spinnerFrame + 1) % Self.spinnerFrames.count
                    Self.drawProgress(&screen)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.start()
        defer {
            screen.withLock { screen in
                screen.spinning = false
                Self.clearProgress(&screen)
            }
        }
        return try work()
    }

    private func write(_ text: String, to handle: FileHandle) {
        screen.withLock { screen in
            Self.clearProgress(&screen)
            handle.write(Data((text + "\n").utf8))
        }
    }

    /// The lock is held (`screen` is the locked value).
    private static func clearProgress(_ screen: inout Screen) {
        if screen.progressShown {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            screen.progressShown = false
        }
    }

    private func progress(_ line: String) {
        screen.withLock { screen in
            screen.progressText = line
            Self.drawProgress(&screen)
        }
    }

    /// Draws `progressText` (after the spinner's frame while one turns); the lock is held.
    private static func drawProgress(_ screen: inout Screen) {
        let width = 100
        let visible = (screen.spinning ? Self.spinnerFrames[screen.spinnerFrame] + " " : "") + TerminalText.visible(screen.progressText)
        let cut = visible.count > width ? String(visible.prefix(width - 1)) + "…" : visible
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + cut).utf8))
        screen.progressShown = true
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
                screen.withLock { _ in FileHandle.standardError.write(data + Data("\n".utf8)) }
            }
        case .text:
            switch event.event {
            case .failed:
                err("lectern: \(place(event))\(event.message ?? "failed")")
            case .warning:
                err("lectern: warning: \(place(event))\(event.message ?? "")")
            case .note:
                err("lectern: \(place(event))\(event.message ?? "")")
            case .unchanged where event.message != nil:
                // Said on every re-run: why a document stays without passages (a scan).
                err("lectern: \(place(event))unchanged (\(event.message ?? ""))")
            case .inputStarted:
                if stderrIsTTY, let index = event.index, let total = event.total {
                    // The batch's time left from bytes of input when their sizes are known (a
                    // book and a note are not one unit of work each), else from inputs done.
                    let pace = screen.withLock { screen in
                        if let done = event.workDone, let work = event.workTotal { return screen.rates.batchPace(done: done, total: work) }
                        return screen.rates.pace(of: "inputs", done: index - 1, total: total)
                    }
                    progress("[\(index)/\(total)]\(pace) \(event.input ?? "")")
                }
            case .progress:
                if stderrIsTTY, let index = event.index, let total = event.total {
                    let (pace, batch) = screen.withLock { screen in
                        (screen.rates.pace(of: "\(event.input ?? "") \(event.message ?? "")", done: index, total: total),
                         event.workDone.flatMap { done in event.workTotal.map { screen.rates.batchPace(done: done, total: $0, brief: true) } } ?? "")
                    }
                    progress("\(batch.isEmpty ? "" : "[\(batch.trimmingCharacters(in: .whitespaces))] ")\(event.input ?? "") \(event.message ?? "") \(index)/\(total)\(pace)")
                }
            default:
                break
            }
        }
    }

    /// The error that stops a command: one line, or one JSON event with `--events json`.
    func stop(_ error: LecternError) {
        switch events {
        case .json: event(PipelineEvent(.failed, input: error.subject, line: error.line, message: error.reason))
        case .text: err("lectern: \(error.description)")
        }
    }

    /// A remark on stderr ("no passages match …"): a plain line, or a `note` event.
    func note(_ message: String, input: String? = nil) {
        event(PipelineEvent(.note, input: input, message: message))
    }

    /// A dim line on stderr beside the results (a model's token usage), or a `note` event.
    func aside(_ message: String) {
        if events == .json { note(message) } else { err(dim(message)) }
    }

    func finishProgress() {
        screen.withLock { Self.clearProgress(&$0) }
    }

    /// One line of JSON (JSON lines), to stdout.
    func jsonLine<T: Encodable>(_ value: T) {
        if let data = Self.compactJSON(value) { write(String(decoding: data, as: UTF8.self), to: FileHandle.standardOutput) }
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
            write(String(decoding: data, as: UTF8.self), to: FileHandle.standardOutput)
        }
    }

    func bold(_ text: TerminalText) -> TerminalText { colour ? .styled(text, "1") : text }
    func dim(_ text: TerminalText) -> TerminalText { colour ? .styled(text, "2") : text }
    func highlight(_ text: TerminalText) -> TerminalText { colour ? .styled(text, "1;33") : text }
    func bold(_ text: String) -> TerminalText { bold(TerminalText(text)) }
    func dim(_ text: String) -> TerminalText { dim(TerminalText(text)) }
    func highlight(_ text: String) -> TerminalText { highlight(TerminalText(text)) }
}
