import ArgumentParser
import Foundation
import Lectern

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sources", abstract: "List what the library holds.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let store = try global.openStore(configuration, access: .read)
        let sources = try store.sources()
        let documents = try store.allDocuments()
        let bySource = Dictionary(grouping: documents, by: \.sourceId)
        if json {
            terminal.json(sources.map { Listing(source: $0, documents: bySource[$0.id] ?? []) })
            return
        }
        if sources.isEmpty {
            terminal.err("lectern: the library is empty")
            return
        }
        for source in sources {
            let docs = bySource[source.id] ?? []
            let id = docs.count == 1 ? docs[0].shortId : "\(docs.count) docs"
            let name = docs.count == 1 ? (docs[0].path.map(DisplayPath.of) ?? source.uri) : source.uri
            terminal.out("\(terminal.dim(id))  \(name)  \(source.types.map(\.rawValue).joined(separator: ","))  \(source.passages) passages  \(terminal.dim(source.title ?? ""))")
        }
    }
}

/// One source in `lectern sources --json`: its summary, the short ids `lectern show` takes for
/// its documents, and the file or folder it was read from.
private struct Listing: Encodable {
    var source: SourceSummary
    var documents: [StoredDocument]

    enum CodingKeys: String, CodingKey { case id, uri, kind, documents, passages, types, title, updatedAt, documentIds, path }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source.id, forKey: .id)
        try container.encode(source.uri, forKey: .uri)
        try container.encode(source.kind, forKey: .kind)
        try container.encode(source.documents, forKey: .documents)
        try container.encode(source.passages, forKey: .passages)
        try container.encode(source.types.map(\.rawValue).joined(separator: ","), forKey: .types)
        try container.encodeIfPresent(source.title, forKey: .title)
        try container.encode(source.updatedAt, forKey: .updatedAt)
        try container.encode(documents.map(\.shortId), forKey: .documentIds)
        try container.encodeIfPresent(documents.first?.path, forKey: .path)
    }
}
