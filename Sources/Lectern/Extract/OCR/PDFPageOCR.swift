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
        /// The resolutions pages were read at (a scan's own, or the one it was rendered at).
        var dpis: Set<Int> = []

        var meanConfidence: Double { words == 0 ? 0 : confidenceSum / Double(words) }
    }

    /// The most pixels one page is rendered with: a poster-sized page is read at a lower
    /// resolution rather than take hundreds of megabytes.
    static let maxPixels = 40_000_000
    /// The least resolution a page is read at: below it Tesseract misses small type, so a
    /// coarser scan is rendered up to it.
    static let minimumDPI = 150.0

    /// One page's grey pixels as Tesseract reads them, and where they lie on the page.
    struct Bitmap {
        var width: Int, height: Int
        var dpi: Double
        /// The page's top-left corner of the pixels, in points, and the points a pixel spans.
        var originX = 0.0, originY = 0.0
        var pointsPerPixel: Double
    }

    /// How a page is read: from the pixels of its one image, or rendered at a resolution.
    enum Source {
        case image(Bitmap)
        case render(dpi: Double)
    }

    /// What one page gave.
    struct PageText: Sendable {
        var lines: [PDFLine]
        var words: Int
        var confidenceSum: Double
        var dpi: Int
    }

    /// A poppler document and a Tesseract engine, used by one worker at a time.
    // Safe: it owns C handles (a poppler document, a Tesseract engine) that are not for two
    // threads at once; `Readers` hands each one to one worker and takes it back when its page is done.
    final class Reader: @unchecked Sendable {
        let file: PDFFile
        let engine: Tesseract
        init(file: PDFFile, engine: Tesseract) {
            self.file = file
            self.engine = engine
        }
    }

    /// The readers workers take a page's reader from: as many as workers, made on first need.
    final class Readers: Sendable {
        private let idle: Locked<[Reader]>
        init(_ first: Reader) { idle = Locked([first]) }
        func take() -> Reader? { idle.withLock { $0.popLast() } }
        func give(_ reader: Reader) { idle.withLock { $0.append(reader) } }
    }

    /// Reads `pages` (1-based) of the open `file`; a stop asked for is seen between two pages.
    /// `imageOnly` are the pages with no text layer at all: a scan drawn over the whole of one
    /// of them is read from its own pixels, at its own resolution (see `source`). With `reopen`
    /// (the document opened again: a poppler document is not for two threads) up to
    /// `settings.workers` pages are read at once, each worker with its own document and engine;
    /// the result is the same as one at a time.
    func read(_ file: PDFFile, pages: [Int], imageOnly: Set<Int> = [], reopen: (@Sendable () throws -> PDFFile)? = nil,
              stop: (any StopCheck)? = nil, display: String? = nil) throws -> Result {
        var result = Result()
        guard !pages.isEmpty else { return result }
        // The first engine is made here, so a missing language pack fails before any work.
        let readers = Readers(Reader(file: file, engine: try Tesseract(languages: settings.languages)))
        let workers = reopen == nil ? 1 : max(1, min(settings.workers, pages.count))
        let settings = self.settings
        let read = ParallelWork.map(pages.count, workers: workers) { index -> PageText? in
            try stop?.check(display)
            let reader = try readers.take() ?? Reader(file: try reopen!(), engine: try Tesseract(languages: settings.languages))
            defer { readers.give(reader) }
            return Self.page(pages[index], of: reader, imageOnly: imageOnly.contains(pages[index]), dpi: Double(settings.dpi))
        }
        for (index, slot) in read.enumerated() {
            guard let page = try slot.get() else { continue }
            result.pages.append(pages[index])
            result.dpis.insert(page.dpi)
            result.lines[pages[index]] = page.lines
            result.words += page.words
            result.confidenceSum += page.confidenceSum
        }
        Self.evenSizes(&result.lines)
        return result
    }

    /// Page `number` (1-based) read by `reader`'s engine; nil for a page poppler cannot give.
    static func page(_ number: Int, of reader: Reader, imageOnly: Bool, dpi: Double) -> PageText? {
        guard let page = lazy_poppler_document_get_page(reader.file.raw, Int32(number - 1)) else { return nil }
        defer { lazy_g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        lazy_poppler_page_get_size(page, &width, &height)
        guard width > 0, height > 0 else { return nil }
        // The page's pixels live only until Tesseract has its own copy of them: a worker's
        // memory is one page's, however many pages the document has.
        var gray: [UInt8] = []
        var bitmap: Bitmap
        switch imageOnly ? Self.source(page, width: width, height: height, at: dpi, into: &gray) : .render(dpi: dpi) {
        case .image(let pixels):
            bitmap = pixels
        case .render(var dpi):
            if width * height * (dpi / 72) * (dpi / 72) > Double(Self.maxPixels) {
                dpi = (Double(Self.maxPixels) / (width * height)).squareRoot() * 72
            }
            let scale = dpi / 72
            bitmap = Bitmap(width: Int((width * scale).rounded()), height: Int((height * scale).rounded()), dpi: dpi, pointsPerPixel: 1 / scale)
            guard bitmap.width > 0, bitmap.height > 0 else { return nil }
            gray = [UInt8](repeating: 255, count: bitmap.width * bitmap.height)
            let rendered = gray.withUnsafeMutableBufferPointer { buffer in
                lectern_poppler_render_gray(page, scale, Int32(bitmap.width), Int32(bitmap.height), buffer.baseAddress)
            }
            guard rendered != 0 else { return nil }
        }
        gray.withUnsafeBufferPointer { buffer in
            reader.engine.setImage(gray: buffer.baseAddress!, width: bitmap.width, height: bitmap.height, dpi: Int(bitmap.dpi.rounded()))
        }
        gray = []
        let text = reader.engine.recognize()
        var words = 0, confidenceSum = 0.0
        for line in text.lines {
            words += line.words.count
            confidenceSum += line.words.reduce(0) { $0 + $1.confidence }
        }
        return PageText(lines: Self.lines(text, page: number, bitmap: bitmap), words: words, confidenceSum: confidenceSum, dpi: Int(bitmap.dpi.rounded()))
    }

    /// A scan's page is one image drawn over the whole page. Its own pixels are read as they
    /// are when their resolution is between `minimumDPI` and `dpi`: rendering would only
    /// resample them (a 150 dpi scan rendered at 300 dpi gives Tesseract four times the pixels
    /// and no more detail). A finer scan is rendered down to `dpi`, a coarser one up to
    /// `minimumDPI`; a page of several images, or an image turned on the page, is rendered at `dpi`.
    static func source(_ page: OpaquePointer, width: Double, height: Double, at dpi: Double, into gray: inout [UInt8]) -> Source {
        var id: Int32 = 0
        var area = PopplerRectangle()
        guard lectern_poppler_single_image(page, &id, &area) != 0 else { return .render(dpi: dpi) }
        let left = min(area.x1, area.x2), top = min(area.y1, area.y2)
        let areaWidth = abs(area.x2 - area.x1), areaHeight = abs(area.y2 - area.y1)
        // Over the whole page, give or take a scanner's margin of error.
        guard areaWidth >= width * 0.97, areaHeight >= height * 0.97, areaWidth <= width * 1.03, areaHeight <= height * 1.03,
              let surface = lazy_poppler_page_get_image(page, id) else { return .render(dpi: dpi) }
        defer { lazy_cairo_surface_destroy(surface) }
        let pixelsWide = Int(lazy_cairo_image_surface_get_width(surface)), pixelsHigh = Int(lazy_cairo_image_surface_get_height(surface))
        guard pixelsWide > 0, pixelsHigh > 0 else { return .render(dpi: dpi) }
        let dpiAcross = Double(pixelsWide) / (areaWidth / 72), dpiDown = Double(pixelsHigh) / (areaHeight / 72)
        // The same resolution both ways, or the image is turned (or stretched) on the page.
        guard abs(dpiAcross - dpiDown) <= dpiAcross * 0.02 else { return .render(dpi: dpi) }
        let minimum = min(Self.minimumDPI, dpi)
        guard dpiAcross >= minimum * 0.98 else { return .render(dpi: minimum) }
        guard dpiAcross <= dpi * 1.02, pixelsWide * pixelsHigh <= Self.maxPixels,
              [CAIRO_FORMAT_RGB24, CAIRO_FORMAT_ARGB32].contains(lazy_cairo_image_surface_get_format(surface)) else { return .render(dpi: dpi) }
        gray = [UInt8](repeating: 255, count: pixelsWide * pixelsHigh)
        gray.withUnsafeMutableBufferPointer { buffer in
            lectern_cairo_surface_gray(surface, Int32(pixelsWide), Int32(pixelsHigh), buffer.baseAddress)
        }
        return .image(Bitmap(width: pixelsWide, height: pixelsHigh, dpi: dpiAcross, originX: left, originY: top, pointsPerPixel: areaWidth / Double(pixelsWide)))
    }

    /// Tesseract's lines as the layout's, in points.
    static func lines(_ text: OCRText, page: Int, bitmap: Bitmap) -> [PDFLine] {
        let scale = bitmap.pointsPerPixel, x0 = bitmap.originX, y0 = bitmap.originY
        return text.lines.map { line in
            var pdfLine = PDFLine(text: PDFText.normalize(line.text), page: page,
                                  x1: x0 + Double(line.x1) * scale, y1: y0 + Double(line.y1) * scale,
                                  x2: x0 + Double(line.x2) * scale, y2: y0 + Double(line.y2) * scale,
                                  fontSize: line.emHeight * scale, bold: false, blockBreakBefore: line.startsParagraph)
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
