import Foundation

extension Ingestor {
    /// Whether the library holds `item` as the next ingest would leave it: every document of it
    /// stored under the skip key its bytes, reader, chunk settings and embedder make now. Reads
    /// the bytes and picks the reader (to hash them as ingest does), extracts nothing.
    /// `lectern run --finish` asks it of every file of the plan before the finishing stages.
    func isCurrent(_ item: InputExpander.Item) throws -> Bool {
        let input = try reader.load(item)
        let source = try reader.open(input, display: item.display)
        defer { withExtendedLifetime(source) {} }
        let whole = source.input, reader = source.reader
        let hash = contentHash(whole)
        let key = skipKey(contentHash: hash, reader: reader)
        let ocrKey = reader is PDFExtractor ? skipKey(contentHash: hash, reader: reader, ocr: true) : nil
        let parts = reader.parts(of: whole)
        let uris = parts.isEmpty ? [whole.uri] : parts.map { whole.uri + "#" + $0 }
        for uri in uris {
            guard let existing = try store.document(uri: uri), existing.skipKey == key || existing.skipKey == ocrKey else { return false }
        }
        return true
    }

    /// The files `arguments` name (globs and folders expanded as ingest expands them, this
    /// ingestor's shard applied).
    func expandedItems(_ arguments: [String]) -> [InputExpander.Item] {
        let items = InputExpander(registry: registry, selection: selection).walk(arguments.filter { SourceSpec.parse($0) == nil }).items
        guard let shard else { return items }
        return items.filter { shard.takes($0.path) }
    }
}
