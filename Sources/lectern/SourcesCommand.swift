import ArgumentParser
import Foundation
import Lectern

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sources", abstract: "List what the library holds.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let listings = try LibraryListing.sources(in: library)
        if json {
            terminal.json(listings)
            return
        }
        if listings.isEmpty {
            terminal.note("the library is empty")
            return
        }
        // Aligned columns: id, name, types, passages, title (the title last, as it may be long).
        let rows = listings.map { listing -> (id: String, name: String, types: String, passages: Int, title: String) in
            let (source, docs) = (listing.source, listing.documents)
            let id = docs.count == 1 ? docs[0].shortId : "\(docs.count) docs"
            let name = docs.count == 1 ? (docs[0].path.map(DisplayPath.of) ?? source.uri) : source.uri
            return (id, name, source.types.map(\.rawValue).joined(separator: ","), source.passages, source.title ?? "")
        }
        let idWidth = rows.map { Self.width($0.id) }.max() ?? 0
        let nameWidth = rows.map { Self.width($0.name) }.max() ?? 0
        let typesWidth = rows.map { Self.width($0.types) }.max() ?? 0
        let countWidth = rows.map { String($0.passages).count }.max() ?? 0
        let counts = rows.map { Self.padded(String($0.passages), countWidth, right: true) + " " + Plural.word($0.passages, "passage") }
        let countsWidth = counts.map(\.count).max() ?? 0
        for (row, passages) in zip(rows, counts) {
            var line: TerminalText = "\(terminal.dim(Self.padded(row.id, idWidth)))  \(Self.padded(row.name, nameWidth))  \(Self.padded(row.types, typesWidth))  "
            line += row.title.isEmpty ? "\(passages)" : "\(Self.padded(passages, countsWidth))  \(terminal.dim(row.title))"
            terminal.out(line)
        }
    }

    /// Columns a cell takes once its control characters are made visible.
    static func width(_ cell: String) -> Int { TerminalText.visible(cell).count }

    static func padded(_ cell: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - Self.width(cell)))
        return right ? fill + cell : cell + fill
    }
}

extension SourcesCommand: SharesGlobalOptions {}
