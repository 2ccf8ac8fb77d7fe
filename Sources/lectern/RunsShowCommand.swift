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
        guard var run = try library.runs(limit: 1, id: id).first else {
            throw LecternError(.notFound, "run \(id)", "no such run in this library (`lectern runs` lists them)")
        }
        // A queued run's jobs (`lectern run --queue`): who did which, how long it took.
        let jobs = try library.queueJobs(run: id)
        if !jobs.isEmpty { run.jobs = jobs }
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
        if !jobs.isEmpty { showJobs(jobs, terminal: terminal) }
    }

    /// A queued run's jobs, one a line: done (by whom, how long), failed (why), leased (by whom,
    /// for how long, when its lease ends), pending, waiting.
    private func showJobs(_ jobs: [QueueJob], terminal: Terminal) {
        let states: [QueueJob.State] = [.done, .failed, .leased, .pending, .waiting]
        let tally = states.compactMap { state -> String? in
            let count = jobs.filter { $0.state == state }.count
            return count == 0 ? nil : "\(count) \(state.rawValue)"
        }
        terminal.out(TerminalText("  jobs     \(jobs.count): " + tally.joined(separator: ", ")))
        let width = min(48, jobs.map(\.display.count).max() ?? 0)
        for job in jobs {
            let seconds = job.seconds.map { String(format: "%.1f s", $0) } ?? ""
            var detail: String
            switch job.state {
            case .done: detail = "\(seconds) by \(job.doneBy ?? "?")"
            case .failed: detail = "after \(Plural.counted(job.attempts, "attempt")): \(job.lastError ?? "")"
            case .leased:
                let left = job.leaseSecondsLeft.map { $0 >= 0 ? String(format: "lease ends in %.0f s", $0) : String(format: "lease ended %.0f s ago", -$0) } ?? ""
                detail = "by \(job.leaseOwner ?? "?") for \(seconds) (\(left))"
            case .pending: detail = job.failures > 0 ? "failed \(Plural.counted(job.failures, "time")): \(job.lastError ?? "")" : ""
            case .waiting: detail = "once every source job is done"
            }
            if job.attempts > 1, job.state != .failed { detail += " (attempt \(job.attempts))" }
            let name = job.display.count < width ? job.display.padding(toLength: width, withPad: " ", startingAt: 0) : job.display
            terminal.out(TerminalText("    \(job.state.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(name)  \(detail)"))
        }
    }
}

extension RunsShowCommand: SharesGlobalOptions {}

extension String {
    /// Right-aligned in `width` columns (numbers in a table).
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
