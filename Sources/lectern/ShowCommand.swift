import ArgumentParser
import Foundation
import Lectern

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one document (its metadata and table of contents) or one passage of a hit.",
        discussion: """
            DOC is a short id from `lectern sources` (or its first 4+ characters), a path or a \
            URI; or a search hit's passage, `p<N>`, printed with its neighbours.

              lectern show 3f2a               its table of contents
              lectern show 3f2a --passages    every passage (paged on a terminal)
              lectern show p123 --context 2   a hit and 2 passages either side
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Short id, path or URI of a document; or p<N>, a search hit's passage.", completion: Completions.documents)
    var document: String

    @Flag(help: "Print passages in full, not only the table of contents.")
    var passages = false

    @Option(help: "With p<N>: how many passages before and after it to print (default 1).")
    var context: Int?

    @Flag(help: "Print as JSON.")
    var json = false

    func validate() throws {
        if let context, context < 0 { throw ValidationError("--context must be 0 or more") }
        if LibraryListing.passageId(document) == nil, context != nil {
            throw ValidationError("--context goes with a passage, p<N> (as a search hit names it), not with a document")
        }
    }

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        if let id = LibraryListing.passageId(document) {
            let view = try LibraryListing.passage(id, context: context ?? 1, in: library)
            if json { terminal.json(view) } else { PassageRendering.print(view, terminal) }
            return
        }
        let view = try LibraryListing.document(document, in: library)
        if json {
            terminal.json(view)
            return
        }
        // Every passage of a long document: paged on a terminal, as it is through a pipe.
        let pager = passages ? Pager.start(terminal) : nil
        defer { pager?.finish() }
        let doc = view.document
        terminal.out(terminal.bold(doc.title))
        terminal.out("id \(doc.shortId)  type \(doc.type)  reader \(doc.extractor)  \(doc.passageCount) passages  \(doc.blockCount) blocks")
        terminal.out("\(doc.path.map(DisplayPath.of) ?? doc.uri)")
        for (key, value) in view.metadata.sorted(by: { $0.key < $1.key }) {
            terminal.out("\(key): \(PassageRendering.metadataValue(key, value))")
        }
        for warning in view.warnings { terminal.out("warning: \(warning)") }
        terminal.out("updated \(doc.updatedAt)")
        terminal.out("")
        printSummaries(view, terminal)
        if passages {
            for passage in view.passages {
                terminal.out(terminal.dim("[p\(passage.id)] \(Location.describe(passage)) · \(passage.tokenCount) tokens"))
                terminal.outLines(passage.text)
                terminal.out("")
            }
        } else if !view.outline.isEmpty {
            PassageRendering.printOutline(view.outline, terminal)
        } else if view.passages.contains(where: { $0.timeStart != nil }) {
            PassageRendering.printTimeline(view.passages, terminal)
        } else {
            // No heading stored (plain text): the sections its passages run through.
            for section in view.sections where !section.isEmpty {
                terminal.out("\(String(repeating: "  ", count: section.count - 1))\(section.last ?? "")")
            }
        }
    }

    func printSummaries(_ view: DocumentView, _ terminal: Terminal) {
        guard let first = view.summaries.first else { return }
        var heading: TerminalText = "Summary (\(first.provider)/\(first.model))"
        if view.summariesAreStale { heading += " — made before the document changed: run `lectern summarize \(view.document.shortId)`" }
        terminal.out(terminal.bold(heading))
        for summary in view.summaries {
            if let section = summary.section { terminal.out(terminal.bold("§ " + section)) }
            terminal.outLines(summary.text)
            for point in summary.keyPoints { terminal.out("  • \(point)") }
            terminal.out("")
        }
    }
}

extension ShowCommand: SharesGlobalOptions {}
