/// Keeps the chain of open headings while an extractor walks a document in order, so each
/// block can be stamped with its section path.
public struct SectionTracker: Sendable {
    private var stack: [(level: Int, title: String)] = []

    public init() {}

    /// The current section path, outermost first.
    public var path: [String] { stack.map(\.title) }

    /// Opens a heading of `level` (1 = top): closes headings at that level or deeper.
    public mutating func open(level: Int, title: String) {
        while let last = stack.last, last.level >= level { stack.removeLast() }
        stack.append((level, title))
    }
}
