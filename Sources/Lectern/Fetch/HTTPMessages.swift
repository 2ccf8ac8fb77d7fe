import Foundation

/// One HTTP request. Header names are case-insensitive; the client lower-cases them.
struct HTTPRequest: Sendable {
    var url: String
    var method: String
    var headers: [String: String]
    var body: Data?
    /// Overrides `HTTPSettings.timeout` for this request (a slow model, a big download).
    var timeout: Double?
    /// Called with each piece of a successful (2xx) body as it arrives, on the calling thread: a
    /// streamed answer shown as it comes. Once a piece is handed over the request is not retried.
    var onBody: (@Sendable (Data) -> Void)?

    init(url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil, timeout: Double? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Headers that carry credentials: never sent on to another origin by a redirect.
    static func isCredentialHeader(_ name: String) -> Bool {
        let name = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "x-goog-api-key"].contains(name)
            || name.contains("token") || name.contains("secret") || name.hasSuffix("-key")
    }

    /// A POST of a JSON body.
    static func json(_ url: String, body: Data, headers: [String: String] = [:], timeout: Double? = nil) -> HTTPRequest {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return HTTPRequest(url: url, method: "POST", headers: headers, body: body, timeout: timeout)
    }
}

/// What a server answered, after redirects: the last response's status and headers.
struct HTTPResponse: Sendable {
    var status: Int
    /// Lower-cased names; repeated headers joined with ", ".
    var headers: [String: String]
    var body: Data
    /// The URL that answered, after redirects, without any `user:password@`.
    var url: String
    /// How many attempts it took (1 when nothing was retried).
    var attempts: Int

    init(status: Int, headers: [String: String], body: Data, url: String, attempts: Int = 1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.attempts = attempts
    }

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    var isSuccess: Bool { (200..<300).contains(status) }
    var isNotModified: Bool { status == 304 }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// "404 Not Found"; an unregistered code gets its class ("418 Client Error").
    var statusLine: String {
        let reason = Self.reasonPhrases[status] ?? Self.statusClass(status)
        return reason.isEmpty ? "\(status)" : "\(status) \(reason)"
    }

    /// RFC 9110's reason phrases (and a few registered elsewhere). Kept here rather than taken
    /// from FoundationNetworking, whose library links libcurl at start-up for every command.
    static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Entity", 423: "Locked", 424: "Failed Dependency",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
    ]

    static func statusClass(_ status: Int) -> String {
        switch status {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return ""
        }
    }
}
