import ArgumentParser
import Lectern

struct CurriculumFindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find the topics that answer a question (ranked like search: words and meaning).",
        discussion: """
              lectern curriculum find "what did the Milesians ask about nature?"
              lectern curriculum find "free will" --curriculum philosophy -k 3
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to look for: a question or some words.")
    var query: String

    @Option(help: "Only this curriculum's topics.", completion: Completions.curricula)
    var curriculum: String?

    @Option(name: .short, parsing: .unconditional, help: "How many topics (at least 1; default 5).")
    var k: Int = 5

    @Option(help: "hybrid (words and meaning, their scores combined), keyword (BM25 over titles, objectives, key terms and summaries) or semantic.")
    var mode: SearchMode = .hybrid

    @Flag(help: "Print topics as JSON.")
    var json = false

    func validate() throws {
        if k < 1 { throw ValidationError("-k must be at least 1") }
        if query.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the query is empty") }
    }

    func run() throws {
        let (configuration, terminal, library) = try global.openLibraryForReading()
        let embedder = try EmbedderCatalog.resolve(library: library, configuration: configuration)
        let hits = try Curricula.find(query, curriculum: curriculum, k: k, mode: mode, in: library, embedder: embedder)
        if json {
            terminal.json(hits)
            return
        }
        if hits.isEmpty {
            terminal.note("no topic matches '\(query)'")
            return
        }
        for hit in hits {
            terminal.out("\(hit.rank). \(terminal.bold(hit.title))  \(terminal.dim(String(format: "%.4f", hit.score)))")
            terminal.out("   \(terminal.dim("[\(hit.id)]"))  \(hit.curriculum) › \(hit.unit)  \(CurriculumShowCommand.duration(hit.studyMinutes))")
            if !hit.summary.isEmpty { terminal.outLines(hit.summary, indent: "   ") }
            terminal.out("")
        }
    }
}

extension CurriculumFindCommand: SharesGlobalOptions {}
