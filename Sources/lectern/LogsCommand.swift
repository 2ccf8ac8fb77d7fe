import ArgumentParser
import Foundation
import Lectern

struct LogsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "List past questions to the language model and its answers, newest first.",
        discussion: """
            Every call `ask` and `summarize` make is logged in the library: what it was about, \
            the prompt, the answer, the model, tokens, cost, and whether the answer came from \
            the cache.

              lectern logs                  the last 3 calls
              lectern logs -n 0 --json      every call, as JSON
              lectern logs --template ask   questions only
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .short, help: "How many calls; 0 for all.")
    var n = 3

    @Option(help: ArgumentHelp("Only calls of this prompt: ask or summary.", valueName: "name"))
    var template: String?

    @Flag(help: "Print the prompts too (the passages and text the model was given).")
    var prompts = false

    @Flag(help: "Print as JSON (prompts included).")
    var json = false

    func validate() throws {
        if n < 0 { throw ValidationError("-n must be 0 (all) or more") }
    }

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let calls = try library.modelCallLog(limit: n == 0 ? nil : n, template: template)
        if json {
            terminal.json(calls)
            return
        }
        if calls.isEmpty {
            terminal.note(template.map { "no \($0) calls logged yet" } ?? "no model calls logged yet: `lectern ask` and `summarize` log theirs")
            return
        }
        for (index, call) in calls.enumerated() {
            if index > 0 { terminal.out("") }
            terminal.out(terminal.bold("# \(call.at)  \(call.template)  \(call.provider)/\(call.model)"))
            terminal.out(terminal.dim(TerminalText(Self.details(call))))
            let isQuestion = call.template.hasPrefix("ask/")
            if let subject = call.subject {
                terminal.out("")
                terminal.out("## \(isQuestion ? "Question" : "About")")
                terminal.outLines(subject)
            }
            if prompts, let prompt = call.prompt {
                terminal.out("")
                terminal.out("## Prompt")
                terminal.outLines(prompt)
            }
            terminal.out("")
            terminal.out("## \(isQuestion ? "Answer" : "Response")")
            terminal.outLines(call.response ?? "(not logged: the call predates the log)")
        }
    }

    /// `run 12 · 310 → 42 tokens · 2.1 s · stop · cached`
    static func details(_ call: ModelCallLog) -> String {
        var parts: [String] = []
        if let run = call.run { parts.append("run \(run)") }
        parts.append(call.cached ? "from the cache" : "\(call.inputTokens) → \(call.outputTokens) tokens")
        if let ms = call.durationMs, !call.cached { parts.append(String(format: "%.1f s", Double(ms) / 1000)) }
        if let reason = call.finishReason { parts.append(reason == "length" ? "cut at llm.max_tokens" : reason) }
        if let cost = call.costUSD, cost > 0 { parts.append(String(format: "$%.4f", cost)) }
        return parts.joined(separator: " · ")
    }
}

extension LogsCommand: SharesGlobalOptions {}
