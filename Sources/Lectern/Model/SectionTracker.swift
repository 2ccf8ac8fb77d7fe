/// Keeps the chain of open headings while an extractor walks a document in order, so each
/// block can be stamped with its section path.
struct SectionTracker: Sendable {
    private var stack: [(level: Int, title: String)] = []

    init() {}

    /// The current section path, outermost first.
    var path: [String] { stack.map(\.title) }

    /// Opens a heading of `level` (1 = top): closes headings at that level or deeper.
    mutating func open(level: Int, title: String) {
        while let last = stack.last, last.level >= level { stack.removeLast() }
        stack.append((level, title))
    }
}
