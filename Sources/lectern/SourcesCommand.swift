import ArgumentParser
import Foundation
import Lectern

struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sources", abstract: "List what the library holds.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, store) = try global.openForReading()
        let listings = try LibraryListing.sources(in: store)
        if json {
            terminal.json(listings)
            return
        }
        if listings.isEmpty {
            terminal.note("the library is empty")
            return
        }
        for listing in listings {
            let (source, docs) = (listing.source, listing.documents)
            let id = docs.count == 1 ? docs[0].shortId : "\(docs.count) docs"
            let name = docs.count == 1 ? (docs[0].path.map(DisplayPath.of) ?? source.uri) : source.uri
            terminal.out("\(terminal.dim(id))  \(name)  \(source.types.map(\.rawValue).joined(separator: ","))  \(source.passages) passages  \(terminal.dim(source.title ?? ""))")
        }
    }
}

extension SourcesCommand: SharesGlobalOptions {}
