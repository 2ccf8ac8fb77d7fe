import Foundation

/// Options a user may give for one source.
public struct ExtractOptions: Sendable, Equatable {
    /// Password for encrypted documents (PDF).
    var password: String?
    /// The encoding of text files when the user names it (`--encoding`); nil recognises it.
    var encoding: TextEncoding?
    /// When PDF pages are read with OCR, in which languages, how many a document.
    public var ocr: OCRSettings

    public init(password: String? = nil, encoding: TextEncoding? = nil, ocr: OCRSettings = OCRSettings()) {
        self.password = password
        self.encoding = encoding
        self.ocr = ocr
    }
}

/// One source as a reader sees it: its bytes (or its folder) and where it came from.
struct SourceInput: Sendable {
    /// `file:///abs/path`, `https://…`, `openstax:slug` …
    var uri: String
    /// The local file or folder, when there is one.
    var path: String?
    /// The bytes of a file or a download; empty for a folder.
    var data: Data
    var isDirectory: Bool
    /// The `Content-Type` a server sent, when fetched.
    var contentType: String?
    var options: ExtractOptions
    /// Which document of a source that holds several to read (a book's slug in an OpenStax
    /// bundle); nil reads the first.
    var part: String?
    /// Asked between the steps of a long read (pages, modules); nil never stops.
    var stop: (any StopCheck)?

    init(
        uri: String, path: String? = nil, data: Data = Data(), isDirectory: Bool = false,
        contentType: String? = nil, options: ExtractOptions = ExtractOptions()
    ) {
        self.uri = uri
        self.path = path
        self.data = data
        self.isDirectory = isDirectory
        self.contentType = contentType
        self.options = options
    }

    /// What messages call this source: the path as given, else the URI.
    var displayName: String { path ?? uri }

    /// The file name's extension in lower case, a tie-breaker only, never the reason to pick a reader.
    var fileExtension: String {
        let name = (path ?? uri).split(separator: "/").last.map(String.init) ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
