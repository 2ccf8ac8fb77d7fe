import Foundation
import CCurl
import CGemm
import CLibXML2
import CPoppler
import CPostgres
import CSQLite
import CTesseract

/// A system library Lectern opens with dlopen on first use rather than linking, so that a
/// command pays only for the libraries it uses (`lectern --version` loads none of them).
///
/// Call `load()` before the library's first `lazy_` function: it throws one clear line when the
/// library is missing. The handle and every function pointer are cached on the C side (see each
/// module's shim.h), so `load()` is cheap after the first call.
enum SystemLibrary: String, CaseIterable, Sendable {
    case poppler = "poppler-glib"
    case libxml2
    case curl = "libcurl"
    /// OCR of pages without a text layer; loaded only when a PDF has such a page.
    case tesseract = "libtesseract"
    /// PostgreSQL's client; loaded only when the library is a `postgres://` URL.
    case postgres = "libpq"

    /// The file dlopen looks for.
    var soname: String {
        switch self {
        case .poppler: return LECTERN_POPPLER_SONAME
        case .libxml2: return LECTERN_XML_SONAME
        case .curl: return LECTERN_CURL_SONAME
        case .tesseract: return LECTERN_TESSERACT_SONAME
        case .postgres: return LECTERN_PQ_SONAME
        }
    }

    /// The Debian package that holds `soname` (`make setup` installs its -dev package).
    var package: String {
        switch self {
        case .poppler: return "libpoppler-glib8"
        case .libxml2: return "libxml2"
        case .curl: return "libcurl4"
        case .tesseract: return "libtesseract5"
        case .postgres: return "libpq5"
        }
    }

    /// Loads the library (once per process) and checks it has every function Lectern calls.
    func load() throws {
        let problem: UnsafePointer<CChar>?
        switch self {
        case .poppler: problem = lectern_poppler_load()
        case .libxml2: problem = lectern_xml_load()
        case .curl: problem = lectern_curl_load()
        case .tesseract:
            // Tesseract's recogniser splits each line over OpenMP threads (libgomp, loaded with
            // it, reads the limit once, then): on two cores that took twice the CPU time of one
            // thread for the same page, the second thread mostly spinning, and slowed everything
            // else running. One thread a page, unless the user sets the limit themselves.
            if ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil { setenv("OMP_THREAD_LIMIT", "1", 0) }
            problem = lectern_tesseract_load()
        case .postgres: problem = lectern_pq_load()
        }
        guard let problem else { return }
        let missing = String(cString: problem)
        if missing.isEmpty {
            throw LecternError(.missingLibrary, nil, "\(soname) is not installed (Debian package \(package)): run `make setup`")
        }
        throw LecternError(.missingLibrary, nil, "\(soname) has no \(missing) (too old?): run `make setup`")
    }

    /// The version the loaded library reports, after `load()`.
    var loadedVersion: String {
        switch self {
        case .poppler:
            return lazy_poppler_get_version().map { String(cString: $0) } ?? "?"
        case .libxml2:
            return lectern_xml_version().map { String(cString: $0) } ?? "?"
        case .curl:
            return lazy_curl_version().map { String(cString: $0) } ?? "?"
        case .tesseract:
            return lazy_TessVersion().map { String(cString: $0) } ?? "?"
        case .postgres:
            // 150018 is 15.18 (from PostgreSQL 10 on, major * 10000 + minor).
            let number = lazy_PQlibVersion()
            return "\(number / 10000).\(number % 10000)"
        }
    }
}

/// The system libraries this build uses, with the versions found at run time.
enum SystemLibraries {
    struct Library: Codable, Sendable {
        var name: String
        /// The version, or why the library could not be loaded.
        var version: String
        var found: Bool

        init(name: String, version: String, found: Bool = true) {
            self.name = name
            self.version = version
            self.found = found
        }
    }

    /// Loads each library (this is the one command that loads them all) and reports it.
    static func versions() -> [Library] {
        func report(_ library: SystemLibrary) -> Library {
            do {
                try library.load()
                return Library(name: library.rawValue, version: library.loadedVersion)
            } catch {
                return Library(name: library.rawValue, version: "\(error)", found: false)
            }
        }
        var result = [report(.poppler), report(.libxml2), report(.curl)]
        // SQLite is linked (every command opens the library file).
        if let v = sqlite3_libversion() {
            let fts5 = sqlite3_compileoption_used("ENABLE_FTS5") != 0 ? " (FTS5)" : ""
            result.append(Library(name: "sqlite3", version: String(cString: v) + fts5))
        }
        // MiniLM's matrix products and the passes between them are Lectern's own (Sources/CGemm):
        // which kernels this CPU runs.
        let bfloat16 = lectern_gemm_bf16_native() != 0 ? "native (AVX512_BF16)" : "portable C"
        // minilm-int8's kernel: VNNI's vpdpbusd, AVX2's vpmaddubsw or portable.
        let int8 = String(cString: lectern_gemm_i8_kernel())
        result.append(Library(name: "gemm", version: "\(String(cString: lectern_gemm_kernel())) kernels, bfloat16 \(bfloat16), int8 \(int8)"))
        return result
    }
}
