/// An API's endpoint under the base URL a user configured: the path goes into the base's path,
/// before its query and fragment (`https://h/v1?api-version=2` + `chat/completions` →
/// `https://h/v1/chat/completions?api-version=2`); appended to the whole text it became
/// `…?api-version=2/chat/completions`, a query a server reads, with a key in it, as its value.
enum EndpointURL {
    static func join(_ base: String, _ path: String) -> String {
        let cut = base.firstIndex { $0 == "?" || $0 == "#" } ?? base.endIndex
        var head = String(base[..<cut])
        while head.hasSuffix("/") { head.removeLast() }
        let tail = path.drop { $0 == "/" }
        return head + "/" + tail + base[cut...]
    }
}
