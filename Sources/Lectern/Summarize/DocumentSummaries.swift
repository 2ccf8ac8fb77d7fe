import Foundation

/// Summarises one stored document: each top-level section, then the whole document (from
/// its section summaries when it has several sections and a model is used, else from its
/// text), and stores them together with the provider and model.
public struct DocumentSummaries: Sendable {
    public let store: LibraryStore
    public let summarizer: any Summarizer
    /// Sections summarised at once (a model's calls are also limited per provider).
    public var parallelism: Int

    public init(store: LibraryStore, summarizer: any Summarizer, parallelism: Int = 2) {
        self.store = store
        self.summarizer = summarizer
        self.parallelism = max(1, parallelism)
    }

    /// Block kinds whose text a summary draws on (not headings, furniture, code, tables, captions,
    /// exercises, objectives or glossary entries, which are not the text's own argument).
    static let summarisedKinds: Set<BlockKind> = [.paragraph, .listItem, .cue, .quote, .keyTerm]

    /// Sections that list sources or exercises rather than teach: left out of summaries.
    static let apparatus: Set<String> = [
        "references", "bibliography", "further reading", "suggested reading", "suggested readings", "works cited",
        "review questions", "exercises", "problems", "footnotes", "notes and references", "sources",
    ]

    /// A document's text as (top-level section, paragraphs). Top level is the first heading
    /// level at which the document divides: a note under one title divides at its second level.
    static func sections(of blocks: [Block]) -> [(name: String?, paragraphs: [String])] {
        let content = blocks.filter { block in
            summarisedKinds.contains(block.kind) && !block.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                && !block.sectionPath.contains { apparatus.contains($0.lowercased()) }
        }
        var depth = 0
        while true {
            let names = Set(content.map { $0.sectionPath.count > depth ? $0.sectionPath[depth] : "" })
            if names.count == 1, let only = names.first, !only.isEmpty { depth += 1 } else { break }
        }
        var result: [(name: String?, paragraphs: [String])] = []
        var previousCue = false
        for block in content {
            let name: String? = block.sectionPath.count > depth ? block.sectionPath[depth] : nil
            if result.last.map({ $0.name != name }) ?? true {
                result.append((name: name, paragraphs: [String]()))
                previousCue = false
            }
            // Transcript cues are pieces of sentences: joined into one running text.
            if block.kind == .cue, previousCue, let last = result[result.count - 1].paragraphs.popLast() {
                result[result.count - 1].paragraphs.append(last + " " + block.text)
            } else {
                result[result.count - 1].paragraphs.append(block.text)
            }
            previousCue = block.kind == .cue
        }
        // A section that recurs later (rare) is merged with its first appearance.
        var merged: [(name: String?, paragraphs: [String])] = []
        for section in result {
            if let index = merged.firstIndex(where: { $0.name == section.name }) {
                merged[index].paragraphs += section.paragraphs
            } else {
                merged.append(section)
            }
        }
        return merged
    }

    /// Summarises `document` and replaces its stored summaries. Throws when no summary at all
    /// could be made; a section that fails is left out with its error returned.
    @discardableResult
    public func summarize(_ document: StoredDocument) throws -> (summaries: [StoredSummary], failures: [LecternError]) {
        let blocks = try store.blocks(documentId: document.id)
        let sections = Self.sections(of: blocks)
        let named = sections.compactMap { section in section.name.map { (name: $0, paragraphs: section.paragraphs) } }
        let summarizer = self.summarizer
        let title = document.title

        // Top-level sections, in parallel, each with its own result slot.
        let results = ResultSlots<Result<Summary, LecternError>>(count: named.count > 1 ? named.count : 0)
        if named.count > 1 {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = parallelism
            for (index, section) in named.enumerated() {
                queue.addOperation {
                    do {
                        results[index] = .success(try summarizer.summarize(SummaryInput(title: title, section: section.name, paragraphs: section.paragraphs)))
                    } catch let error as LecternError {
                        results[index] = .failure(LecternError(error.code, "\(title) § \(section.name)", error.reason))
                    } catch {
                        results[index] = .failure(LecternError(.languageModel, "\(title) § \(section.name)", "\(error)"))
                    }
                }
            }
            queue.waitUntilAllOperationsAreFinished()
        }
        var sectionSummaries: [(section: String, summary: Summary)] = []
        var failures: [LecternError] = []
        for (index, section) in named.enumerated() where named.count > 1 {
            switch results[index] {
            case .success(let summary)?: sectionSummaries.append((section.name, summary))
            case .failure(let error)?: failures.append(error)
            case nil: break
            }
        }

        // The whole document from its sections' summaries (map-reduce: it fits any context
        // window and covers every section rather than the most central one), else its text.
        let allParagraphs = sections.flatMap(\.paragraphs)
        guard !allParagraphs.isEmpty else {
            throw LecternError(.empty, document.path.map(DisplayPath.of) ?? document.uri, "the document has no text to summarise")
        }
        let fromSections = sectionSummaries.count > 1
        let now = ISO8601DateFormatter().string(from: Date())
        var stored: [StoredSummary] = []
        do {
            let whole = try summarizer.summarize(SummaryInput(
                title: title, paragraphs: fromSections ? sections.filter { $0.name == nil }.flatMap(\.paragraphs) : allParagraphs,
                sectionSummaries: fromSections ? sectionSummaries : []))
            stored.append(StoredSummary(section: nil, text: whole.text, keyPoints: whole.keyPoints, provider: summarizer.provider,
                                        model: summarizer.model, contentHash: document.contentHash, createdAt: now))
        } catch {
            // The sections' summaries are worth keeping; with none, the document failed.
            guard !sectionSummaries.isEmpty else { throw error }
            let reason = (error as? LecternError)?.reason ?? "\(error)"
            failures.append(LecternError(.languageModel, title, "no summary of the whole document: \(reason)"))
        }
        stored += sectionSummaries.map {
            StoredSummary(section: $0.section, text: $0.summary.text, keyPoints: $0.summary.keyPoints, provider: summarizer.provider,
                          model: summarizer.model, contentHash: document.contentHash, createdAt: now)
        }
        try store.replaceSummaries(documentId: document.id, stored)
        return (stored, failures)
    }
}

/// Fixed slots that concurrent workers fill, one each.
final class ResultSlots<T>: @unchecked Sendable {
    private var values: [T?]
    private let lock = NSLock()

    init(count: Int) { values = Array(repeating: nil, count: count) }

    subscript(index: Int) -> T? {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }
}
