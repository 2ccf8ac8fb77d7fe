import Foundation

/// A curriculum as a syllabus a person reads: its sources with their licences, then each unit
/// with its topics, each topic's study time, summary, objectives, key terms, what it builds on
/// and where its passages are.
struct CurriculumMarkdownExporter {
    init() {}

    func export(_ curriculum: Curriculum) -> Data {
        Data(markdown(curriculum).utf8)
    }

    func markdown(_ curriculum: Curriculum) -> String {
        var lines: [String] = []
        let topics = curriculum.topics
        let titles = Dictionary(topics.map { ($0.stableId, $0.title) }, uniquingKeysWith: { first, _ in first })
        let sources = Dictionary(curriculum.sources.map { ($0.documentId, $0) }, uniquingKeysWith: { first, _ in first })
        let total = topics.reduce(0) { $0 + UMCFExporter.minutes($1) }
        lines.append("# \(UMCFExporter.title(curriculum))")
        lines.append("")
        if let summary = curriculum.summary, !summary.isEmpty {
            lines.append(summary)
            lines.append("")
        }
        lines.append("\(count(curriculum.units.count, "unit")), \(count(topics.count, "topic")), about \(Self.studyTime(total)) of study.")
        let generated = UMCFExporter.generatedSummary(curriculum)
        if !generated.isEmpty { lines.append("Generated rather than read from the sources: \(generated.joined(separator: "; ")).") }
        lines.append("")
        lines.append("## Sources")
        lines.append("")
        for source in curriculum.sources {
            var line = "- **\(source.title.isEmpty ? source.uri : source.title)** (\(source.type), `\(source.uri)`)"
            if let licence = source.licence, !licence.isEmpty {
                line += ": \(licence)" + (source.licenceURL.map { " (<\($0)>)" } ?? "")
            } else {
                line += ": no licence stated"
            }
            lines.append(line)
        }
        for unit in curriculum.units {
            lines.append("")
            lines.append("## \(unit.title)")
            lines.append("")
            let minutes = unit.topics.reduce(0) { $0 + UMCFExporter.minutes($1) }
            lines.append("\(count(unit.topics.count, "topic")), about \(Self.studyTime(minutes)).")
            for topic in unit.topics {
                lines.append("")
                lines.append("### \(topic.title)")
                lines.append("")
                lines.append("*Study time: \(Self.studyTime(UMCFExporter.minutes(topic)))*")
                if !topic.summary.isEmpty {
                    lines.append("")
                    lines.append(topic.summary.replacingOccurrences(of: "\n", with: " "))
                }
                if !topic.objectives.isEmpty {
                    lines.append("")
                    lines.append("**Objectives**")
                    lines.append("")
                    lines += topic.objectives.map { "- \($0.statement)" }
                }
                if !topic.keyTerms.isEmpty {
                    lines.append("")
                    lines.append("**Key terms**")
                    lines.append("")
                    lines += topic.keyTerms.map { $0.definition.isEmpty ? "- **\($0.term)**" : "- **\($0.term)**: \($0.definition)" }
                }
                if !topic.prerequisites.isEmpty {
                    lines.append("")
                    let links = topic.prerequisites.map { "\(titles[$0.topicStableId] ?? $0.topicStableId) (\($0.because))" }
                    lines.append("**Builds on**: " + links.joined(separator: "; "))
                }
                let places = Self.places(topic.passages, sources: sources)
                if !places.isEmpty {
                    lines.append("")
                    lines.append("**Sources**: " + places.joined(separator: "; "))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// 25 → "25 min", 130 → "2 h 10 min", 120 → "2 h".
    static func studyTime(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }

    /// Per document, in the order the topic first draws on it: its title and the pages, the
    /// stretch of the recording, or the section its passages share.
    static func places(_ passages: [Passage], sources: [Int64: CurriculumSource]) -> [String] {
        var order: [Int64] = []
        var byDocument: [Int64: [Passage]] = [:]
        for passage in passages {
            if byDocument[passage.documentId] == nil { order.append(passage.documentId) }
            byDocument[passage.documentId, default: []].append(passage)
        }
        return order.map { documentId in
            let held = byDocument[documentId] ?? []
            let title = sources[documentId].map { $0.title.isEmpty ? $0.uri : $0.title } ?? "document \(documentId)"
            let pages = held.compactMap(\.pageStart) + held.compactMap(\.pageEnd)
            if let first = pages.min(), let last = pages.max() {
                let label = held.first(where: { $0.pageLabel != nil })?.pageLabel
                return first == last ? "\(title), p. \(label ?? String(first))" : "\(title), pp. \(first)–\(last)"
            }
            let times = held.compactMap(\.timeStart) + held.compactMap(\.timeEnd)
            if let first = times.min(), let last = times.max() {
                return "\(title) @ \(TimeFormat.clock(first))–\(TimeFormat.clock(last))"
            }
            let section = commonPrefix(held.map(\.sectionPath))
            return section.isEmpty ? title : "\(title) § \(section.joined(separator: " › "))"
        }
    }

    private static func commonPrefix(_ paths: [[String]]) -> [String] {
        guard var prefix = paths.first else { return [] }
        for path in paths.dropFirst() {
            while !path.starts(with: prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
