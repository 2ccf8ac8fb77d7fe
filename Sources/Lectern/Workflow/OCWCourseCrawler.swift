import Foundation

/// Downloads an OCW course as the site publishes it: the course home page, every page it links
/// under `<course>/pages/` and `<course>/resources/`, and the course pages and resources those
/// pages link in turn (lecture videos with transcripts sit under a "Video Lectures" page), laid
/// out as a downloaded course folder (`index.html`, `pages/<name>/index.html`,
/// `resources/<name>/index.html`) for the OCW reader. Requests go through the fetcher's per-host
/// rate limit; the crawl never leaves the course.
struct OCWCourseCrawler {
    let fetcher: WebFetcher
    /// A course has some tens to a few hundred pages; a crawl that finds more stops here.
    var maxPages = 400

    struct Crawl {
        /// Pages saved, the home page included.
        var pages = 0
        /// Linked pages the server refused (a dead link answering 404), one line each: left out.
        var skipped: [String] = []
    }

    func download(home: String, into folder: String) throws -> Crawl {
        guard URL(string: home) != nil else { throw LecternError(.invalidInput, home, "not a URL") }
        let (homePage, answeredFrom) = try page(home)
        // An old course address redirects to the new one: the course is where the server answered.
        guard let base = Self.courseBase(answeredFrom) ?? Self.courseBase(home) else {
            throw LecternError(.invalidInput, home, "not a URL")
        }
        try write(homePage, to: folder + "/index.html")
        var crawl = Crawl(pages: 1)
        var seen = Set<String>()
        // Breadth first, two levels: what the home page links, then what those pages link.
        var level = links(in: homePage, page: URL(string: answeredFrom) ?? base, base: base)
        for depth in 1...2 {
            var next: [String] = []
            for key in level where crawl.pages < maxPages && seen.insert(key).inserted {
                let url = base.absoluteString + key + "/"
                let data: Data, answered: String
                do {
                    (data, answered) = try page(url)
                } catch let error as LecternError where error.code == .http {
                    crawl.skipped.append("\(key) left out: \(error.reason)")
                    continue
                }
                try write(data, to: "\(folder)/\(key)/index.html")
                crawl.pages += 1
                // Resource pages (a video, a PDF's landing page) are leaves; pages lead on.
                if depth == 1, key.hasPrefix("pages/") { next += links(in: data, page: URL(string: answered) ?? base, base: base) }
            }
            level = next
        }
        return crawl
    }

    /// The course folder a page's URL names, ending in `/` (`…/index.html` → `…/`). Old course
    /// addresses have a department segment (`courses/physics/8-01-…/`), so nothing is cut off.
    static func courseBase(_ url: String) -> URL? {
        guard var components = URLComponents(string: url), components.host != nil else { return nil }
        components.query = nil
        components.fragment = nil
        var parts = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if !components.path.hasSuffix("/"), let last = parts.last, last.contains(".") { parts.removeLast() }
        components.path = "/" + parts.map { $0 + "/" }.joined()
        return components.url
    }

    private func page(_ url: String) throws -> (Data, String) {
        switch try fetcher.fetch(url) {
        case .fetched(let response, _): return (response.body, response.url)
        case .notModified: throw LecternError(.http, Redaction.url(url), "HTTP 304 to a request that was not conditional")
        }
    }

    private func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The course pages and resources a page links, as `pages/<name>` or `resources/<name>`, in
    /// page order: resolved against the page's own URL, without query or fragment, inside the
    /// course only.
    private func links(in data: Data, page: URL, base: URL) -> [String] {
        guard let document = try? MarkupDocument.html(data, name: base.absoluteString) else { return [] }
        var result: [String] = []
        for anchor in document.root?.all(where: { $0.name == "a" }) ?? [] {
            guard let href = anchor.attribute("href"), let url = URL(string: href, relativeTo: page)?.absoluteURL,
                  var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { continue }
            components.query = nil
            components.fragment = nil
            guard let clean = components.url?.absoluteString, clean.hasPrefix(base.absoluteString) else { continue }
            let parts = clean.dropFirst(base.absoluteString.count).split(separator: "/")
            guard parts.count >= 2, parts[0] == "pages" || parts[0] == "resources" else { continue }
            let name = parts[1]
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), name != ".", name != ".." else { continue }
            result.append("\(parts[0])/\(name)")
        }
        return result
    }
}
