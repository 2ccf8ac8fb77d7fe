import CPoppler
import Foundation

/// One page's text as poppler gives it, a character a scalar with its rectangle, font size and
/// weight, cut into `PDFLine`s.
struct PDFPageText {
    let scalars: [Unicode.Scalar]
    /// A rectangle per scalar when poppler's layout matches the text; nil when it does not.
    let rects: UnsafeMutablePointer<PopplerRectangle>?
    let sizes: [Double]
    let bold: [Bool]
    /// 1-based.
    let page: Int
    let width: Double

    /// The page's lines: cut at newlines and, since poppler's text sometimes runs two blocks
    /// together without one ("zero.The", a heading beside another), at a jump in the layout
    /// between two characters.
    func lines() -> [PDFLine] {
        var lines: [PDFLine] = []
        var lineStart = 0
        var blankBefore = false
        func finishLine(_ end: Int, resumeAt: Int? = nil) {
            defer { lineStart = resumeAt ?? end + 1 }
            guard let made = line(lineStart..<end, blankBefore: blankBefore, ordinal: lines.count) else {
                blankBefore = true
                return
            }
            lines.append(made)
            blankBefore = false
        }
        var lastVisible: Int?
        for (i, scalar) in scalars.enumerated() {
            if scalar == "\n" {
                finishLine(i)
                lastVisible = nil
                continue
            }
            guard let rects, !TextCleanup.isWhitespace(scalar) else { continue }
            if let p = lastVisible, p >= lineStart, jumps(from: rects[p], to: rects[i], size: max(sizes[i], 6)) {
                finishLine(i, resumeAt: i)
            }
            lastVisible = i
        }
        if lineStart < scalars.count { finishLine(scalars.count) }
        return lines
    }

    /// Whether the next character is on another row, far to the right, or back to the left.
    func jumps(from a: PopplerRectangle, to b: PopplerRectangle, size: Double) -> Bool {
        let otherRow = b.y1 >= a.y2 - 0.5 || b.y2 <= a.y1 + 0.5
        let farRight = b.x1 > a.x2 + max(size * 2.5, 15)
        let back = b.x2 < a.x1 - size
        return otherRow || farRight || back
    }

    /// The line of the characters in `range` (the `ordinal`th of the page), in one pass: its text
    /// with whitespace runs collapsed to one space, its box, its table cells, and the size and
    /// weight most of its characters have. Nil when it holds nothing visible.
    func line(_ range: Range<Int>, blankBefore: Bool, ordinal: Int) -> PDFLine? {
        var scalarsOfLine = String.UnicodeScalarView()
        var pendingSpace = false
        var x1 = Double.greatestFiniteMagnitude, y1 = Double.greatestFiniteMagnitude, x2 = 0.0, y2 = 0.0
        var sizeValues: [Double] = [], sizeCounts: [Int] = []
        var boldCount = 0, visible = 0
        // Gaps wider than an em inside the line (word spaces are a third of one): where a table's cells start.
        var cellStarts: [Int] = [], cellBoxes: [(x1: Double, x2: Double)] = []
        var cellX1 = 0.0, cellX2 = 0.0, scalarCount = 0, previous: Int?
        for i in range {
            let scalar = scalars[i]
            if TextCleanup.isWhitespace(scalar) {
                pendingSpace = visible > 0
                continue
            }
            if let rects {
                let r = rects[i]
                if let p = previous {
                    if r.x1 - rects[p].x2 > max(sizes[i], sizes[p], 6) {
                        cellBoxes.append((cellX1, cellX2))
                        cellStarts.append(scalarCount + 1)
                        pendingSpace = true
                        cellX1 = r.x1
                    }
                } else {
                    cellX1 = r.x1
                }
                cellX2 = r.x2
                previous = i
            }
            if pendingSpace { scalarsOfLine.append(" "); scalarCount += 1 }
            pendingSpace = false
            scalarsOfLine.append(scalar)
            scalarCount += 1
            visible += 1
            if let rects {
                let r = rects[i]
                x1 = min(x1, r.x1); y1 = min(y1, r.y1); x2 = max(x2, r.x2); y2 = max(y2, r.y2)
            }
            let size = (sizes[i] * 2).rounded() / 2
            if let known = sizeValues.firstIndex(of: size) { sizeCounts[known] += 1 } else { sizeValues.append(size); sizeCounts.append(1) }
            if bold[i] { boldCount += 1 }
        }
        guard visible > 0 else { return nil }
        // Ligatures and NFC once here: everything after reads clean lines.
        let lineText = PDFText.dropLeaders(PDFText.normalize(String(scalarsOfLine)))
        if !cellStarts.isEmpty { cellBoxes.append((cellX1, cellX2)) }
        let cells = Self.cells(Array(scalarsOfLine), starts: cellStarts, boxes: cellBoxes)
        var size = 0.0, sizeCount = 0
        for (value, count) in zip(sizeValues, sizeCounts) where count > sizeCount || (count == sizeCount && value > size) {
            size = value; sizeCount = count
        }
        if rects == nil { x1 = 0; y1 = Double(ordinal) * 12; x2 = width; y2 = y1 + 10 }
        return PDFLine(text: lineText, page: page, x1: x1, y1: y1, x2: x2, y2: y2, fontSize: size,
                       bold: boldCount * 2 > visible, blockBreakBefore: blankBefore, cells: cells.count > 1 ? cells : [])
    }

    /// A line's table cells: its text cut where its cells start, each with its box.
    static func cells(_ all: [Unicode.Scalar], starts: [Int], boxes: [(x1: Double, x2: Double)]) -> [PDFCell] {
        guard !starts.isEmpty else { return [] }
        let bounds = [0] + starts + [all.count]
        var cells: [PDFCell] = []
        for (n, box) in boxes.enumerated() {
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: all[bounds[n]..<bounds[n + 1]])
            let text = PDFText.dropLeaders(PDFText.normalize(String(piece))).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { cells.append(PDFCell(text: text, x1: box.x1, x2: box.x2)) }
        }
        return cells
    }
}
