import Foundation

/// When and how pages without a usable text layer are read with OCR (`--ocr`, `--ocr-lang`,
/// `ocr.*` in the config).
public struct OCRSettings: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Pages with no text layer, or an unusable one (see `PDFTextLayer.isUnusable`).
        case auto
        /// Every page, its text layer set aside (a scan with a poor OCR layer of its own).
        case always
        /// None: such pages stay unsearchable, with a warning naming them.
        case never
    }

    public var mode: Mode
    /// Tesseract's language codes, tried together (`eng+deu`).
    public var languages: [String]
    /// Pages OCR'd per document at most: a 500-page scan takes many minutes, so the rest are
    /// named in a warning instead.
    public var maxPages: Int
    /// Pixels per inch pages are read at, at most: Tesseract reads body text best at 300. A scan
    /// of 150 to this is read at its own resolution (see `PDFPageOCR.source`).
    public var dpi: Int
    /// Pages of one document read at once, each by a Tesseract engine of its own on a core of
    /// its own (Tesseract itself is held to one thread); 0, the default, is one per core, at
    /// most `maxAutomaticJobs`. It changes how fast, not what is read: not in `key`.
    public var jobs: Int

    public static let defaultLanguages = ["eng"]
    public static let defaultMaxPages = 100
    /// Four pages at once at most when the cores decide: each holds a page's pixels (about
    /// 100 MB at 300 dpi with the engine's own copy).
    public static let maxAutomaticJobs = 4

    public init(mode: Mode = .auto, languages: [String] = OCRSettings.defaultLanguages,
                maxPages: Int = OCRSettings.defaultMaxPages, dpi: Int = 300, jobs: Int = 0) {
        self.mode = mode
        self.languages = languages
        self.maxPages = maxPages
        self.dpi = dpi
        self.jobs = jobs
    }

    /// The workers `jobs` asks for: 0 is one per core, at most `maxAutomaticJobs`.
    var workers: Int {
        jobs > 0 ? jobs : max(1, min(ProcessInfo.processInfo.activeProcessorCount, Self.maxAutomaticJobs))
    }

    /// `eng+deu` → ["eng", "deu"]; nil for an empty or malformed list.
    public static func parseLanguages(_ text: String) -> [String]? {
        let codes = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        // Tesseract's names: ISO 639-2 codes with an optional script or variant (`chi_sim`, `deu_latf`).
        guard !codes.isEmpty, codes.allSatisfy({ code in
            !code.isEmpty && code.count <= 24 && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }) else { return nil }
        var seen = Set<String>()
        return codes.filter { seen.insert($0).inserted }
    }

    /// Tesseract's own spelling of the languages.
    public var languageList: String { languages.joined(separator: "+") }

    /// What the stored documents' skip keys hold of these settings: a document OCR'd under
    /// other settings is read again; one that needed no OCR is not (see `Ingestor.skipKey`).
    var key: String { "ocr=\(mode.rawValue);\(languageList);\(maxPages);\(dpi)" }
}

extension OCRSettings.Mode: CustomStringConvertible {
    public var description: String { rawValue }
}

extension Block {
    /// Tesseract's mean word confidence (0–100) for a block read with OCR; nil for text read
    /// from a text layer.
    public var ocrConfidence: Double? { attributes["ocr_confidence"].flatMap(Double.init) }
}
