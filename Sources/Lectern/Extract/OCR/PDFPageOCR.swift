import CPoppler
import Foundation

/// The pages of a PDF that have no usable text layer, rendered with poppler (cairo) and read
/// with Tesseract, as lines with boxes in points: the layout reads them as it reads a text page.
struct PDFPageOCR {
    var settings: OCRSettings

    /// What the OCR of a document's pages gave.
    struct Result {
        /// Lines per page (1-based), font sizes in points.
        var lines: [Int: [PDFLine]] = [:]
        /// Pages read, in order.
        var pages: [Int] = []
        /// Words read and their summed confidence, for the document's mean.
        var words = 0
        var confidenceSum = 0.0

        var meanConfidence: Double { words == 0 ? 0 : confidenceSum / Double(words) }
    }

    /// The most pixels one page is rendered with: a poster-sized page is read at a lower
    /// resolution rather than take hundreds of megabytes.
    static let maxPixels = 40_000_000

    /// Reads `pages` (1-based) of the open `file`; a stop asked for is seen between two pages.
    func read(_ file: PDFFile, pages: [Int], stop: (any StopCheck)? = nil, display: String? = nil) throws -> Result {
        var result = Result()
        guard !pages.isEmpty else { return result }
        let engine = try Tesseract(languages: settings.languages)
        var gray: [UInt8] = []
        for number in pages {
            try stop?.check(display)
            guard let page = lazy_poppler_document_get_page(file.raw, Int32(number - 1)) else { continue }
            defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
            var width = 0.0, height = 0.0
            lazy_poppler_page_get_size(page, &width, &height)
            guard width > 0, height > 0 else { continue }
            var dpi = Double(settings.dpi)
            if width * height * (dpi / 72) * (dpi / 72) > Double(Self.maxPixels) {
                dpi = (Double(Self.maxPixels) / (width * height)).squareRoot() * 72
            }
            let scale = dpi / 72
            let pixelsWide = Int((width * scale).rounded()), pixelsHigh = Int((height * scale).rounded())
            guard pixelsWide > 0, pixelsHigh > 0 else { continue }
            if gray.count < pixelsWide * pixelsHigh { gray = [UInt8](repeating: 255, count: pixelsWide * pixelsHigh) }
            let rendered = gray.withUnsafeMutableBufferPointer { buffer in
                lectern_poppler_render_gray(page, scale, Int32(pixelsWide), Int32(pixelsHigh), buffer.baseAddress)
            }
            guard rendered != 0 else { continue }
            let text = gray.withUnsafeBufferPointer { buffer in
                engine.read(gray: buffer.baseAddress!, width: pixelsWide, height: pixelsHigh, dpi: Int(dpi.rounded()))
            }
            result.pages.append(number)
            result.lines[number] = Self.lines(text, page: number, pointsPerPixel: 1 / scale)
            for line in text.lines {
                result.words += line.words.count
                result.confidenceSum += line.words.reduce(0) { $0 + $1.confidence }
            }
        }
        Self.evenSizes(&result.lines)
        return result
    }

    /// Tesseract's lines as the layout's, in points.
    static func lines(_ text: OCRText, page: Int, pointsPerPixel: Double) -> [PDFLine] {
        text.lines.map { line in
            var pdfLine = PDFLine(text: PDFText.normalize(line.text), page: page,
                                  x1: Double(line.x1) * pointsPerPixel, y1: Double(line.y1) * pointsPerPixel,
                                  x2: Double(line.x2) * pointsPerPixel, y2: Double(line.y2) * pointsPerPixel,
                                  fontSize: line.emHeight * pointsPerPixel, bold: false, blockBreakBefore: line.startsParagraph)
            pdfLine.ocrConfidence = line.confidence
            return pdfLine
        }
    }

    /// Sizes measured from pixels differ a little from line to line where the type is one
    /// size; the layout starts a paragraph at every change of size and ranks headings by it.
    /// So sizes are gathered into groups, each within 10% of its first member, the sizes with
    /// most characters first (the body text, then the common heading sizes), and every line
    /// takes its group's size: one size for the body, one per heading level.
    static func evenSizes(_ pages: inout [Int: [PDFLine]]) {
        var weights: [Double: Int] = [:]
        for lines in pages.values {
            for line in lines { weights[(line.fontSize * 2).rounded() / 2, default: 0] += max(line.text.count, 1) }
        }
        var centres: [Double] = []
        for (size, _) in weights.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            if !centres.contains(where: { abs(size - $0) <= $0 * 0.1 }) { centres.append(size) }
        }
        guard !centres.isEmpty else { return }
        for page in pages.keys {
            for index in pages[page]!.indices {
                let size = (pages[page]![index].fontSize * 2).rounded() / 2
                // The nearest of the groups it falls in (the first found when two are as near).
                let group = centres.filter { abs(size - $0) <= $0 * 0.1 }.min { abs(size - $0) < abs(size - $1) } ?? size
                pages[page]![index].fontSize = group
            }
        }
    }
}
