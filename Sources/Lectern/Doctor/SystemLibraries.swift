import CCurl
import CLibXML2
import COpenBLAS
import CPoppler
import CSQLite

/// The system libraries this build links, with the versions found at run time.
public enum SystemLibraries {
    public struct Library: Codable, Sendable {
        public var name: String
        public var version: String
    }

    public static func versions() -> [Library] {
        var result: [Library] = []
        if let v = poppler_get_version() { result.append(Library(name: "poppler-glib", version: String(cString: v))) }
        if let v = lectern_xml_version() { result.append(Library(name: "libxml2", version: String(cString: v))) }
        if let v = curl_version() { result.append(Library(name: "libcurl", version: String(cString: v))) }
        if let v = sqlite3_libversion() {
            let fts5 = sqlite3_compileoption_used("ENABLE_FTS5") != 0 ? " (FTS5)" : ""
            result.append(Library(name: "sqlite3", version: String(cString: v) + fts5))
        }
        if let config = openblas_get_config() {
            // "OpenBLAS 0.3.21 DYNAMIC_ARCH … Cooperlake MAX_THREADS=64", plus the kernel chosen for this CPU.
            let core = openblas_get_corename().map { String(cString: $0) } ?? "?"
            result.append(Library(name: "openblas", version: String(cString: config) + " (\(core) kernels)"))
        }
        return result
    }
}
