import Foundation

/// One visual row of a page: the lines (and the cells of lines that wide gaps split) that share
/// a baseline, left to right. Poppler reads a table column by column; rows put it back in the
/// order a person reads it, and tell a table of contents by its column of page numbers.
struct PDFRow {
    /// A piece of the row: a cell of a line, or a whole line without cells.
    struct Segment {
        var text: String
        var x1: Double, x2: Double
        /// The foot of its line: cells of one table row stand on one baseline.
        var y2: Double
        var line: Int
        var words: Int

        /// "Homotopie, 50", "Isometrie, 6, 10": an index entry's page numbers after a comma.
        var isIndexEntry: Bool {
            let digits = text.reversed().prefix { $0.isNumber }.count
            return digits > 0 && text.dropLast(digits).hasSuffix(", ")
        }
    }

    /// Indices into the page's lines.
    var lines: [Int]
    var segments: [Segment]
    var y1: Double, y2: Double

    var height: Double { max(y2 - y1, 1) }

    /// The rows of one page's lines (`lines` are indices into `all`), top to bottom.
    static func rows(_ lines: [Int], of all: [PDFLine]) -> [PDFRow] {
        let byY = lines.sorted { (all[$0].y1 + all[$0].y2) < (all[$1].y1 + all[$1].y2) }
        var rows: [PDFRow] = []
        for index in byY {
            let line = all[index]
            let pieces = line.cells.isEmpty
                ? [Segment(text: line.text, x1: line.x1, x2: line.x2, y2: line.y2, line: index, words: wordCount(line.text))]
                : line.cells.map { Segment(text: $0.text, x1: $0.x1, x2: $0.x2, y2: line.y2, line: index, words: wordCount($0.text)) }
            if let last = rows.last {
                let overlap = min(last.y2, line.y2) - max(last.y1, line.y1)
                if overlap >= 0.5 * min(last.height, line.height) {
                    rows[rows.count - 1].lines.append(index)
                    rows[rows.count - 1].segments += pieces
                    rows[rows.count - 1].y1 = min(last.y1, line.y1)
                    rows[rows.count - 1].y2 = max(last.y2, line.y2)
                    continue
                }
            }
            rows.append(PDFRow(lines: [index], segments: pieces, y1: line.y1, y2: line.y2))
        }
        for index in rows.indices where rows[index].segments.count > 1 {
            rows[index].segments.sort { $0.x1 < $1.x1 }
        }
        return rows
    }

    static func wordCount(_ text: String) -> Int {
        var count = 0, inWord = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") { inWord = false } else if !inWord { inWord = true; count += 1 }
        }
        return count
    }

    // MARK: - Tables

    /// A table found on a page: its rows, each as its cells' texts by column.
    struct Table {
        var rows: [(lines: [Int], cells: [String])]
    }

    /// Tables among a page's rows: three rows or more, one after another, each set in two cells
    /// or more of a few words, whose cells fall into shared columns (x ranges that line up from
    /// row to row). Two columns of prose also give two-cell rows, but their cells are long.
    static func tables(_ rows: [PDFRow]) -> [Table] {
        var tables: [Table] = []
        var start = 0
        while start < rows.count {
            guard isTabular(rows[start]) else { start += 1; continue }
            var end = start + 1
            while end < rows.count, isTabular(rows[end]),
                  rows[end].y1 - rows[end - 1].y2 <= max(rows[end - 1].height * 1.6, 6) {
                end += 1
            }
            if let table = table(Array(rows[start..<end])) { tables.append(table) }
            start = end
        }
        return tables
    }

    static func isTabular(_ row: PDFRow) -> Bool {
        row.segments.count >= 2 && row.segments.allSatisfy { $0.words <= 10 }
    }

    static func table(_ rows: [PDFRow]) -> Table? {
        guard rows.count >= 3 else { return nil }
        let segments = rows.flatMap(\.segments)
        let averageWords = Double(segments.reduce(0) { $0 + $1.words }) / Double(segments.count)
        guard averageWords <= 3 else { return nil }
        // A table's cells share their row's baseline (but for a cell that spans rows); text boxes
        // that happen to sit side by side (a diagram's) do not.
        let level = rows.filter { row in
            let best = largestCluster(row.segments.map(\.y2), within: 1.5)
            return best >= 2 && Double(best) >= Double(row.segments.count) * 0.6
        }
        guard Double(level.count) >= Double(rows.count) * 0.6 else { return nil }
        // Columns: x ranges that no segment bridges.
        let byX = segments.sorted { $0.x1 < $1.x1 }
        var columns: [(x1: Double, x2: Double)] = []
        for segment in byX {
            if let last = columns.last, segment.x1 <= last.x2 + 1 {
                columns[columns.count - 1].x2 = max(last.x2, segment.x2)
            } else {
                columns.append((segment.x1, segment.x2))
            }
        }
        guard columns.count >= 2 else { return nil }
        // Each column lines its cells up (left, right or centred), as a table does; columns of
        // running text with indented entries do not.
        for column in columns {
            let cells = segments.filter { $0.x1 >= column.x1 - 0.5 && $0.x1 <= column.x2 }
            // A column that a spanning header joined to its neighbour holds two cells a row.
            let spanned = rows.contains { row in row.segments.filter { $0.x1 >= column.x1 - 0.5 && $0.x1 <= column.x2 }.count > 1 }
            guard cells.count >= 3, !spanned else { continue }
            func share(_ position: (Segment) -> Double) -> Double {
                Double(largestCluster(cells.map(position), within: 2.5)) / Double(cells.count)
            }
            guard max(share(\.x1), share(\.x2), share { ($0.x1 + $0.x2) / 2 }) >= 0.7 else { return nil }
        }
        // Lists set side by side (slides do this) are not a table: few of a table's cells are list items.
        let items = segments.filter { PDFLayout.listMarker($0.text) || ($0.text.count == 1 && $0.text.first.map(PDFLayout.bullets.contains) == true) }
        guard Double(items.count) < Double(segments.count) * 0.25 else { return nil }
        // An index set in two columns ("Homotopie, 50") lines up like a table but is not one.
        let indexEntries = segments.filter(\.isIndexEntry)
        guard Double(indexEntries.count) < Double(segments.count) * 0.4 else { return nil }
        var table = Table(rows: [])
        var filled = [Int](repeating: 0, count: columns.count)
        for row in rows {
            var cells = [String](repeating: "", count: columns.count)
            // Within a cell, lines top to bottom (a header set on two lines), then left to right.
            for segment in row.segments.sorted(by: { ($0.y2, $0.x1) < ($1.y2, $1.x1) }) {
                guard let column = columns.firstIndex(where: { segment.x1 >= $0.x1 - 0.5 && segment.x1 <= $0.x2 }) else { continue }
                cells[column] = cells[column].isEmpty ? segment.text : cells[column] + " " + segment.text
            }
            for (column, cell) in cells.enumerated() where !cell.isEmpty { filled[column] += 1 }
            table.rows.append((Array(Set(row.lines)).sorted(), cells))
        }
        // At least two columns hold something in most rows.
        guard filled.filter({ Double($0) >= Double(rows.count) * 0.6 }).count >= 2 else { return nil }
        return table
    }

    /// How many of `values` the largest group lying within `within` of each other holds.
    static func largestCluster(_ values: [Double], within: Double) -> Int {
        let sorted = values.sorted()
        var best = 0, low = 0
        for high in sorted.indices {
            while sorted[high] - sorted[low] > within { low += 1 }
            best = max(best, high - low + 1)
        }
        return best
    }

    // MARK: - Contents pages

    /// Words that head a table of contents, as `PDFLayout.matchKey` folds them.
    static let contentsTitles: Set<String> = [
        "contents", "tableofcontents", "inhaltsverzeichnis", "inhalt", "tabledesmatières", "sommaire",
        "índice", "indice", "indicegenerale", "sumario", "sumário", "inhoud", "inhoudsopgave", "innehåll",
        "spistreści", "obsah", "sisällys", "содержание", "оглавление", "目次", "目录", "目錄",
    ]

    /// The page number that ends a contents entry ("1.1 Topologische Räume … 2"), if the row has one.
    static func entryPageNumber(_ row: PDFRow) -> Int? {
        guard let last = row.segments.last else { return nil }
        let token = last.text.split(separator: " ").last.map(String.init) ?? ""
        guard token.count <= 4, let number = Int(token) ?? romanValue(token) else { return nil }
        // Something must stand before the number: the entry's title.
        let before = row.segments.count > 1 || last.words > 1
        return before ? number : nil
    }

    /// Whether a page's rows are a table of contents: headed "Contents" (or the word in another
    /// language) with entries that end in page numbers (on slides the heading is enough), or going
    /// on from a contents page with nearly every row such an entry.
    static func isContents(_ rows: [PDFRow], followsContents: Bool, slides: Bool) -> Bool {
        guard !rows.isEmpty else { return false }
        let headed = rows.prefix(3).contains { row in
            row.segments.count == 1 && row.segments[0].words <= 3 && contentsTitles.contains(PDFLayout.matchKey(row.segments[0].text))
        }
        guard headed || followsContents else { return false }
        let numbers = rows.compactMap(entryPageNumber)
        let entries = numbers.count
        // Page numbers go up the page (a list of quantities under "Contents" does not).
        let rising = zip(numbers, numbers.dropFirst()).filter { $0 <= $1 }.count
        guard Double(rising) >= Double(max(entries - 1, 0)) * 0.8 else { return false }
        if headed { return slides || entries >= 2 }
        return followsContents && entries >= 1 && Double(entries) >= Double(rows.count) * 0.8
    }

    /// i → 1, xiv → 14 (lower or upper case); nil for anything else.
    static func romanValue(_ text: String) -> Int? {
        let values: [Character: Int] = ["i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000]
        let lower = text.lowercased()
        guard !lower.isEmpty, lower.count <= 8, text == lower || text == text.uppercased() else { return nil }
        var total = 0, previous = 0
        for character in lower.reversed() {
            guard let value = values[character] else { return nil }
            total += value < previous ? -value : value
            previous = max(previous, value)
        }
        return total > 0 ? total : nil
    }
}
