import ArgumentParser
import Foundation
import Lectern

extension SearchMode: ExpressibleByArgument {}

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find passages by words and meaning, with where each came from.",
        discussion: """
              lectern search "light-dependent reactions"
              lectern search "entropy" --mode keyword -k 5 --json
              lectern search '"begging the question" -circular' --mode keyword
              lectern search "derivative" --source notes/calculus.md --type markdown
              printf 'entropy\\nchain rule\\n' | lectern search --stdin --mode keyword
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to look for: words, \"a phrase\" (those words in that order), -word or -\"a phrase\" (leave out passages with it).")
    var query: String?

    // Unconditional: `-k -1` is a value to refuse with a reason, not a missing one.
    @Option(name: .short, parsing: .unconditional, help: "How many hits (at least 1; default: search.k, 10).")
    var k: Int?

    @Option(help: "hybrid (words and meaning, their scores combined), keyword (scored by BM25) or semantic (scored by cosine similarity).")
    var mode: SearchMode = .hybrid

    @Option(help: "Only this source: a path, folder, URI or document id. Repeatable.")
    var source: [String] = []

    @Option(help: "Only documents of this type (markdown, text, pdf, srt …; any case). Repeatable.")
    var type: [String] = []

    @Option(help: "Only the passages of this curriculum's topics (see `lectern curriculum list`).")
    var curriculum: String?

    @Option(help: "Only the passages of this topic (its id from `lectern curriculum show`, or its first 4+ characters). Repeatable.")
    var topic: [String] = []

    @Option(name: .customLong("min-score"), help: "Leave out hits scoring under this (0–1, the same scale in every query and mode; hits under \(Relevance.weakBelow) are marked weak).")
    var minScore: Double?

    @Flag(help: "Group hits by document (best document first), each hit under its document's title.")
    var group = false

    @Flag(help: "Print hits as JSON.")
    var json = false

    @Flag(help: "Read one query a line from standard input and answer each with one line of JSON (the hits, as --json prints them), the model and the vectors loaded once.")
    var stdin = false

    /// With --stdin: each query's timings as a JSON line on stderr (the benchmark's in-process figure).
    @Flag(help: .hidden)
    var timings = false

    func validate() throws {
        if let k, k < 1 { throw ValidationError("-k must be at least 1") }
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must be between 0 and 1 (got \(minScore))") }
        if stdin {
            if query != nil { throw ValidationError("--stdin reads the queries from standard input: give no query argument") }
        } else {
            guard let query else { throw ValidationError("give a query, or --stdin to read queries a line at a time") }
            if query.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the query is empty") }
        }
    }

    func run() throws {
        let (configuration, terminal, library) = try global.openLibraryForReading()
        // The model loads only if a query needs a vector: never in keyword mode.
        let session = LibraryServices(configuration: configuration, library: library).searchSession()
        let passages = curriculum == nil && topic.isEmpty ? nil
            : try Curricula.passageIds(curriculum: curriculum, topics: topic, in: library)
        let filter = SearchFilter(sources: source, types: type, passages: passages)
        let limit = k ?? configuration.searchLimit
        if stdin {
            try SearchLines.answer(session, k: limit, mode: mode, filter: filter, minimumScore: minScore, group: group,
                                   timings: timings, terminal: terminal)
            return
        }
        let query = query ?? ""
        let outcome = try session.run(query, k: limit, mode: mode, filter: filter, minimumScore: minScore)
        let hits = outcome.hits
        // Notes go to stderr (or as `note` events): stdout stays the hits alone.
        for note in outcome.notes { terminal.note(note) }
        if json {
            if group { terminal.json(HitGroup.groups(hits)) } else { terminal.json(hits) }
        } else if hits.isEmpty {
            if outcome.notes.isEmpty { terminal.note(try session.emptyFilterReason(filter) ?? "no passages match '\(query)'") }
        } else if group {
            HitGroup.print(HitGroup.groups(hits), terminal) { HitRendering.snippet($0, terminal) }
        } else {
            HitRendering.print(hits, terminal)
        }
        // As grep: 1 when nothing was found (errors exit 2: ExitsLikeGrep).
        if hits.isEmpty { throw ExitCode(1) }
    }
}

extension SearchCommand: SharesGlobalOptions, ExitsLikeGrep {}
