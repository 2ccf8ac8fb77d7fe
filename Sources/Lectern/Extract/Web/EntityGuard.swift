import Foundation

/// Refuses XML whose internal DTD subset declares entities that expand hugely before libxml2
/// sees it, whatever libxml2's own limits are: one entity nesting others (the "billion laughs"
/// attack), and a modest entity referenced thousands of times (a 100 KB entity used 5,000
/// times in a 125 KB module would be 500 MB of text). The second is bounded by the document's
/// whole expanded size, as every reader's output is (`OutputBounds`).
enum EntityGuard {
    /// The most text any one entity may expand to.
    static let maxExpansion = 1 << 20
    /// The most entity declarations a document may make.
    static let maxDeclarations = 10_000
    /// The most text a document's references may expand it to, whatever its size: the markup
    /// readers' input limit.
    static let maxDocumentExpansion = MarkupDocument.maxBytes

    static func check(_ data: Data, name: String) throws {
        // Only an internal subset can declare entities; most documents have none.
        guard let marker = data.range(of: Data("<!ENTITY".utf8)) else { return }
        let declarationBytes = data[marker.lowerBound...].prefix(4 << 20)
        let text = String(decoding: declarationBytes, as: UTF8.self)
        var values: [String: String] = [:]
        var count = 0
        var declarationsEnd = text.startIndex
        let pattern = #"<!ENTITY\s+(%\s+)?([^\s"']+)\s+("([^"]*)"|'([^']*)'|(SYSTEM|PUBLIC))"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return }
        let range = NSRange(text.startIndex..., in: text)
        for match in regex.matches(in: text, range: range) {
            count += 1
            if count > maxDeclarations {
                throw LecternError(.unsupported, name, "refused: more than \(maxDeclarations) entity declarations")
            }
            if let whole = Range(match.range, in: text) { declarationsEnd = whole.upperBound }
            guard let nameRange = Range(match.range(at: 2), in: text) else { continue }
            let entity = String(text[nameRange])
            if let value = Range(match.range(at: 4), in: text) ?? Range(match.range(at: 5), in: text) {
                values[entity] = String(text[value])
            } else {
                values[entity] = ""  // external: never loaded, expands to nothing here
            }
        }
        var memo: [String: Int] = [:]
        func size(_ entity: String, depth: Int) throws -> Int {
            if let known = memo[entity] { return known }
            guard depth < 40 else {
                throw LecternError(.unsupported, name, "refused: entity declarations nest too deep or refer to themselves")
            }
            guard let value = values[entity] else { return 0 }
            var total = value.utf8.count
            var rest = Substring(value)
            while let amp = rest.firstIndex(where: { $0 == "&" || $0 == "%" }) {
                let after = rest[rest.index(after: amp)...]
                guard let semicolon = after.firstIndex(of: ";") else { break }
                let reference = String(after[..<semicolon])
                total += try size(reference, depth: depth + 1)
                if total > maxExpansion {
                    throw LecternError(.unsupported, name,
                                       "refused: entity \"\(entity)\" expands to over \(maxExpansion >> 20) MiB of text (an entity-expansion attack)")
                }
                rest = after[after.index(after: semicolon)...]
            }
            memo[entity] = total
            return total
        }
        for entity in values.keys.sorted() { _ = try size(entity, depth: 0) }

        // Every reference after the declarations (the document itself) adds its entity's text.
        let bodyStart = marker.lowerBound + text[..<declarationsEnd].utf8.count
        let uses = references(in: data[bodyStart...], to: memo.filter { $0.value > 0 })
        let expanded = uses.reduce(data.count) { $0 + $1.value * memo[$1.key, default: 0] }
        let limit = min(maxDocumentExpansion, OutputBounds.textLimit(inputBytes: data.count))
        if expanded > limit, let (entity, times) = uses.max(by: { $0.value * memo[$0.key, default: 0] < $1.value * memo[$1.key, default: 0] }) {
            throw LecternError(.unsupported, name,
                               "refused: entity \"\(entity)\" is used \(times) times, expanding the document to over \(OutputBounds.mebibytes(expanded)) MiB of text (an entity-expansion attack)")
        }
    }

    /// How often each of `entities` is referenced (`&name;`) in `body`.
    static func references(in body: Data, to entities: [String: Int]) -> [String: Int] {
        guard !entities.isEmpty else { return [:] }
        let names = Dictionary(uniqueKeysWithValues: entities.keys.map { (Array($0.utf8), $0) })
        let longest = names.keys.map(\.count).max() ?? 0
        var counts: [String: Int] = [:]
        body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "&") else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < bytes.count, end - index - 1 <= longest, bytes[end] != UInt8(ascii: ";") { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: ";"),
                   let entity = names[Array(bytes[(index + 1)..<end])] {
                    counts[entity, default: 0] += 1
                    index = end + 1
                } else {
                    index += 1
                }
            }
        }
        return counts
    }
}
