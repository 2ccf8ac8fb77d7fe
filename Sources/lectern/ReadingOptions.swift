import ArgumentParser
import Lectern

/// `--password`, `--password-file`, `--encoding` and the OCR options: how `ingest` and `extract`
/// open what they read.
struct ReadingOptions: ParsableArguments {
    @Option(help: "Password for encrypted PDFs (those --password-file does not name).")
    var password: String?

    @Option(help: "A file of passwords for encrypted PDFs: one `glob<TAB>password` a line, `#` comments; the glob matches the path as given or the file name, the first match wins.")
    var passwordFile: String?

    @Option(help: "The encoding of text files when it is not recognised: utf-8, or windows-1252 (latin-1). Without it, text that is not UTF-8 but reads as Windows-1252 is read as such, with a warning.")
    var encoding: TextEncoding?

    @Option(help: ArgumentHelp("PDF pages read with OCR (Tesseract): auto, those without a usable text layer; always, every page; never, none (default: ocr.mode, else auto).", valueName: "auto|always|never"))
    var ocr: OCRSettings.Mode?

    @Option(help: ArgumentHelp("OCR languages joined by + (default: ocr.languages, else eng); each needs its Tesseract pack (apt-get install tesseract-ocr-deu).", valueName: "eng+deu"))
    var ocrLang: String?

    @Option(help: "Pages of one document read with OCR at most (default: ocr.max_pages, else 100).")
    var ocrPages: Int?

    @Option(help: "Pages of one document read with OCR at once, each on a core (default: ocr.jobs, else one per core, at most 4).")
    var ocrJobs: Int?

    func validate() throws {
        if let ocrLang, OCRSettings.parseLanguages(ocrLang) == nil {
            throw ValidationError("--ocr-lang \(ocrLang): give Tesseract language codes joined by +, such as eng+deu")
        }
        if let ocrPages, ocrPages < 0 { throw ValidationError("--ocr-pages must be 0 or more") }
        if let ocrJobs, !(1...64).contains(ocrJobs) { throw ValidationError("--ocr-jobs must be 1 to 64") }
    }

    /// The options, the OCR settings from `configuration` where no flag sets them.
    func extractOptions(_ configuration: Configuration) -> ExtractOptions {
        var settings = configuration.ocr
        if let ocr { settings.mode = ocr }
        if let languages = ocrLang.flatMap(OCRSettings.parseLanguages) { settings.languages = languages }
        if let ocrPages { settings.maxPages = ocrPages }
        if let ocrJobs { settings.jobs = ocrJobs }
        return ExtractOptions(password: password, encoding: encoding, ocr: settings)
    }

    /// The password file, read now: a malformed one is a usage error before anything is read.
    func passwords() throws -> PasswordFile? {
        try passwordFile.map { try PasswordFile(contentsOf: $0) }
    }
}

extension OCRSettings.Mode: ExpressibleByArgument {}
