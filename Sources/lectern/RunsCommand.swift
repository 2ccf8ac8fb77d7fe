import ArgumentParser
import Foundation
import Lectern

struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "List recent runs: what each did and what failed.",
        discussion: "A run whose process is gone (killed, or the machine restarted) is listed as interrupted.",
        subcommands: [RunsShowCommand.self])

    @OptionGroup var global: GlobalOptions

    @Option(name: .short, help: "How many runs.")
    var n = 20

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, store) = try global.openForReading()
        let runs = try store.runs(limit: n)
        if json {
            terminal.json(runs)
            return
        }
        for run in runs {
            let counts = run.counts.filter { !$0.key.hasPrefix("llm.") && !$0.key.hasPrefix(PipelineRun.outputKey) }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            terminal.out("#\(run.id)  \(run.startedAt)  \(run.command)  \(run.status)  \(counts)")
            if let usage = UsageLine.make(run.counts) { terminal.out("    model: \(usage)") }
            for failure in run.failures {
                terminal.out("    \(failure.severity): \(failure.input): \(failure.reason)")
            }
        }
    }
}

extension RunsCommand: SharesGlobalOptions {}
