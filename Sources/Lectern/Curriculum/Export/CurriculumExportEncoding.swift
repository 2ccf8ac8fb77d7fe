import Foundation

/// The one JSON encoding every curriculum export uses: pretty, keys sorted, slashes as they
/// are, dates as ISO 8601 with a zone, a final newline, so the same value gives the same bytes.
enum CurriculumExportEncoding {
    static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }
}
