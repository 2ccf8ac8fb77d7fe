import CLibXML2
import Foundation

/// Refuses XML whose entities expand hugely, whatever libxml2's own limits are: one entity
/// nesting others (the "billion laughs" attack), and a modest entity referenced thousands of
/// times (a 100 KB entity used 5,000 times in a 125 KB module would be 500 MB of text). The
/// second is bounded by the document's whole expanded size, as every reader's output is
/// (`OutputBounds`).
///
/// Two checks: `check` reads the internal subset's declarations before libxml2 sees the bytes
/// (and refuses parameter entities, which declare entities out of sight of such a reading), and
/// `checkParsed` counts, on the tree libxml2 built, what every reference stands for, however its
/// entity was declared: the count the readers' expansion would reach, made before they expand.
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
        if let parameter = parameterEntity(in: data[marker.lowerBound...]) {
            throw LecternError(.unsupported, name,
                               "refused: the document type declares a parameter entity (%\(parameter)), which learning material never needs (a way round entity limits)")
        }
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

    /// The name of the first parameter entity (`<!ENTITY % name …>`) declared in `data`, if any.
    /// Any such declaration counts, even in a comment: a document that hides one gains nothing.
    static func parameterEntity(in data: Data) -> String? {
        let marker = Data("<!ENTITY".utf8)
        var rest = data[...]
        while let found = rest.range(of: marker) {
            var index = found.upperBound
            var sawSpace = false
            while index < data.endIndex, Self.isSpace(data[index]) { index += 1; sawSpace = true }
            if sawSpace, index < data.endIndex, data[index] == UInt8(ascii: "%") {
                index += 1
                while index < data.endIndex, Self.isSpace(data[index]) { index += 1 }
                let name = data[index...].prefix(64).prefix { !Self.isSpace($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") }
                return String(decoding: name, as: UTF8.self)
            }
            rest = data[found.upperBound...]
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

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

extension EntityGuard {
    /// Refuses a parsed document whose entity references stand for more text than the document
    /// may expand to, counted on libxml2's tree (in text and in attribute values), whatever
    /// declared the entities. Counting is cheap: each entity's size is found once.
    static func checkParsed(_ document: xmlDocPtr, inputBytes: Int, name: String) throws {
        guard let root = lazy_xmlDocGetRootElement(document) else { return }
        var sizes: [UnsafeMutablePointer<xmlEntity>: Int] = [:]
        var uses: [UnsafeMutablePointer<xmlEntity>: Int] = [:]
        var expanded = inputBytes
        var pending: [xmlNodePtr] = [root]
        while let node = pending.popLast() {
            switch node.pointee.type {
            case XML_ENTITY_REF_NODE:
                guard let entityName = node.pointee.name, let entity = lazy_xmlGetDocEntity(document, entityName) else { break }
                let size = try expandedSize(entity, in: document, sizes: &sizes, depth: 0, name: name)
                uses[entity, default: 0] += 1
                expanded += size
            case XML_ELEMENT_NODE:
                var attribute = node.pointee.properties
                while let current = attribute {
                    if let value = current.pointee.children { pending.append(value) }
                    attribute = current.pointee.next
                }
                if let child = node.pointee.children { pending.append(child) }
            default:
                break
            }
            // Siblings are pushed as they are met: the walk needs no recursion, however deep the tree.
            if let next = node.pointee.next { pending.append(next) }
        }
        let limit = min(maxDocumentExpansion, OutputBounds.textLimit(inputBytes: inputBytes))
        guard expanded > limit,
              let (entity, times) = uses.max(by: { $0.value * sizes[$0.key, default: 0] < $1.value * sizes[$1.key, default: 0] }) else { return }
        let entityName = entity.pointee.name.map { String(cString: $0) } ?? "?"
        throw LecternError(.unsupported, name,
                           "refused: entity \"\(entityName)\" is used \(times) times, expanding the document to over \(OutputBounds.mebibytes(expanded)) MiB of text (an entity-expansion attack)")
    }

    /// The text `entity` stands for: its replacement text as the readers read it, or, when larger,
    /// everything it holds with nested references expanded (as an attribute value reads).
    private static func expandedSize(_ entity: UnsafeMutablePointer<xmlEntity>, in document: xmlDocPtr,
                                     sizes: inout [UnsafeMutablePointer<xmlEntity>: Int],
                                     depth: Int, name: String) throws -> Int {
        if let known = sizes[entity] { return known }
        guard entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY || entity.pointee.etype == XML_INTERNAL_PREDEFINED_ENTITY else {
            sizes[entity] = 0  // external: never loaded, expands to nothing here
            return 0
        }
        let entityName = entity.pointee.name.map { String(cString: $0) } ?? "?"
        guard depth < 40 else {
            throw LecternError(.unsupported, name, "refused: entity declarations nest too deep or refer to themselves")
        }
        var nested = 0
        var pending: [xmlNodePtr] = entity.pointee.children.map { [$0] } ?? []
        while let node = pending.popLast() {
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                nested += node.pointee.content.map { strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? 0
            case XML_ENTITY_REF_NODE:
                if let inner = node.pointee.name, let reference = lazy_xmlGetDocEntity(document, inner) {
                    nested += try expandedSize(reference, in: document, sizes: &sizes, depth: depth + 1, name: name)
                }
            case XML_ELEMENT_NODE:
                if let child = node.pointee.children { pending.append(child) }
            default:
                break
            }
            if let next = node.pointee.next { pending.append(next) }
            if nested > maxExpansion { break }
        }
        let size = max(Int(entity.pointee.length), nested)
        if size > maxExpansion {
            throw LecternError(.unsupported, name,
                               "refused: entity \"\(entityName)\" expands to over \(maxExpansion >> 20) MiB of text (an entity-expansion attack)")
        }
        sizes[entity] = size
        return size
    }
}
