import ArgumentParser
import Foundation
import Lectern

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one document: its metadata, outline and passages.",
        discussion: "DOC is a short id from `lectern sources` (or its first 4+ characters), a path or a URI.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Short id, path or URI.")
    var document: String

    @Flag(help: "Print passages in full, not only the outline.")
    var passages = false

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, store) = try global.openForReading()
        let view = try LibraryListing.document(document, in: store)
        if json {
            terminal.json(view)
            return
        }
        let doc = view.document
        terminal.out(terminal.bold(doc.title))
        terminal.out("id \(doc.shortId)  type \(doc.type)  reader \(doc.extractor)  \(doc.passageCount) passages  \(doc.blockCount) blocks")
        terminal.out("\(doc.path.map(DisplayPath.of) ?? doc.uri)")
        for (key, value) in view.metadata.sorted(by: { $0.key < $1.key }) { terminal.out("\(key): \(value)") }
        for warning in view.warnings { terminal.out("warning: \(warning)") }
        terminal.out("updated \(doc.updatedAt)")
        terminal.out("")
        printSummaries(view, terminal)
        if passages {
            for passage in view.passages {
                terminal.out(terminal.dim("[\(passage.ordinal + 1)] \(Location.describe(passage)) · \(passage.tokenCount) tokens"))
                terminal.outLines(passage.text)
                terminal.out("")
            }
        } else {
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
