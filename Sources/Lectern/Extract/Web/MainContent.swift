import Foundation

/// Finds the main content of an arbitrary web page, after readability: boilerplate (navigation,
/// headers, footers, asides, scripts, styles, forms, hidden parts, link-dense blocks) is left
/// out, and the element whose paragraphs score highest (long text, commas, few links) is kept.
enum MainContent {
    static let boilerplateTags: Set<String> = [
        "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "iframe", "svg", "button",
        "input", "select", "textarea", "template", "object", "embed", "canvas", "dialog", "menu", "link", "meta",
        "head", "title",
    ]
    static let boilerplateRoles: Set<String> = ["navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar", "dialog", "alert"]
    static let unlikely = try! NSRegularExpression(
        pattern: "banner|breadcrumb|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|cookie|share|navbar|subscribe|newsletter|skip-link|jump-link",
        options: [.caseInsensitive])
    static let maybe = try! NSRegularExpression(pattern: "and|article|body|column|content|main|shadow", options: [.caseInsensitive])
    static let positive = try! NSRegularExpression(
        pattern: "article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story", options: [.caseInsensitive])
    static let negative = try! NSRegularExpression(
        pattern: "hidden|banner|combx|comment|com-|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget",
        options: [.caseInsensitive])

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        !text.isEmpty && regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// True for page furniture that never belongs to the main content.
    static func isBoilerplate(_ node: MarkupNode) -> Bool {
        let name = node.name
        if boilerplateTags.contains(name) { return true }
        if let role = node.attribute("role")?.lowercased(), boilerplateRoles.contains(role) { return true }
        if node.attribute("hidden") != nil || node.attribute("aria-hidden") == "true" { return true }
        if let style = node.attribute("style")?.replacingOccurrences(of: " ", with: "").lowercased(),
           style.contains("display:none") || style.contains("visibility:hidden") {
            return true
        }
        if ["body", "html", "article", "main", "a", "p", "h1", "h2", "h3", "h4", "h5", "h6"].contains(name) { return false }
        let signature = (node.attribute("class") ?? "") + " " + (node.id ?? "")
        if matches(unlikely, signature) && !matches(maybe, signature) { return true }
        if ["div", "ul", "ol", "section", "table", "dl"].contains(name), isLinkDense(node) { return true }
        return false
    }

    /// Mostly links and little else: menus, tag clouds, "related" lists.
    static func isLinkDense(_ node: MarkupNode) -> Bool {
        let total = TextCleanup.collapseWhitespace(node.text).count
        guard total > 0 else { return false }
        let links = node.all { $0.name == "a" }
        guard links.count >= 3 else { return false }
        let linkText = links.reduce(0) { $0 + TextCleanup.collapseWhitespace($1.text).count }
        return Double(linkText) / Double(total) > 0.5
    }

    static func linkDensity(_ node: MarkupNode) -> Double {
        let total = TextCleanup.collapseWhitespace(node.text).count
        guard total > 0 else { return 0 }
        let linkText = node.all { $0.name == "a" }.reduce(0) { $0 + TextCleanup.collapseWhitespace($1.text).count }
        return min(1, Double(linkText) / Double(total))
    }

    /// The element that holds the page's main text: `<main>`, `<article>` or `role=main` when
    /// present and substantial, else the best-scoring paragraph container.
    static func root(of document: MarkupDocument) -> MarkupNode? {
        guard let html = document.root else { return nil }
        let body = html.first { $0.name == "body" } ?? html
        // A page that marks its main content is taken at its word; an <article> must be substantial
        // (blogs put teasers of other posts in <article> elements too).
        if let main = body.first(where: { $0.name == "main" || $0.attribute("role") == "main" }),
           TextCleanup.collapseWhitespace(main.text).count >= 25 {
            return main
        }
        if let article = body.all(where: { $0.name == "article" }).first(where: { TextCleanup.collapseWhitespace($0.text).count >= 200 }) {
            return article
        }
        return bestCandidate(in: body) ?? body
    }

    /// Readability's scoring: each paragraph gives its parent 1 + commas + length/100 (≤ 3)
    /// and its grandparent half; a candidate's score is weighed by its class and links.
    static func bestCandidate(in body: MarkupNode) -> MarkupNode? {
        var scores: [UnsafeMutableRawPointer: (node: MarkupNode, score: Double)] = [:]
        func initial(_ node: MarkupNode) -> Double {
            var score: Double
            switch node.name {
            case "div": score = 5
            case "pre", "td", "blockquote": score = 3
            case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score = -3
            case "h1", "h2", "h3", "h4", "h5", "h6", "th": score = -5
            default: score = 0
            }
            let signature = (node.attribute("class") ?? "") + " " + (node.id ?? "")
            if matches(negative, signature) { score -= 25 }
            if matches(positive, signature) { score += 25 }
            return score
        }
        func add(_ node: MarkupNode, _ amount: Double) {
            let key = UnsafeMutableRawPointer(node.pointer)
            if scores[key] == nil { scores[key] = (node, initial(node)) }
            scores[key]?.score += amount
        }
        let paragraphs = body.all { ["p", "pre", "td"].contains($0.name) && !$0.isInside(isBoilerplate) }
        for paragraph in paragraphs {
            let text = TextCleanup.collapseWhitespace(paragraph.text)
            guard text.count >= 25, let parent = paragraph.parent else { continue }
            let score = 1 + Double(text.filter { $0 == "," }.count) + min(Double(text.count) / 100, 3)
            add(parent, score)
            if let grandparent = parent.parent { add(grandparent, score / 2) }
        }
        let ranked = scores.values.map { ($0.node, $0.score * (1 - linkDensity($0.node))) }.sorted { $0.1 > $1.1 }
        guard let (best, bestScore) = ranked.first, bestScore > 0 else { return nil }
        // Siblings that score nearly as well are part of the same article: keep their parent.
        if let parent = best.parent {
            let siblings = ranked.filter { $0.0.parent?.pointer == parent.pointer && $0.0.pointer != best.pointer && $0.1 >= bestScore * 0.2 }
            if !siblings.isEmpty { return parent }
        }
        return best
    }
}
