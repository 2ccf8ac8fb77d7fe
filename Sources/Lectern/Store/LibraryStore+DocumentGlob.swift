import Foundation

extension LibraryBackend {
    /// The documents a glob names as `ingest` reads it: a stored path the pattern matches, or one
    /// below a folder it matches (ingest walked that folder), or a URI it matches. `*` and `?`
    /// stop at a slash and skip hidden names, as the shell's glob does.
    func documents(matchingGlob pattern: String) throws -> [StoredDocument] {
        let absolute = Configuration.resolvePath(pattern, base: nil)
        func matches(_ glob: String, _ subject: String) -> Bool {
            fnmatch(glob, subject, FNM_PATHNAME | FNM_PERIOD) == 0
        }
        return try allDocuments().filter { document in
            if matches(pattern, document.uri) { return true }
            guard var path = document.path else { return false }
            while path.count > 1 {
                if matches(absolute, path) { return true }
                path = (path as NSString).deletingLastPathComponent
            }
            return false
        }
    }
}
