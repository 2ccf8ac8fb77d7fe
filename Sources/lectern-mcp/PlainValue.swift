import Foundation
import MCP

/// A tool's JSON result read into the SDK's `Value` without its decoder: `Value`'s own
/// `init(from:)` tests every string for a `data:` URL with a regular expression it compiles
/// each time, which took 40% of a warm search call (passages are many strings). Results are
/// plain JSON: no string of theirs is data.
enum PlainValue: Decodable {
    case value(Value)

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .value(.null)
        } else if let bool = try? container.decode(Bool.self) {
            self = .value(.bool(bool))
        } else if let int = try? container.decode(Int.self) {
            self = .value(.int(int))
        } else if let double = try? container.decode(Double.self) {
            self = .value(.double(double))
        } else if let string = try? container.decode(String.self) {
            self = .value(.string(string))
        } else if let array = try? container.decode([PlainValue].self) {
            self = .value(.array(array.map(\.value)))
        } else {
            self = .value(.object(try container.decode([String: PlainValue].self).mapValues(\.value)))
        }
    }

    var value: Value {
        switch self { case .value(let value): value }
    }

    /// `data` (a JSON document) as a `Value`.
    static func decode(_ data: Data) throws -> Value {
        try JSONDecoder().decode(PlainValue.self, from: data).value
    }
}
