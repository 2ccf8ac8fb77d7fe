import Foundation

/// Time codes as subtitle and transcript formats write them.
enum TimeCode {
    /// `01:02:03,456` (SRT), `01:02:03.456` and `02:03.456` (WebVTT), `1:02:03`, `02:03`, `[00:12:34]`
    /// → seconds. Nil when the text is not a time code (letters, minutes or seconds ≥ 60, …).
    static func parse<S: StringProtocol>(_ raw: S) -> Double? {
        // Bytes, not Characters: this runs on every timing line of long files.
        var bytes = Array(raw.utf8)[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        if bytes.first == 0x5B, bytes.last == 0x5D { bytes = bytes.dropFirst().dropLast() }  // [ ]
        var fraction = 0.0
        if let separator = bytes.lastIndex(where: { $0 == 0x2C || $0 == 0x2E }) {  // , .
            let digits = bytes[(separator + 1)...]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            // An integer over a power of ten: rounds exactly as parsing "0.345" would.
            var value = 0
            var scale = 1
            for digit in digits {
                value = value * 10 + Int(digit - 0x30)
                scale *= 10
            }
            fraction = Double(value) / Double(scale)
            bytes = bytes[..<separator]
        }
        var numbers: [Int] = []
        var current = 0
        var length = 0
        for byte in bytes {
            if byte == 0x3A {  // :
                guard length > 0 else { return nil }
                numbers.append(current)
                current = 0
                length = 0
            } else if byte >= 0x30 && byte <= 0x39, length < 3 {
                current = current * 10 + Int(byte - 0x30)
                length += 1
            } else {
                return nil
            }
        }
        guard length > 0 else { return nil }
        numbers.append(current)
        guard (2...3).contains(numbers.count) else { return nil }
        let (hours, minutes, seconds) = numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : (0, numbers[0], numbers[1])
        guard seconds < 60, minutes < 60 || numbers.count == 2 else { return nil }
        return Double(hours * 3600 + minutes * 60 + seconds) + fraction
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
