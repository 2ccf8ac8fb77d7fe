/// A reference to a passage of a library (what a card, a key term, a hit or a topic's stored
/// list points at), as it prints and parses everywhere: `p1662` (`lectern show p1662`, a hit's
/// `p<N>`). In JSON it is `ref`, beside the numeric `passageId` (or a passage's own `id`),
/// which stays: scripts written against the number keep working.
public struct PassageReference: Hashable, Sendable, CustomStringConvertible {
    public var id: Int64

    public init(_ id: Int64) { self.id = id }

    /// `p123` (or `P123`); nil for anything else (a document's short id is hex, so never
    /// starts with `p`).
    public init?(_ text: String) {
        guard text.count > 1, text.first == "p" || text.first == "P", let id = Int64(text.dropFirst()) else { return nil }
        self.id = id
    }

    public var description: String { "p\(id)" }

    public static func text(_ id: Int64) -> String { PassageReference(id).description }
}

/// A record whose JSON carries `ref: "p<N>"` beside its passage id.
///
/// Its `encode(to:)` is `encodeWithPassageReference(to:)`: the stored properties as the
/// synthesized encoding writes them (same keys, a nil optional left out), then `ref`. The
/// decoding stays synthesized and ignores `ref`, so JSON written before `ref` (curricula
/// stored in a library, a script's saved output) still reads, and a property added to the
/// record later is encoded without anyone remembering to list it here.
protocol PassageReferenced: Encodable {
    /// The passage the record names; nil writes no `ref` (a key term read from no passage).
    var referencedPassage: Int64? { get }
}

extension PassageReferenced {
    func encodeWithPassageReference(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PassageReferenceKey.self)
        for child in Mirror(reflecting: self).children {
            guard let label = child.label else { continue }
            if let optional = child.value as? any OptionalValue, optional.isNone { continue }
            guard let value = child.value as? any Encodable else {
                throw EncodingError.invalidValue(child.value, .init(codingPath: encoder.codingPath + [PassageReferenceKey(label)],
                                                                    debugDescription: "\(label) is not Encodable"))
            }
            try container.encode(value, forKey: PassageReferenceKey(label))
        }
        if let id = referencedPassage {
            try container.encode(PassageReference.text(id), forKey: PassageReferenceKey("ref"))
        }
    }
}

struct PassageReferenceKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Lets the encoding above leave out a nil optional, as `encodeIfPresent` does.
protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    var isNone: Bool { self == nil }
}
