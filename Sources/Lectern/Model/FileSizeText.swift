import Foundation

/// A file's size as Foundation's `ByteCountFormatter` writes it with `countStyle: .file` ("Zero
/// KB", "1 byte", "999 bytes", "12 KB", "48.4 MB", "1.23 GB": 1,000 bytes a KB, KB without a
/// fraction, MB with one digit, GB and above with two, rounded half to even as its number
/// formatter rounds), written in Swift: the formatter starts ICU's number formatting, which was
/// ~5% of a `lectern stats` call (its profile). Where the locale may write numbers otherwise (not C, POSIX,
/// US or British English), and for negative counts, the formatter itself writes it.
public enum FileSizeText {
    public static func of(_ bytes: Int64, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard bytes >= 0, writesNumbersAsEnglish(environment) else {
            return ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
        }
        switch bytes {
        case 0: return "Zero KB"
        case 1: return "1 byte"
        case ..<1000: return "\(bytes) bytes"
        default: break
        }
        let units: [(name: String, size: Double, digits: Int)] = [
            ("KB", 1e3, 0), ("MB", 1e6, 1), ("GB", 1e9, 2), ("TB", 1e12, 2), ("PB", 1e15, 2), ("EB", 1e18, 2),
        ]
        let value = Double(bytes)
        let unit = units.first { value < $0.size * 1000 } ?? units[units.count - 1]
        return rounded(value / unit.size, digits: unit.digits) + " " + unit.name
    }

    /// Whether the number formatter writes "1,234.5" here: the locale variables name no locale,
    /// C, POSIX, or US or British English.
    static func writesNumbersAsEnglish(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_NUMERIC", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = locale.split(separator: ".").first.map(String.init) ?? ""
        return ["", "C", "POSIX", "en_US", "en_GB", "en"].contains(name)
    }

    /// `value` (positive) with at most `digits` fraction digits, trailing zeros dropped and the
    /// whole part grouped by thousands: from its shortest decimal form (Swift's `description`, as
    /// ICU rounds a double's shortest form), half to even.
    static func rounded(_ value: Double, digits: Int) -> String {
        let text = value.description
        guard !text.contains("e"), let point = text.firstIndex(of: ".") else { return grouped(text) }
        var whole = Array(text[..<point]).map { Int(String($0))! }
        let fraction = Array(text[text.index(after: point)...]).map { Int(String($0))! }
        var kept = Array(fraction.prefix(digits))
        let rest = Array(fraction.dropFirst(digits))
        // Half to even: up past a half, or at exactly a half when the last kept digit is odd.
        let first = rest.first ?? 0
        let beyondHalf = first > 5 || (first == 5 && rest.dropFirst().contains { $0 != 0 })
        let lastKept = kept.last ?? whole.last ?? 0
        if beyondHalf || (first == 5 && !beyondHalf && lastKept % 2 == 1) {
            var digitsUp = whole + kept
            var index = digitsUp.count - 1
            while index >= 0 {
                if digitsUp[index] == 9 {
                    digitsUp[index] = 0
                    index -= 1
                } else {
                    digitsUp[index] += 1
                    break
                }
            }
            if index < 0 { digitsUp.insert(1, at: 0) }
            whole = Array(digitsUp.prefix(digitsUp.count - kept.count))
            kept = Array(digitsUp.suffix(kept.count))
        }
        while kept.last == 0 { kept.removeLast() }
        let wholeText = grouped(whole.map(String.init).joined())
        return kept.isEmpty ? wholeText : wholeText + "." + kept.map(String.init).joined()
    }

    /// "1234" → "1,234".
    static func grouped(_ digits: String) -> String {
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}
