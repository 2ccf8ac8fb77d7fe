import Foundation

/// One thing `lectern doctor` checked.
public struct DoctorCheck: Codable, Sendable, Equatable {
    public var name: String
    public var ok: Bool
    public var detail: String
    /// A failed required check fails `doctor`; another is a warning (the MiniLM files of a
    /// library that embeds with something else).
    public var required: Bool

    init(name: String, ok: Bool, detail: String, required: Bool = true) {
        self.name = name
        self.ok = ok
        self.detail = detail
        self.required = required
    }
}

/// What `lectern doctor` checks: the system libraries, the library file's integrity and
/// embedder, the MiniLM model files (required only where the library embeds with MiniLM), the
/// config file, and each unknown key in the configuration (a warning, not a failure).
public enum DoctorChecks {
    /// `openLibrary` opens the existing library file (the command's own way of opening it);
    /// it is called only when `configuration.database` exists.
    public static func run(configuration: Configuration, environment: [String: String] = ProcessInfo.processInfo.environment,
                           openLibrary: () throws -> LibraryStore) -> [DoctorCheck] {
        var checks = SystemLibraries.versions().map { DoctorCheck(name: $0.name, ok: $0.found, detail: $0.version) }
        checks.append(tesseract(configuration.ocr))
        var embedderName = configuration.embedder
        if FileManager.default.fileExists(atPath: configuration.database) {
            do {
                let store = try openLibrary()
                let result = try store.integrityCheck()
                checks.append(DoctorCheck(name: "library", ok: result == ["ok"],
                                          detail: "\(configuration.database)\(configuration.usesDefaultDatabase ? " (the default library)" : ""): integrity_check \(result.joined(separator: "; "))"))
                let embedder = try store.recordedEmbedder()
                embedderName = embedder?.name ?? configuration.embedder
                checks.append(DoctorCheck(name: "embedder", ok: true,
                                          detail: embedder?.description ?? "none recorded yet (new library uses \(configuration.embedder))"))
            } catch {
                checks.append(DoctorCheck(name: "library", ok: false, detail: "\(error)"))
            }
        } else {
            checks.append(DoctorCheck(name: "library", ok: true, detail: "\(configuration.database)\(configuration.usesDefaultDatabase ? " (the default library)" : "") does not exist yet (made by the first ingest)"))
        }
        // minilm-bf16 and minilm-int8 are the same model's files multiplied in bfloat16, int8.
        checks.append(modelFiles(configuration, required: MiniLMEmbedder.names.contains(embedderName)))
        let userConfig = Configuration.userConfigPath(environment: environment)
        checks.append(DoctorCheck(name: "config", ok: true,
                                  detail: FileManager.default.fileExists(atPath: userConfig) ? userConfig : "\(userConfig) (absent: defaults)"))
        checks += configuration.warnings.map { DoctorCheck(name: "config", ok: false, detail: "\($0)", required: false) }
        return checks
    }

    /// The files `MiniLMEmbedder` loads, in the configured models folder.
    static func modelFiles(_ configuration: Configuration, required: Bool) -> DoctorCheck {
        let directory = configuration.modelsDirectory + "/" + MiniLMEmbedder.model
        let missing = MiniLMEmbedder.files.filter { !FileManager.default.fileExists(atPath: directory + "/" + $0) }
        return DoctorCheck(name: "minilm model", ok: missing.isEmpty,
                           detail: missing.isEmpty ? directory : "missing \(missing.joined(separator: ", ")) in \(directory): run `make model`",
                           required: required)
    }

    /// Tesseract and its languages, for OCR of scanned PDF pages: a warning when missing (a
    /// library without scans needs none), naming the packages to install.
    static func tesseract(_ settings: OCRSettings) -> DoctorCheck {
        let wanted = settings.languageList
        do {
            try SystemLibrary.tesseract.load()
        } catch {
            let detail = settings.mode == .never ? "not installed (OCR is off)" : "\(error); scanned PDF pages stay unsearchable"
            return DoctorCheck(name: "tesseract", ok: false, detail: detail, required: false)
        }
        guard let folder = Tesseract.dataFolder else {
            return DoctorCheck(name: "tesseract", ok: false,
                               detail: "\(Tesseract.version), no language models found: apt-get install \(settings.languages.map(Tesseract.package).joined(separator: " "))",
                               required: false)
        }
        let installed = Tesseract.models(in: folder)
        let missing = settings.languages.filter { !installed.contains($0) }
        var detail = "\(Tesseract.version), languages \(installed.joined(separator: ", ")) in \(folder); OCR \(settings.mode.rawValue) with \(wanted)"
        if !missing.isEmpty { detail += ": \(missing.joined(separator: ", ")) missing, apt-get install \(missing.map(Tesseract.package).joined(separator: " "))" }
        return DoctorCheck(name: "tesseract", ok: missing.isEmpty, detail: detail, required: false)
    }

    /// Whether the checks fail `doctor` (exit status 1).
    public static func failed(_ checks: [DoctorCheck]) -> Bool {
        checks.contains { !$0.ok && $0.required }
    }
}
