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
    }

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let store = try global.openStore(configuration, mustExist: true)
        let found = try store.documents(matching: document)
        guard let doc = found.first else {
            throw LecternError(.notFound, document, "no document with this id, path or URI (see `lectern sources`)")
        }
        if found.count > 1 {
            throw LecternError(.invalidInput, document, "matches \(found.count) documents: " + found.prefix(5).map { "\($0.shortId) \($0.uri)" }.joined(separator: ", "))
        }
        let stored = try store.passages(documentId: doc.id)
        var sections: [[String]] = []
        for passage in stored where sections.last != passage.sectionPath { sections.append(passage.sectionPath) }
        if json {
            terminal.json(Shown(document: doc, metadata: doc.metadataDictionary, warnings: doc.warningList, sections: sections, passages: stored))
            return
        }
        terminal.out(terminal.bold(doc.title))
        terminal.out("id \(doc.shortId)  type \(doc.type)  reader \(doc.extractor)  \(doc.passageCount) passages  \(doc.blockCount) blocks")
        terminal.out(doc.path.map { InputExpander.display($0) } ?? doc.uri)
        for (key, value) in doc.metadataDictionary.sorted(by: { $0.key < $1.key }) { terminal.out("\(key): \(value)") }
        for warning in doc.warningList { terminal.out("warning: \(warning)") }
        terminal.out("updated \(doc.updatedAt)")
        terminal.out("")
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
}
