import Foundation

/// Time codes as subtitle and transcript formats write them.
public enum TimeCode {
    /// `01:02:03,456` (SRT), `01:02:03.456` and `02:03.456` (WebVTT), `1:02:03`, `02:03`, `[00:12:34]`
    /// → seconds. Nil when the text is not a time code (letters, minutes or seconds ≥ 60, …).
    public static func parse<S: StringProtocol>(_ raw: S) -> Double? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var fraction = 0.0
        if let separator = text.lastIndex(where: { $0 == "," || $0 == "." }) {
            let digits = text[text.index(after: separator)...]
            guard (1...3).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let value = Double("0." + digits) else { return nil }
            fraction = value
            text = String(text[..<separator])
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }) else {
            return nil
        }
        let numbers = parts.compactMap { Int($0) }
        let (hours, minutes, seconds) = numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : (0, numbers[0], numbers[1])
        guard seconds < 60, minutes < 60 || numbers.count == 2 else { return nil }
        return Double(hours * 3600 + minutes * 60 + seconds) + fraction
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
