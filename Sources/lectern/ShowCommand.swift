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

    struct Shown: Encodable {
        var document: StoredDocument
        var metadata: [String: String]
        var warnings: [String]
        var sections: [[String]]
        var passages: [StoredPassage]
        var summaries: [StoredSummary]
    }

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let store = try global.openStore(configuration, access: .read)
        let found = try store.documents(matching: document, absolutePath: Configuration.resolvePath(document, base: nil))
        guard let doc = found.first else {
            throw LecternError(.notFound, document, "no document with this id, path or URI (see `lectern sources`)")
        }
        if found.count > 1 {
            throw LecternError(.invalidInput, document, "matches \(found.count) documents: " + found.prefix(5).map { "\($0.shortId) \($0.uri)" }.joined(separator: ", "))
        }
        let stored = try store.passages(documentId: doc.id)
        var sections: [[String]] = []
        for passage in stored where sections.last != passage.sectionPath { sections.append(passage.sectionPath) }
        let summaries = try store.summaries(documentId: doc.id)
        if json {
            terminal.json(Shown(document: doc, metadata: doc.metadataDictionary, warnings: doc.warningList, sections: sections,
                                passages: stored, summaries: summaries))
            return
        }
        terminal.out(terminal.bold(doc.title))
        terminal.out("id \(doc.shortId)  type \(doc.type)  reader \(doc.extractor)  \(doc.passageCount) passages  \(doc.blockCount) blocks")
        terminal.out(doc.path.map(DisplayPath.of) ?? doc.uri)
        for (key, value) in doc.metadataDictionary.sorted(by: { $0.key < $1.key }) { terminal.out("\(key): \(value)") }
        for warning in doc.warningList { terminal.out("warning: \(warning)") }
        terminal.out("updated \(doc.updatedAt)")
        terminal.out("")
        printSummaries(summaries, of: doc, terminal)
        if passages {
            for passage in stored {
                terminal.out(terminal.dim("[\(passage.ordinal + 1)] \(Location.describe(passage)) · \(passage.tokenCount) tokens"))
                terminal.out(passage.text)
                terminal.out("")
            }
        } else {
            for section in sections where !section.isEmpty {
                terminal.out(String(repeating: "  ", count: section.count - 1) + (section.last ?? ""))
            }
        }
    }

    func printSummaries(_ summaries: [StoredSummary], of doc: StoredDocument, _ terminal: Terminal) {
        guard let first = summaries.first else { return }
        var heading = "Summary (\(first.provider)/\(first.model))"
        if first.contentHash != doc.contentHash { heading += " — made before the document changed: run `lectern summarize \(doc.shortId)`" }
        terminal.out(terminal.bold(heading))
        for summary in summaries {
            if let section = summary.section { terminal.out(terminal.bold("§ " + section)) }
            terminal.out(summary.text)
            for point in summary.keyPoints { terminal.out("  • " + point) }
            terminal.out("")
        }
    }
}
