import CTesseract
import Foundation

/// One Tesseract engine (libtesseract through its C API, opened on first use) with its
/// languages loaded. Not for sharing between threads: a worker makes its own.
final class Tesseract {
    private let api: OpaquePointer
    let languages: [String]
    private var imageSize = (width: 0, height: 0)

    /// Where the language models are: `$TESSDATA_PREFIX` as Tesseract reads it, else Debian's folders.
    static var dataFolder: String? {
        var candidates: [String] = []
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            candidates += [prefix, prefix + "/tessdata"]
        }
        candidates += ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata"]
        return candidates.first { !models(in: $0).isEmpty }
    }

    /// The language codes a folder holds models for (`osd`, the script detector, left out).
    static func models(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }
            .filter { $0 != "osd" }.sorted()
    }

    /// The installed languages, or nil when no model folder is found.
    static var installedLanguages: [String]? { dataFolder.map(models(in:)) }

    /// Loads libtesseract and `languages`; a missing library or language pack is an
    /// `OCRUnavailable` saying how to install it.
    init(languages: [String]) throws {
        do {
            try SystemLibrary.tesseract.load()
        } catch let error as LecternError {
            throw OCRUnavailable(reason: "Tesseract is not installed", advice: "OCR: " + error.reason)
        }
        guard let folder = Self.dataFolder else {
            throw OCRUnavailable(reason: "no Tesseract language models are installed", advice: "OCR: no Tesseract language models found (looked in $TESSDATA_PREFIX and /usr/share/tesseract-ocr/5/tessdata): apt-get install \(languages.map(Self.package).joined(separator: " "))")
        }
        let installed = Set(Self.models(in: folder))
        let missing = languages.filter { !installed.contains($0) }
        if !missing.isEmpty {
            let reason = "OCR language \(missing.joined(separator: ", ")) is not installed"
            throw OCRUnavailable(reason: reason, advice: "\(reason) (no \(missing[0]).traineddata in \(folder); installed: \(installed.sorted().joined(separator: ", "))): apt-get install \(missing.map(Self.package).joined(separator: " "))")
        }
        guard let api = lazy_TessBaseAPICreate() else { throw OCRUnavailable(reason: "Tesseract could not start", advice: "OCR: Tesseract could not start") }
        // A library never prints: Tesseract's messages go to /dev/null instead of stderr.
        _ = lazy_TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard lazy_TessBaseAPIInit3(api, folder, languages.joined(separator: "+")) == 0 else {
            lazy_TessBaseAPIDelete(api)
            throw OCRUnavailable(reason: "Tesseract could not load \(languages.joined(separator: "+"))", advice: "OCR: Tesseract could not load \(languages.joined(separator: "+")) from \(folder): reinstall \(languages.map(Self.package).joined(separator: " "))")
        }
        lazy_TessBaseAPISetPageSegMode(api, PSM_AUTO)
        self.api = api
        self.languages = languages
    }

    deinit {
        lazy_TessBaseAPIEnd(api)
        lazy_TessBaseAPIDelete(api)
    }

    /// Debian's package of a language model.
    static func package(_ language: String) -> String { "tesseract-ocr-" + language.lowercased().replacingOccurrences(of: "_", with: "-") }

    /// Hands Tesseract a grey image (one byte a pixel, `width` bytes a row) scanned at `dpi`:
    /// it keeps a copy, so the caller's pixels can go before `recognize()`.
    func setImage(gray: UnsafePointer<UInt8>, width: Int, height: Int, dpi: Int) {
        lazy_TessBaseAPISetImage(api, gray, Int32(width), Int32(height), 1, Int32(width))
        lazy_TessBaseAPISetSourceResolution(api, Int32(dpi))
        imageSize = (width, height)
    }

    /// Reads the image `setImage` gave, in one pass of recognition, its words taken from that
    /// pass's results; the image and the results are freed before it returns.
    func recognize() -> OCRText {
        defer { lazy_TessBaseAPIClear(api) }
        var result = OCRText(lines: [], width: imageSize.width, height: imageSize.height)
        guard lazy_TessBaseAPIRecognize(api, nil) == 0, let iterator = lazy_TessBaseAPIGetIterator(api) else { return result }
        defer { lazy_TessResultIteratorDelete(iterator) }
        guard let page = lazy_TessResultIteratorGetPageIterator(iterator) else { return result }
        var line: OCRText.Line?
        func finish() {
            if let done = line, !done.words.isEmpty { result.lines.append(done) }
            line = nil
        }
        repeat {
            var x1: Int32 = 0, y1: Int32 = 0, x2: Int32 = 0, y2: Int32 = 0
            if line == nil || lazy_TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                finish()
                guard lazy_TessPageIteratorBoundingBox(page, RIL_TEXTLINE, &x1, &y1, &x2, &y2) != 0 else { continue }
                line = OCRText.Line(words: [], x1: Int(x1), y1: Int(y1), x2: Int(x2), y2: Int(y2),
                                    startsParagraph: lazy_TessPageIteratorIsAtBeginningOf(page, RIL_PARA) != 0)
            }
            guard let cText = lazy_TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
            lazy_TessDeleteText(cText)
            guard !text.isEmpty, lazy_TessPageIteratorBoundingBox(page, RIL_WORD, &x1, &y1, &x2, &y2) != 0 else { continue }
            let confidence = Double(lazy_TessResultIteratorConfidence(iterator, RIL_WORD))
            line?.words.append(OCRText.Word(text: text, x1: Int(x1), y1: Int(y1), x2: Int(x2), y2: Int(y2), confidence: confidence))
        } while lazy_TessResultIteratorNext(iterator, RIL_WORD) != 0
        finish()
        return result
    }

    /// The loaded library's version, after a successful `SystemLibrary.tesseract.load()`.
    static var version: String { lazy_TessVersion().map { String(cString: $0) } ?? "?" }
}
