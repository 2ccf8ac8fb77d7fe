import Foundation

/// Refuses XML whose internal DTD subset declares entities that expand hugely (the
/// "billion laughs" attack) before libxml2 sees it, whatever libxml2's own limits are.
enum EntityGuard {
    /// The most text any one entity may expand to.
    static let maxExpansion = 1 << 20
    /// The most entity declarations a document may make.
    static let maxDeclarations = 10_000

    static func check(_ data: Data, name: String) throws {
        // Only an internal subset can declare entities; most documents have none.
        guard let marker = data.range(of: Data("<!ENTITY".utf8)) else { return }
        let text = String(decoding: data[marker.lowerBound...].prefix(4 << 20), as: UTF8.self)
        var values: [String: String] = [:]
        var count = 0
        let pattern = #"<!ENTITY\s+(%\s+)?([^\s"']+)\s+("([^"]*)"|'([^']*)'|(SYSTEM|PUBLIC))"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return }
        let range = NSRange(text.startIndex..., in: text)
        for match in regex.matches(in: text, range: range) {
            count += 1
            if count > maxDeclarations {
                throw LecternError(.unsupported, name, "refused: more than \(maxDeclarations) entity declarations")
            }
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
    }
}
