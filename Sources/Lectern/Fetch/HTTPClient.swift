import CCurl
import Foundation

/// Lectern's one HTTP client, on libcurl: http and https only, bounded redirects, gzip,
/// connect and total timeouts, a response size cap, and retries with exponential back-off and
/// jitter after connection errors, 429 and 5xx, honouring `Retry-After`. The total timeout
/// bounds the whole request: its redirects, its retries and the waits between them.
///
/// Calls block the calling thread; each call uses its own curl handle, so one client may be
/// shared by threads. Error messages name the URL without credentials and never hold header
/// values, so API keys sent in headers cannot leak through them.
///
/// Redirects are followed here rather than by libcurl, because libcurl sends custom headers
/// (an `x-api-key`, say) on to whatever host a redirect names; this client drops credential
/// headers when a redirect leaves the origin the request was made to.
final class HTTPClient: Sendable {
    let settings: HTTPSettings
    let userAgent: String
    /// Waits between attempts: the real clock, unless a test records the delays instead.
    let pause: Pause

    /// Waits `seconds`; the real one sleeps the calling thread.
    typealias Pause = @Sendable (_ seconds: Double) -> Void
    static let sleep: Pause = { seconds in if seconds > 0 { Thread.sleep(forTimeInterval: seconds) } }

    convenience init(settings: HTTPSettings = HTTPSettings(), userAgent: String? = nil) {
        self.init(settings: settings, userAgent: userAgent, pause: HTTPClient.sleep)
    }

    init(settings: HTTPSettings, userAgent: String? = nil, pause: @escaping Pause) {
        self.settings = settings
        var agent = userAgent ?? "lectern/\(Lectern.version)"
        if userAgent == nil, let contact = settings.contact, !contact.isEmpty { agent += " (+\(contact))" }
        self.userAgent = agent
        self.pause = pause
    }

    /// Once per process, after libcurl is loaded (on the first transfer, not at start-up).
    private static let globalInit: Void = { _ = lazy_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Sends `request`, retrying where a retry can help. Any status comes back as a response;
    /// a connection failure, a refused scheme, an oversized body or a request that outlasts its
    /// timeout throws. Each attempt gets the time that remains; a retry whose wait would end
    /// past the deadline is not made (the last answer, or error, stands).
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try validate(request.url)
        let deadline = Deadline(seconds: request.timeout ?? settings.timeout, setting: request.timeout == nil ? "http.timeout" : nil)
        var attempt = 0
        while true {
            attempt += 1
            let canRetry = attempt <= settings.maxRetries
            do {
                var response = try follow(request, deadline: deadline)
                response.attempts = attempt
                if canRetry, Self.isRetryable(status: response.status) {
                    let wait = delay(afterAttempt: attempt, retryAfter: Self.retryAfter(in: response))
                    if deadline.allows(wait) {
                        pause(wait)
                        continue
                    }
                }
                return response
            } catch let error as TransferError {
                if canRetry, error.retryable, !error.outlasted, !error.streamed {
                    let wait = delay(afterAttempt: attempt, retryAfter: nil)
                    if deadline.allows(wait) {
                        pause(wait)
                        continue
                    }
                }
                throw error.lecternError(url: Redaction.url(request.url), attempts: attempt)
            }
        }
    }

    /// When a whole request must be over, and the setting that says so, for the error line.
    struct Deadline {
        let seconds: Double
        let end: ContinuousClock.Instant
        /// `http.timeout`, or nil for a caller's own per-request timeout.
        let setting: String?

        init(seconds: Double, setting: String?) {
            self.seconds = seconds
            self.setting = setting
            end = .now + .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
        }

        /// Seconds left (negative once past).
        var remaining: Double {
            let left = ContinuousClock.now.duration(to: end).components
            return Double(left.seconds) + Double(left.attoseconds) / 1e18
        }

        /// Whether an attempt after waiting `seconds` would still start before the end.
        func allows(_ wait: Double) -> Bool { wait < remaining }

        /// The error of a request that ran out of time.
        func outlasted() -> TransferError {
            let limit = setting.map { "\($0) = \(HTTPClient.formatSeconds(seconds))" } ?? "its \(HTTPClient.formatSeconds(seconds)) timeout"
            return TransferError(code: CURLE_OPERATION_TIMEDOUT, message: "took longer than \(limit)", tooLarge: false, outlasted: true)
        }
    }

    /// GET that accepts only success (and 304 when the request was conditional): any other
    /// status becomes one clear error line, "URL: HTTP 404 Not Found".
    func get(_ url: String, headers: [String: String] = [:]) throws -> HTTPResponse {
        let response = try send(HTTPRequest(url: url, headers: headers))
        if response.isSuccess || response.isNotModified { return response }
        throw LecternError(.http, Redaction.url(url), "HTTP \(response.statusLine)")
    }

    static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || (500...599).contains(status) && status != 501
    }

    /// Seconds to wait before the next attempt: `Retry-After` (seconds or an HTTP date) when the
    /// server sent one, else exponential back-off with full jitter; never over `maxRetryDelay`.
    func delay(afterAttempt attempt: Int, retryAfter: String?) -> Double {
        if let retryAfter, let seconds = Self.parseRetryAfter(retryAfter) {
            return min(max(seconds, 0), settings.maxRetryDelay)
        }
        let exponential = settings.retryBaseDelay * pow(2, Double(attempt - 1))
        return min(exponential * Double.random(in: 0.5...1.0), settings.maxRetryDelay)
    }

    /// The server's wait request: `Retry-After` (RFC 9110), else `retry-after-ms`, which the
    /// OpenAI and Anthropic APIs send for waits shorter than a second.
    static func retryAfter(in response: HTTPResponse) -> String? {
        if let value = response.header("retry-after") { return value }
        if let ms = response.header("retry-after-ms").flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) { return String(ms / 1000) }
        return nil
    }

    static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return date.timeIntervalSince(now)
    }

    func validate(_ url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw LecternError(.invalidInput, Redaction.url(url), "not a URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw LecternError(.unsupported, Redaction.url(url), "only http and https URLs are fetched, not \(scheme)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw LecternError(.invalidInput, Redaction.url(url), "the URL has no host")
        }
    }

    // MARK: - Redirects

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Performs `original` and follows up to `maxRedirects` redirects, all before `deadline`.
    /// With `maxRedirects` 0 a redirect comes back as the response.
    func follow(_ original: HTTPRequest, deadline: Deadline) throws -> HTTPResponse {
        var request = original
        var hops = 0
        while true {
            let remaining = deadline.remaining
            guard remaining > 0 else { throw deadline.outlasted() }
            let response: HTTPResponse
            let location: String?
            do {
                (response, location) = try perform(request, timeout: remaining)
            } catch let error as TransferError where error.code == CURLE_OPERATION_TIMEDOUT && deadline.remaining < 0.05 {
                throw deadline.outlasted()  // curl stopped at the time that was left, not at the connect timeout
            }
            guard settings.maxRedirects > 0, Self.redirectStatuses.contains(response.status), let location else { return response }
            hops += 1
            guard hops <= settings.maxRedirects else {
                throw TransferError(code: CURLE_TOO_MANY_REDIRECTS, message: "more than \(settings.maxRedirects) redirects (http.max_redirects)", tooLarge: false)
            }
            let scheme = URLComponents(string: location)?.scheme?.lowercased() ?? ""
            guard scheme == "http" || scheme == "https" else {
                throw TransferError(code: CURLE_UNSUPPORTED_PROTOCOL,
                                    message: "redirected to a\(scheme.isEmpty ? "n unparsable" : " \(scheme):") URL; only http and https are followed", tooLarge: false)
            }
            request = Self.redirected(request, status: response.status, to: location, origin: original.url)
        }
    }

    /// The request a redirect asks for: 303 (and 301/302 after a POST) turn into a GET without
    /// a body, as browsers and libcurl do; credential headers go only to the original origin.
    static func redirected(_ request: HTTPRequest, status: Int, to location: String, origin: String) -> HTTPRequest {
        var next = request
        next.url = location
        let method = request.method.uppercased()
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            next.method = "GET"
            next.body = nil
            next.headers = next.headers.filter { !["content-type", "content-length", "content-encoding"].contains($0.key.lowercased()) }
        }
        if !sameOrigin(location, origin) {
            next.headers = next.headers.filter { !HTTPRequest.isCredentialHeader($0.key) }
        }
        return next
    }

    /// Same scheme, host and port (default ports made explicit).
    static func sameOrigin(_ a: String, _ b: String) -> Bool {
        func origin(_ url: String) -> String? {
            guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), let host = c.host?.lowercased() else { return nil }
            let port = c.port ?? (scheme == "https" ? 443 : 80)
            return "\(scheme)://\(host):\(port)"
        }
        guard let x = origin(a), let y = origin(b) else { return false }
        return x == y
    }

    // MARK: - One transfer

    struct TransferError: Error {
        var code: CURLcode
        var message: String
        var tooLarge: Bool
        /// The request ran out of its total timeout: no time is left for a retry.
        var outlasted = false
        /// Part of the body already went to `HTTPRequest.onBody`: a retry would repeat it.
        var streamed = false

        var retryable: Bool {
            if tooLarge { return false }
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_RECV_ERROR, CURLE_SEND_ERROR,
                 CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_COULDNT_RESOLVE_HOST, CURLE_SSL_CONNECT_ERROR,
                 CURLE_HTTP2, CURLE_HTTP2_STREAM:
                return true
            default:
                return false
            }
        }

        func lecternError(url: String, attempts: Int) -> LecternError {
            if tooLarge { return LecternError(.tooLarge, url, message) }
            let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
            return LecternError(.network, url, message + tries)
        }
    }

    /// What the callbacks fill in during one transfer.
    final class Transfer {
        var body = Data()
        var headers: [String: String] = [:]
        let limit: Int
        var exceeded = false
        /// The status of the response being received, from its status line.
        var status = 0
        let onBody: (@Sendable (Data) -> Void)?
        /// Whether `onBody` has been handed a piece.
        var streamed = false

        init(limit: Int, onBody: (@Sendable (Data) -> Void)? = nil) {
            self.limit = limit
            self.onBody = onBody
        }

        func header(line: String) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("HTTP/") {
                headers = [:]  // a new response (after a redirect or a 100 Continue)
                status = trimmed.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                return
            }
            guard let colon = trimmed.firstIndex(of: ":") else { return }
            let name = trimmed[..<colon].lowercased()
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
        }
    }

    /// One request without following redirects: the response and, for a redirect, the absolute
    /// URL it points to (resolved by libcurl against the request URL).
    func perform(_ request: HTTPRequest, timeout: Double) throws -> (HTTPResponse, String?) {
        try SystemLibrary.curl.load()
        Self.globalInit
        guard let handle = lazy_curl_easy_init() else {
            throw TransferError(code: CURLE_FAILED_INIT, message: "libcurl could not start a transfer", tooLarge: false)
        }
        defer { lazy_curl_easy_cleanup(handle) }
        let transfer = Transfer(limit: settings.maxResponseBytes, onBody: request.onBody)
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { lazy_curl_slist_free_all(headerList) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = lazy_curl_slist_append(headerList, "\(name): \(value)")
        }
        if request.headers.keys.contains(where: { $0.lowercased() == "expect" }) == false, request.body != nil {
            headerList = lazy_curl_slist_append(headerList, "Expect:")  // no 100-continue round trip
        }

        lectern_curl_setopt_string(handle, CURLOPT_URL, request.url)
        lectern_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        lectern_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        lectern_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        lectern_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)  // followed in `follow`
        lectern_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(settings.connectTimeout * 1000)))
        lectern_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000)))
        lectern_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        lectern_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent)
        lectern_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxResponseBytes))
        lectern_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        if let headerList { lectern_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList) }

        let method = request.method.uppercased()
        if let body = request.body {
            lectern_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { raw in
                _ = lectern_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            if method != "POST" { lectern_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "HEAD" {
            lectern_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            lectern_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }

        lectern_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
        lectern_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION) { pointer, size, count, user in
            guard let pointer, let user else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            let bytes = size * count
            if transfer.body.count + bytes > transfer.limit {
                transfer.exceeded = true
                return 0  // aborts the transfer with CURLE_WRITE_ERROR
            }
            pointer.withMemoryRebound(to: UInt8.self, capacity: bytes) { transfer.body.append($0, count: bytes) }
            if let onBody = transfer.onBody, (200..<300).contains(transfer.status) {
                transfer.streamed = true
                onBody(Data(transfer.body.suffix(bytes)))
            }
            return bytes
        }
        lectern_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque())
        lectern_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION) { pointer, size, count, user in
            guard let pointer, let user else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            let bytes = size * count
            let line = pointer.withMemoryRebound(to: UInt8.self, capacity: bytes) {
                String(decoding: UnsafeBufferPointer(start: $0, count: bytes), as: UTF8.self)
            }
            transfer.header(line: line)
            return bytes
        }

        let code = lazy_curl_easy_perform(handle)
        if code != CURLE_OK {
            let limit = "response larger than the \(Self.formatBytes(settings.maxResponseBytes)) limit (http.max_response_mb)"
            if transfer.exceeded || code == CURLE_FILESIZE_EXCEEDED {
                throw TransferError(code: code, message: limit, tooLarge: true)
            }
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: lazy_curl_easy_strerror(code)) : detail
            throw TransferError(code: code, message: Redaction.text(message, hiding: Self.secrets(in: request)), tooLarge: false,
                                streamed: transfer.streamed)
        }
        var status = 0
        lectern_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var redirect: UnsafeMutablePointer<CChar>?
        lectern_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect)
        let location = redirect.map { String(cString: $0) }
        let response = HTTPResponse(status: status, headers: transfer.headers, body: transfer.body, url: Redaction.withoutUserInfo(request.url))
        return (response, location)
    }

    /// Header values and URL credentials that must never appear in a message.
    static func secrets(in request: HTTPRequest) -> [String] {
        var secrets: [String] = []
        for value in request.headers.values {
            secrets.append(value)
            // "Bearer sk-…", "Basic dXNlcjpwYXNz": the credential alone must not show either.
            if let space = value.firstIndex(of: " ") {
                secrets.append(String(value[value.index(after: space)...]).trimmingCharacters(in: .whitespaces))
            }
        }
        return secrets + Redaction.credentials(in: request.url)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    static func formatBytes(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
