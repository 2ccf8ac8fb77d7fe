import ArgumentParser
import Foundation
import Lectern

/// `lectern runs show ID`: one run in full — its stages with counts and milliseconds,
/// failures with reasons, model tokens and cost, outputs written.
struct RunsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one run: counts and milliseconds per stage, failures, model tokens and cost, outputs written.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The run's number, as `lectern runs` lists it.")
    var id: Int64

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        guard let run = try library.runs(limit: 1, id: id).first else {
            throw LecternError(.notFound, "run \(id)", "no such run in this library (`lectern runs` lists them)")
        }
        if json {
            terminal.json(run)
            return
        }
        terminal.out(TerminalText("run #\(run.id): \(run.command) \(run.arguments.joined(separator: " "))"))
        terminal.out(TerminalText("  status   \(run.status)"))
        terminal.out(TerminalText("  started  \(run.startedAt)" + (run.endedAt.map { "   ended \($0)" } ?? "")))
        let counts = run.counts.filter { !$0.key.hasPrefix("llm.") }
        if !run.stages.isEmpty {
            terminal.out("  stages")
            for stage in run.stages {
                let count = stage.count.map { "  \($0)" } ?? ""
                terminal.out(TerminalText("    \(stage.stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))\(String(stage.milliseconds).leftPadded(8)) ms\(count)"))
            }
        }
        let stageKeys = Set(run.stages.flatMap { [$0.stage.rawValue, $0.stage.rawValue + "_ms"] })
        let plain = counts.filter { !stageKeys.contains($0.key) }.sorted { $0.key < $1.key }
        if !plain.isEmpty {
            terminal.out(TerminalText("  counts   " + plain.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        }
        terminal.out(TerminalText("  model    " + (UsageLine.make(run.counts) ?? "no model calls")))
        terminal.out(TerminalText("  outputs  \(run.outputs.count) written" + (counts["outputs_unchanged"].map { ", \($0) unchanged" } ?? "")))
        for output in run.outputs { terminal.out(TerminalText("    \(output.path)")) }
        let failures = run.failures.filter { $0.severity == .error }, warnings = run.failures.filter { $0.severity != .error }
        terminal.out(TerminalText("  failures \(failures.count)" + (warnings.isEmpty ? "" : ", \(Plural.counted(warnings.count, "warning"))")))
        for failure in run.failures {
            terminal.out(TerminalText("    \(failure.severity) [\(failure.stage)] \(failure.input): \(failure.reason)"))
        }
    }
}

extension RunsShowCommand: SharesGlobalOptions {}

extension String {
    /// Right-aligned in `width` columns (numbers in a table).
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
