import ArgumentParser
import Foundation
import Lectern

/// `lectern runs` lists (its default subcommand, `list`), `lectern runs show N` shows one: each
/// takes its own `--json`, which a parent's flag would otherwise take from `show`.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "List recent runs: what each did and what failed.",
        discussion: "A run whose process is gone (killed, or the machine restarted) is listed as interrupted.",
        subcommands: [RunsListCommand.self, RunsShowCommand.self], defaultSubcommand: RunsListCommand.self)
}

struct RunsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List recent runs: what each did and what failed (the default of `lectern runs`).",
        discussion: "A run whose process is gone (killed, or the machine restarted) is listed as interrupted.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .short, help: "How many runs.")
    var n = 20

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let runs = try library.runs(limit: n)
        if json {
            terminal.json(runs)
            return
        }
        for run in runs {
            let counts = run.counts.filter { !$0.key.hasPrefix("llm.") }.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            terminal.out("#\(run.id)  \(run.startedAt)  \(run.command)  \(run.status)  \(counts)")
            if let usage = UsageLine.make(run.counts) { terminal.out("    model: \(usage)") }
            for failure in run.failures {
                terminal.out("    \(failure.severity): \(failure.input): \(failure.reason)")
            }
        }
    }
}

extension RunsListCommand: SharesGlobalOptions {}
