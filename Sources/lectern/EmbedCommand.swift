import ArgumentParser
import Foundation
import Lectern

/// Embeds lines of stdin without a library: for `make bench` and for checking an embedder by
/// hand. Hidden from help; its output is meant for scripts.
struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Embed each line of stdin (one passage a line) and print the vectors.",
        discussion: """
              printf 'first passage\\nsecond passage\\n' | lectern embed --json
            """,
        shouldDisplay: false)

    @Option(help: "The embedder (minilm, minilm-int8, minilm-bf16, hashing, openai:<model>, ollama:<model>; default: the configured one).")
    var embedder: String?

    @Option(help: "Texts given to the embedder at once.")
    var batch = 32

    @Flag(help: "One JSON object: the embedder, timings and the vectors.")
    var json = false

    func validate() throws {
        guard batch > 0 else { throw ValidationError("--batch must be greater than 0") }
    }

    func run() throws {
        let configuration = try Configuration.load()
        let loadStart = Date()
        let chosen = try EmbedderCatalog.make(embedder ?? configuration.embedder, configuration: configuration)
        // The model's weights and vocabulary are read here, not in the time embedding takes.
        try chosen.prepare()
        let loadSeconds = Date().timeIntervalSince(loadStart)
        let cpuStart = Self.cpuSeconds()
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let texts = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).dropLast(input.last == UInt8(ascii: "\n") ? 1 : 0)
        let start = Date()
        let vectors = try chosen.embed(Array(texts), batchSize: batch)
        let seconds = Date().timeIntervalSince(start)
        let cpuSeconds = Self.cpuSeconds() - cpuStart
        let terminal = Terminal(events: .text)
        guard json else {
            for vector in vectors { terminal.out("\(vector.map { String(format: "%.6f", $0) }.joined(separator: " "))") }
            return
        }
        let report = EmbedReport(embedder: chosen.info.key, passages: texts.count, batch: batch, loadSeconds: loadSeconds,
                                 seconds: seconds, cpuSeconds: cpuSeconds, passagesPerSecond: seconds > 0 ? Double(texts.count) / seconds : 0,
                                 vectors: vectors)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        terminal.out("\(String(decoding: try encoder.encode(report), as: UTF8.self))")
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

struct EmbedReport: Encodable {
    var embedder: String
    var passages: Int
    var batch: Int
    var loadSeconds: Double
    var seconds: Double
    /// User and system time of every thread, for comparisons on a busy machine.
    var cpuSeconds: Double
    var passagesPerSecond: Double
    var vectors: [[Float]]
}
