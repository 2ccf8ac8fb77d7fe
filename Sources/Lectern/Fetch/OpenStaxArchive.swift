import Foundation

/// Fetches an OpenStax book's source repository as a ZIP archive and unpacks it, returning the
/// folder that holds `META-INF/books.xml`.
struct OpenStaxArchive {
    let fetcher: WebFetcher

    func download(_ url: String, into folder: String, display: String) throws -> String {
        let data: Data
        switch try fetcher.fetch(url) {
        case .fetched(let response, _): data = response.body
        case .notModified: throw LecternError(.http, Redaction.url(url), "HTTP 304 to a request that was not conditional")
        }
        try ZipArchiveReader.unpack(data, into: folder, display: display)
        guard let root = Self.bookRoot(in: folder) else {
            throw LecternError(.unsupported, display, "the archive holds no META-INF/books.xml (not an OpenStax source repository)")
        }
        return root
    }

    /// The folder (the archive's top level or one below it) that has META-INF/books.xml.
    static func bookRoot(in folder: String) -> String? {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder + "/META-INF/books.xml") { return folder }
        for name in (try? manager.contentsOfDirectory(atPath: folder))?.sorted() ?? [] {
            let candidate = folder + "/" + name
            if manager.fileExists(atPath: candidate + "/META-INF/books.xml") { return candidate }
        }
        return nil
    }
}
