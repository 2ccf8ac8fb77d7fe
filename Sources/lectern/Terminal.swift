import Foundation
import Lectern

/// Everything the CLI writes goes through here: results to stdout, progress and problems to
/// stderr (as text, a progress line on a terminal, or JSON lines with `--events json`). Text is
/// `TerminalText`, so nothing from a file or a document reaches the terminal with its control
/// characters raw; JSON is escaped by its encoder.
final class Terminal: @unchecked Sendable {
    let events: EventFormat
    let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    let stderrIsTTY = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var progressShown = false
    /// The progress line a spinner turns in front of, while `spinning` (see `withSpinner`).
    private var progressText = ""
    private var spinning = false
    private var spinnerFrame = 0
    /// Rates and times left of the progress lines (`12.5/s, 0:42 left`).
    private var rates = ProgressRates()
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
        lock.withLock {
            clearProgress()
            FileHandle.standardOutput.write(Data(safe.utf8))
        }
    }

    /// Runs `work` with a spinner turning on stderr in front of the progress line (only on a
    /// terminal, with text events): a long wait for a model shows that something is happening.
    func withSpinner<T>(_ label: String, _ work: () throws -> T) rethrows -> T {
        guard stderrIsTTY, events == .text else { return try work() }
        lock.withLock {
            progressText = label
            spinning = true
        }
        let thread = Thread { [self] in
            while lock.withLock({ spinning }) {
                lock.withLock {
                    guard spinning else { return }
                    spinnerFrame = (spinnerFrame + 1) % Self.spinnerFrames.count
                    drawProgress()
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.start()
        defer {
            lock.withLock {
                spinning = false
                clearProgress()
            }
        }
        return try work()
    }

    private func write(_ text: String, to handle: FileHandle) {
        lock.withLock {
            clearProgress()
            handle.write(Data((text + "\n").utf8))
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
            progressText = line
            drawProgress()
        }
    }

    /// Draws `progressText` (after the spinner's frame while one turns); the lock is held.
    private func drawProgress() {
        let width = 100
        let visible = (spinning ? Self.spinnerFrames[spinnerFrame] + " " : "") + TerminalText.visible(progressText)
        let cut = visible.count > width ? String(visible.prefix(width - 1)) + "…" : visible
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + cut).utf8))
        progressShown = true
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
            case .note:
                err("lectern: \(place(event))\(event.message ?? "")")
            case .unchanged where event.message != nil:
                // Said on every re-run: why a document stays without passages (a scan).
                err("lectern: \(place(event))unchanged (\(event.message ?? ""))")
            case .inputStarted:
                if stderrIsTTY, let index = event.index, let total = event.total {
                    // The batch's time left from bytes of input when their sizes are known (a
                    // book and a note are not one unit of work each), else from inputs done.
                    let pace = lock.withLock {
                        if let done = event.workDone, let work = event.workTotal { return rates.batchPace(done: done, total: work) }
                        return rates.pace(of: "inputs", done: index - 1, total: total)
                    }
                    progress("[\(index)/\(total)]\(pace) \(event.input ?? "")")
                }
            case .progress:
                if stderrIsTTY, let index = event.index, let total = event.total {
                    let (pace, batch) = lock.withLock {
                        (rates.pace(of: "\(event.input ?? "") \(event.message ?? "")", done: index, total: total),
                         event.workDone.flatMap { done in event.workTotal.map { rates.batchPace(done: done, total: $0, brief: true) } } ?? "")
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
        lock.withLock { clearProgress() }
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
