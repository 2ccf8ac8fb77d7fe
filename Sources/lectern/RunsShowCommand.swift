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

    /// The stages of a run in the order the work goes through them.
    static let stageOrder = ["fetch", "extract", "chunk", "embed", "cache", "write", "summarise", "curriculum", "cards", "export"]

    func run() throws {
        let (_, terminal, store) = try global.openForReading()
        guard let run = try store.runs(limit: 1, id: id).first else {
            throw LecternError(.notFound, "run \(id)", "no such run in this library (`lectern runs` lists them)")
        }
        if json {
            terminal.json(run)
            return
        }
        terminal.out(TerminalText("run #\(run.id): \(run.command) \(run.arguments.joined(separator: " "))"))
        terminal.out(TerminalText("  status   \(run.status)"))
        terminal.out(TerminalText("  started  \(run.startedAt)" + (run.endedAt.map { "   ended \($0)" } ?? "")))
        let counts = run.counts.filter { !$0.key.hasPrefix("llm.") && !$0.key.hasPrefix(PipelineRun.outputKey) }
        let outputs = run.counts.keys.filter { $0.hasPrefix(PipelineRun.outputKey) }.map { String($0.dropFirst(PipelineRun.outputKey.count)) }.sorted()
        let timed = Set(counts.keys.filter { $0.hasSuffix("_ms") }.map { String($0.dropLast(3)) })
        let stages = Self.stageOrder.filter(timed.contains) + timed.subtracting(Self.stageOrder).sorted()
        if !stages.isEmpty {
            terminal.out("  stages")
            for stage in stages {
                let count = counts[stage].map { "  \($0)" } ?? ""
                terminal.out(TerminalText("    \(stage.padding(toLength: 10, withPad: " ", startingAt: 0))\(String(counts[stage + "_ms"] ?? 0).leftPadded(8)) ms\(count)"))
            }
        }
        let plain = counts.filter { !$0.key.hasSuffix("_ms") && !timed.contains($0.key) }.sorted { $0.key < $1.key }
        if !plain.isEmpty {
            terminal.out(TerminalText("  counts   " + plain.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        }
        terminal.out(TerminalText("  model    " + (UsageLine.make(run.counts) ?? "no model calls")))
        terminal.out(TerminalText("  outputs  \(outputs.count) written" + (counts["outputs_unchanged"].map { ", \($0) unchanged" } ?? "")))
        for output in outputs { terminal.out(TerminalText("    \(output)")) }
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
