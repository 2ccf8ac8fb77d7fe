import Foundation

/// JSON that no reader of JSON recognises (not transcript turns, not an OCW course): refused
/// with a line saying so, rather than stored as its raw text by the reader of last resort.
/// It asks after the readers that know a JSON shape and before the text readers.
struct UnknownJSONExtractor: Extractor {
    let name = "json"
    let version = 1

    /// Larger JSON is not parsed just to be refused; the text readers take it as they would.
    static let maxBytes = 64 << 20

    init() {}

    /// JSON nested deeper is no document (a 100,000-deep array was read as text: 855 passages
    /// of brackets); Foundation's parser gives up at this depth too.
    static let maxDepth = 512

    func confidence(for input: SourceInput) -> Int {
        Self.isJSON(input.data) || Self.isTooDeep(input.data) ? 75 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        if Self.isTooDeep(input.data) {
            throw LecternError(.unsupported, input.displayName, "refused: JSON nested over \(Self.maxDepth) levels deep, which is no text to read")
        }
        throw LecternError(.unknownShape, input.displayName,
                           "JSON of no known shape (neither transcript turns with start times nor an OCW course)")
    }

    /// JSON-shaped bytes (an array or object, by their first and last bytes) whose brackets
    /// nest deeper than `maxDepth` outside strings.
    static func isTooDeep(_ data: Data) -> Bool {
        guard !data.isEmpty, data.count <= maxBytes, hasJSONEnds(data) else { return false }
        var depth = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }

    /// `{…}` or `[…]`, around whitespace and a byte-order mark.
    private static func hasJSONEnds(_ data: Data) -> Bool {
        let space: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        var body = data[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let first = body.first(where: { !space.contains($0) }), let last = body.last(where: { !space.contains($0) }) else { return false }
        return (first == UInt8(ascii: "{") && last == UInt8(ascii: "}")) || (first == UInt8(ascii: "[") && last == UInt8(ascii: "]"))
    }

    /// Valid JSON holding an object or an array. The first and last bytes are looked at
    /// before any parsing: most text is turned down without it.
    static func isJSON(_ data: Data) -> Bool {
        guard !data.isEmpty, data.count <= maxBytes else { return false }
        let space: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        var body = data[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let first = body.first(where: { !space.contains($0) }), let last = body.last(where: { !space.contains($0) }),
              (first == UInt8(ascii: "{") && last == UInt8(ascii: "}")) || (first == UInt8(ascii: "[") && last == UInt8(ascii: "]")) else {
            return false
        }
        return (try? JSONSerialization.jsonObject(with: Data(body))) != nil
    }
}
