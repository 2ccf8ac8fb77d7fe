import Foundation

/// What OCR read on one page image: its lines in Tesseract's reading order, each with its
/// words, boxes in pixels from the top-left corner, and confidences (0–100).
struct OCRText: Sendable {
    struct Word: Sendable {
        var text: String
        var x1: Int, y1: Int, x2: Int, y2: Int
        var confidence: Double
    }

    struct Line: Sendable {
        var words: [Word]
        var x1: Int, y1: Int, x2: Int, y2: Int
        /// The first line of a paragraph as Tesseract's layout analysis found it.
        var startsParagraph: Bool

        var text: String { words.map(\.text).joined(separator: " ") }
        var confidence: Double { words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count) }

        /// The font size in pixels the line's words suggest: each word's height over the share
        /// of the em its letters reach (capitals and ascenders to the baseline ~0.72, with a
        /// descender ~0.95, x-height letters alone ~0.5), the median over the words. Tesseract's
        /// LSTM engine reports no point size itself.
        var emHeight: Double {
            var estimates: [Double] = []
            for word in words {
                let letters = word.text.filter { $0.isLetter || $0.isNumber }
                guard !letters.isEmpty else { continue }
                let ascends = letters.contains { $0.isUppercase || $0.isNumber || "bdfhklt".contains($0) || "äöüß".contains($0) }
                let descends = letters.contains { "gjpqy".contains($0) }
                let share = ascends ? (descends ? 0.95 : 0.72) : (descends ? 0.72 : 0.5)
                estimates.append(Double(word.y2 - word.y1) / share)
            }
            guard !estimates.isEmpty else { return Double(y2 - y1) }
            estimates.sort()
            return estimates[estimates.count / 2]
        }
    }

    var lines: [Line]
    var width: Int
    var height: Int

    var wordCount: Int { lines.reduce(0) { $0 + $1.words.count } }
}
