import Foundation

/// A curriculum as a UMCF file for the UnaMentis tutoring app: root `curriculum` node → `unit`
/// nodes → `topic` nodes whose transcript segments are the topic's passages in reading order,
/// cut for speech (`SpokenSegments`), with a checkpoint about every three segments
/// (`UMCFCheckpoints`), and objectives on every topic (its own, or its unit's, inherited).
/// Reads the curriculum value only (never a model, never the clock), so exporting an unchanged
/// curriculum again gives the same bytes, and every id comes from the model's stable ids.
struct UMCFExporter {
    /// The key of a topic node's `extensions` entry mapping its segments to their documents.
    static let provenanceNamespace = "urn:lectern:provenance"
    /// Words a tutor speaks in a minute, for a segment's estimated duration.
    static let speakingWordsPerMinute = 150
    /// `aiGenerationMetadata.model` when only the offline methods generated parts.
    static let offlineMethodName = "lectern-offline"

    init() {}

    /// The file's bytes: pretty JSON with sorted keys and a final newline. `assessments` maps a
    /// topic's stable id to its questions (flashcards), written as `text_entry` assessments.
    /// `checkpointCards` are the cards checkpoints ask, by topic (the assessments when nil).
    func export(_ curriculum: Curriculum, assessments: [String: [TopicAssessment]] = [:],
                checkpointCards: [String: [TopicAssessment]]? = nil) throws -> Data {
        try CurriculumExportEncoding.json(document(curriculum, assessments: assessments, checkpointCards: checkpointCards))
    }

    func document(_ curriculum: Curriculum, assessments: [String: [TopicAssessment]] = [:],
                  checkpointCards: [String: [TopicAssessment]]? = nil) -> UMCFDocument {
        let sources = Dictionary(curriculum.sources.map { ($0.documentId, $0) }, uniquingKeysWith: { first, _ in first })
        let units = curriculum.units.enumerated().map { index, unit in
            let candidates = InheritedObjectives.unitObjectives(unit)
            var overall: LearningObjective??  // the unit's overall objective, found once when a topic needs it
            func inherited(_ topic: Topic) -> [(objective: LearningObjective, statement: String)] {
                guard topic.objectives.isEmpty else { return [] }
                return InheritedObjectives.objectives(for: topic, candidates: candidates) {
                    if overall == nil { overall = .some(InheritedObjectives.overall(of: unit)) }
                    return overall!
                }
            }
            return UMCFNode(id: .lectern(unit.stableId), title: unit.title, type: .unit, orderIndex: index,
                            timeEstimates: Self.timeEstimate(minutes: unit.topics.reduce(0) { $0 + Self.minutes($1) }),
                            children: unit.topics.enumerated().map { order, topic in
                                topicNode(topic, order: order, sources: sources, assessments: assessments[topic.stableId] ?? [],
                                          checkpointCards: checkpointCards.map { $0[topic.stableId] ?? [] }, inherited: inherited(topic))
                            })
        }
        let totalMinutes = curriculum.topics.reduce(0) { $0 + Self.minutes($1) }
        let root = UMCFNode(id: .lectern(curriculum.stableId + "-root"), title: Self.title(curriculum), type: .curriculum,
                            orderIndex: 0, timeEstimates: Self.timeEstimate(minutes: totalMinutes), children: units)
        let created = Self.timestamp(curriculum.createdAt), modified = Self.timestamp(curriculum.modifiedAt)
        let glossary = Self.glossary(curriculum)
        return UMCFDocument(
            id: .lectern(curriculum.stableId),
            title: Self.title(curriculum),
            description: Self.description(curriculum),
            version: UMCFVersion(number: "1.0.0", date: modified),
            lifecycle: UMCFLifecycle(contributors: [UMCFContributor(name: "Lectern", role: "technical implementer")],
                                     created: created, modified: modified),
            metadata: UMCFMetadata(structure: "hierarchical", aggregationLevel: 3),
            educational: UMCFEducational(intendedEndUserRole: ["learner"], typicalLearningTime: "PT\(totalMinutes)M"),
            rights: Self.rights(curriculum.sources),
            sourceProvenance: Self.provenance(curriculum, date: modified),
            content: [root],
            glossary: glossary.isEmpty ? nil : UMCFGlossary(terms: glossary))
    }

    // MARK: Topics

    func topicNode(_ topic: Topic, order: Int, sources: [Int64: CurriculumSource], assessments: [TopicAssessment],
                   checkpointCards: [TopicAssessment]? = nil,
                   inherited: [(objective: LearningObjective, statement: String)] = []) -> UMCFNode {
        var segments: [UMCFTranscriptSegment] = []
        var provenance: [String: UMCFSegmentSource] = [:]
        var segmentPassages: [[Int]] = []
        let terms = topic.keyTerms.map { ($0.term, TermWords($0.term)) }
        var uriHashes: [String: String] = [:]  // hashed once per document, not once per passage
        let planned = SpokenSegments.plan(topic.passages)
        for (index, spoken) in planned.enumerated() {
            let passage = topic.passages[spoken.passages[0]]
            let source = sources[passage.documentId]
            let uri = source?.uri ?? "lectern:document/\(passage.documentId)"
            let uriHash = uriHashes[uri] ?? ContentHash.shortId(uri)
            uriHashes[uri] = uriHash
            var id = "\(topic.stableId)-\(uriHash)-\(passage.ordinal)" + (spoken.part > 1 ? "-\(spoken.part)" : "")
            // The same passage twice in a topic (a merge gone odd) still gets two distinct ids.
            if provenance[id] != nil { id += "-\(index)" }
            let words = terms.isEmpty ? nil : TermWords(spoken.text)
            let refs = terms.filter { words?.contains($0.1) == true }.map(\.0)
            segments.append(UMCFTranscriptSegment(
                id: id, type: Self.segmentType(passage, text: spoken.text, at: index, of: planned.count), content: spoken.text,
                glossaryRefs: refs.isEmpty ? nil : refs, estimatedDuration: Self.speakingDuration(spoken.text)))
            segmentPassages.append(spoken.passages)
            let joined = spoken.passages.dropFirst().map { topic.passages[$0].ordinal }
            provenance[id] = UMCFSegmentSource(
                document: .init(uri: uri, title: source?.title ?? uri), ordinal: passage.ordinal,
                section: passage.sectionPath.isEmpty ? nil : passage.sectionPath, pageStart: passage.pageStart,
                pageEnd: passage.pageEnd, pageLabel: passage.pageLabel, timeStart: passage.timeStart, timeEnd: passage.timeEnd,
                part: spoken.part > 1 ? spoken.part : nil, joinedOrdinals: joined.isEmpty ? nil : Array(joined))
        }
        if segments.isEmpty {
            // A topic whose passages left the library since the build (or held only captions and
            // credits): the tutor still has its summary to speak rather than nothing.
            let text = topic.summary.isEmpty ? topic.title : topic.summary
            segments.append(UMCFTranscriptSegment(id: topic.stableId + "-summary", type: .summary, content: text,
                                                  estimatedDuration: Self.speakingDuration(text)))
            segmentPassages.append([])
        }
        UMCFCheckpoints.place(in: &segments, passages: segmentPassages.map { $0.map { topic.passages[$0].id } },
                              cards: checkpointCards ?? assessments)
        let totalSeconds = segments.reduce(0) { $0 + Self.speakingSeconds($1.content) }
        // A unit's objective a topic without its own carries (`InheritedObjectives`): its id names
        // both, so the app keeps one per topic, and its catalog says it is inherited.
        let objectives = topic.objectives.isEmpty
            ? inherited.map {
                UMCFLearningObjective(id: UMCFIdentifier(catalog: Self.inheritedCatalog, value: topic.stableId + "-" + $0.objective.stableId),
                                      statement: $0.statement, bloomsLevel: Self.bloomsLevel($0.statement))
            }
            : topic.objectives.map { UMCFLearningObjective(id: .lectern($0.stableId), statement: $0.statement, bloomsLevel: Self.bloomsLevel($0.statement)) }
        return UMCFNode(
            id: .lectern(topic.stableId), title: topic.title, type: .topic, orderIndex: order,
            description: topic.summary.isEmpty ? nil : topic.summary,
            learningObjectives: objectives.isEmpty ? nil : objectives,
            prerequisites: topic.prerequisites.isEmpty ? nil : topic.prerequisites.map {
                UMCFPrerequisite(nodeId: $0.topicStableId, description: $0.reason == .reference
                                 ? "the text refers back to it: “\($0.term)”" : "defines “\($0.term)”, which this topic uses", required: false)
            },
            timeEstimates: Self.timeEstimate(minutes: Self.minutes(topic)),
            transcript: UMCFTranscript(segments: segments, totalDuration: "PT\(totalSeconds)S"),
            assessments: assessments.isEmpty ? nil : assessments.map {
                UMCFAssessment(id: .lectern($0.stableId), type: "text_entry", prompt: $0.question, question: $0.question,
                               correctAnswer: $0.answer, correctResponse: [$0.answer], hint: $0.hint)
            },
            glossaryTerms: topic.keyTerms.isEmpty ? nil : topic.keyTerms.map {
                UMCFGlossaryTerm(id: topic.stableId + "-term-" + Self.slug($0.term), term: $0.term, definition: $0.definition)
            },
            extensions: [Self.provenanceNamespace: UMCFTopicProvenance(segments: provenance)])
    }

    /// The catalog of an objective a topic inherits from its unit (it has none of its own).
    static let inheritedCatalog = "lectern-inherited"
    /// A segment's id, `<topic>-<8 hex of the document URI>-<passage ordinal>`: stable while the
    /// topic keeps its id and the document its passages, whatever the library's row ids. The
    /// later parts of a passage cut in parts add `-2`, `-3`, ….
    static func segmentId(topic: String, documentURI: String, ordinal: Int) -> String {
        "\(topic)-\(ContentHash.shortId(documentURI))-\(ordinal)"
    }

    /// The segment type a passage is spoken as: the topic's first passage introduces it; a
    /// "Summary" or "Conclusion" section, or a closing recap, sums up; an "Example" section or
    /// a passage opening "For example" is an example; the rest explains.
    static func segmentType(_ passage: Passage, text: String? = nil, at index: Int, of count: Int) -> UMCFTranscriptSegment.Kind {
        if index == 0 { return .introduction }
        let heading = (passage.sectionPath.last ?? "").lowercased()
        let opening = (text ?? passage.text).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if opensWith(heading, summaryHeadings) { return .summary }
        if index == count - 1, recapOpenings.contains(where: { opening.hasPrefix($0) }) { return .summary }
        if opensWith(heading, exampleHeadings) || exampleOpenings.contains(where: { opening.hasPrefix($0) }) { return .example }
        return .explanation
    }

    /// A heading that names the section a summary ("Summary", "Conclusion: …", "Key takeaways"),
    /// not one that only mentions it ("Summarize Your Argument in the Conclusion").
    static let summaryHeadings = [["summary"], ["summaries"], ["conclusion"], ["conclusions"], ["recap"], ["key", "takeaways"],
                                  ["concluding", "remarks"], ["chapter", "summary"], ["section", "summary"], ["in", "summary"],
                                  ["in", "conclusion"]]
    static let exampleHeadings = [["example"], ["examples"], ["worked", "example"], ["worked", "examples"]]

    static let recapOpenings = ["in summary", "to summarize", "to summarise", "in conclusion", "to conclude", "to sum up",
                                "summing up", "in short,", "to recap"]
    static let exampleOpenings = ["for example", "for instance", "example:", "example ", "as an example", "consider the example"]

    /// Whether `heading`'s first words are one of `openings` ("Example 2.3" opens with "example").
    private static func opensWith(_ heading: String, _ openings: [[String]]) -> Bool {
        let words = heading.split { !$0.isLetter }.map(String.init)
        return openings.contains { words.starts(with: $0) }
    }

    /// Whether `text` uses `term` as a word (not inside a longer word), in any case.
    static func mentions(_ text: String, term: String) -> Bool {
        TermWords(text).contains(TermWords(term))
    }

    /// Bloom's level from an objective's opening verb ("Explain …" understands), when it names one.
    static func bloomsLevel(_ statement: String) -> String? {
        guard let first = statement.split(whereSeparator: { !$0.isLetter }).first else { return nil }
        return bloomsVerbs[first.lowercased()]
    }

    static let bloomsVerbs: [String: String] = {
        let levels: [(String, [String])] = [
            ("remember", ["define", "list", "identify", "name", "recall", "recognize", "recognise", "state", "label", "memorize"]),
            ("understand", ["explain", "describe", "summarize", "summarise", "discuss", "interpret", "classify", "outline",
                            "characterize", "characterise", "articulate", "paraphrase", "clarify", "understand"]),
            ("apply", ["apply", "use", "solve", "demonstrate", "calculate", "illustrate", "employ", "implement", "practice"]),
            ("analyze", ["analyze", "analyse", "compare", "contrast", "distinguish", "differentiate", "examine", "categorize",
                         "categorise", "relate", "trace"]),
            ("evaluate", ["evaluate", "assess", "critique", "judge", "justify", "argue", "defend", "appraise", "critically"]),
            ("create", ["create", "design", "construct", "formulate", "develop", "compose", "propose", "write"]),
        ]
        var map: [String: String] = [:]
        for (level, verbs) in levels { for verb in verbs { map[verb] = level } }
        return map
    }()

    // MARK: Times

    static func minutes(_ topic: Topic) -> Int { max(1, topic.studyMinutes) }

    /// The study time as the schema's one-unit duration (PT90M, never PT1H30M).
    static func timeEstimate(minutes: Int) -> UMCFTimeEstimates {
        UMCFTimeEstimates(intermediate: "PT\(minutes)M")
    }

    static func speakingSeconds(_ text: String) -> Int {
        let words = text.split(whereSeparator: \.isWhitespace).count
        return max(1, Int((Double(words) * 60 / Double(speakingWordsPerMinute)).rounded()))
    }

    static func speakingDuration(_ text: String) -> String { "PT\(speakingSeconds(text))S" }

    /// Full ISO 8601 with a zone (`2026-11-23T20:25:44Z`), the only dates the app parses.
    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    // MARK: The curriculum's own parts

    static func title(_ curriculum: Curriculum) -> String {
        let title = curriculum.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return String((title.isEmpty ? curriculum.name : title).prefix(500))
    }

    /// The course's own description where its source gives one, else what the course holds.
    static func description(_ curriculum: Curriculum) -> String {
        if let summary = curriculum.summary, !summary.isEmpty { return summary }
        let units = curriculum.units.count, topics = curriculum.topics.count
        let sources = curriculum.sources.map(\.title).joined(separator: "; ")
        return "A course in \(units) unit\(units == 1 ? "" : "s") and \(topics) topic\(topics == 1 ? "" : "s"), "
            + "built by Lectern from \(sources.isEmpty ? "its library" : sources)."
    }

    /// Every topic's key terms once per term and definition, in term order.
    static func glossary(_ curriculum: Curriculum) -> [UMCFGlossaryTerm] {
        var seen = Set<String>()
        var terms: [UMCFGlossaryTerm] = []
        for term in curriculum.topics.flatMap(\.keyTerms) {
            let key = term.term.lowercased() + "\n" + term.definition
            guard seen.insert(key).inserted else { continue }
            terms.append(UMCFGlossaryTerm(id: "term-\(slug(term.term))-\(ContentHash.sha256(key).prefix(6))",
                                          term: term.term, definition: term.definition))
        }
        return terms.sorted { ($0.term.lowercased(), $0.definition) < ($1.term.lowercased(), $1.definition) }
    }

    static func slug(_ text: String) -> String {
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }
        let joined = words.joined(separator: "-")
        return joined.isEmpty ? String(ContentHash.sha256(text).prefix(8)) : String(joined.prefix(60))
    }

    // MARK: Rights

    /// Each source's licence as it states it; a `license` object when every source states the
    /// same one, so a mixed curriculum never claims one licence for all.
    static func rights(_ sources: [CurriculumSource]) -> UMCFRights? {
        guard !sources.isEmpty else { return nil }
        let lines = sources.map { source -> String in
            guard let licence = source.licence, !licence.isEmpty else { return "\(source.title): no licence stated" }
            return "\(source.title): \(licence)" + (source.licenceURL.map { " (\($0))" } ?? "")
        }
        let licensed = sources.filter { !($0.licence ?? "").isEmpty }
        let distinct = Set(licensed.map { ($0.licence ?? "") + "\n" + ($0.licenceURL ?? "") })
        var license: UMCFRights.License?
        if licensed.count == sources.count, distinct.count == 1, let first = licensed.first {
            license = .init(type: licenceName(first.licence ?? "", url: first.licenceURL), url: first.licenceURL)
        }
        let attributions = licensed.filter { ($0.licenceURL ?? $0.licence ?? "").lowercased().contains("creativecommons")
            || ($0.licence ?? "").lowercased().contains("creative commons") }.map {
            // A web address credits the source; a path on this machine would mean nothing to a reader.
            let web = $0.uri.lowercased().hasPrefix("http") ? " (\($0.uri))" : ""
            return "“\($0.title)”\(web), licensed under \(licenceName($0.licence ?? "", url: $0.licenceURL))."
        }
        return UMCFRights(copyrightAndOtherRestrictions: licensed.isEmpty ? nil : true,
                          description: lines.joined(separator: "\n"), license: license,
                          attributionRequirements: attributions.isEmpty ? nil : "Contains material from " + attributions.joined(separator: " "))
    }

    /// "CC-BY-NC-SA-4.0" from a Creative Commons URL; the stated name otherwise.
    static func licenceName(_ name: String, url: String?) -> String {
        guard let url, let parsed = URL(string: url), parsed.host?.lowercased().hasSuffix("creativecommons.org") == true else { return name }
        let parts = parsed.path.split(separator: "/").map(String.init)
        if parts.count >= 3, parts[0] == "licenses" { return "CC-\(parts[1].uppercased())-\(parts[2])" }
        if parts.count >= 3, parts[0] == "publicdomain", parts[1] == "zero" { return "CC0-\(parts[2])" }
        return name
    }

    // MARK: Provenance

    static func provenance(_ curriculum: Curriculum, date: String) -> UMCFSourceProvenance {
        var topicsBySource: [Int64: [String]] = [:]
        for topic in curriculum.topics {
            for documentId in Set(topic.passages.map(\.documentId)) { topicsBySource[documentId, default: []].append(topic.stableId) }
        }
        let references = curriculum.sources.map { source in
            let used = topicsBySource[source.documentId] ?? []
            return UMCFSourceReference(
                id: UMCFIdentifier(catalog: "URI", value: source.uri), title: source.title.isEmpty ? source.uri : source.title,
                type: referenceType(source.type), url: accessURL(source.uri), publisher: publisher(source.type),
                license: source.licence, relationshipToContent: "primary_source", sectionsUsed: used.isEmpty ? nil : used)
        }
        let parts = generatedParts(curriculum)
        let usesModel = parts.contains { $0.method == ContentOrigin.model.rawValue }
        var transformations = ["each topic's passages, in reading order, are its transcript segments, cut for speech "
                               + "(100–2,000 characters at sentence ends) without figure captions, credits or licence lines",
                               "a checkpoint after every third segment asks one of the topic's flashcards"]
        transformations += generatedSummary(curriculum)
        return UMCFSourceProvenance(
            originType: "imported", primarySources: references,
            importMetadata: .init(importDate: date, importTool: "Lectern", transformations: transformations),
            aiGenerationMetadata: parts.isEmpty ? nil : .init(
                model: usesModel ? (curriculum.modelName ?? "a language model") : offlineMethodName,
                generationDate: date, humanReviewed: false, generatedParts: parts))
    }

    /// Every part a model or the offline methods wrote, topic by topic.
    static func generatedParts(_ curriculum: Curriculum) -> [UMCFGeneratedPart] {
        var parts: [UMCFGeneratedPart] = []
        for topic in curriculum.topics {
            for origin in [ContentOrigin.model, .offline] {
                if topic.titleOrigin == origin {
                    parts.append(.init(nodeId: topic.stableId, field: "title", method: origin.rawValue))
                }
                if topic.summaryOrigin == origin, !topic.summary.isEmpty {
                    parts.append(.init(nodeId: topic.stableId, field: "description", method: origin.rawValue))
                }
                let objectives = topic.objectives.filter { $0.origin == origin }
                if !objectives.isEmpty {
                    parts.append(.init(nodeId: topic.stableId, field: "learningObjectives", method: origin.rawValue,
                                       items: objectives.map(\.stableId)))
                }
                let terms = topic.keyTerms.filter { $0.origin == origin }
                if !terms.isEmpty {
                    parts.append(.init(nodeId: topic.stableId, field: "glossaryTerms", method: origin.rawValue, items: terms.map(\.term)))
                }
            }
        }
        return parts
    }

    /// The generated parts counted, as `importMetadata.transformations` lines.
    static func generatedSummary(_ curriculum: Curriculum) -> [String] {
        let topics = curriculum.topics
        var lines: [String] = []
        for origin in [ContentOrigin.model, .offline] {
            let by = origin == .model ? "by \(curriculum.modelName ?? "a language model")" : "offline by Lectern"
            let titles = topics.filter { $0.titleOrigin == origin }.count
            let summaries = topics.filter { $0.summaryOrigin == origin && !$0.summary.isEmpty }.count
            let objectives = topics.reduce(0) { $0 + $1.objectives.filter { $0.origin == origin }.count }
            let terms = topics.reduce(0) { $0 + $1.keyTerms.filter { $0.origin == origin }.count }
            if titles > 0 { lines.append("\(titles) topic title\(titles == 1 ? "" : "s") written \(by)") }
            if summaries > 0 { lines.append("\(summaries) topic summar\(summaries == 1 ? "y" : "ies") written \(by)") }
            if objectives > 0 { lines.append("\(objectives) learning objective\(objectives == 1 ? "" : "s") generated \(by)") }
            if terms > 0 { lines.append("\(terms) key term\(terms == 1 ? "" : "s") generated \(by)") }
        }
        return lines
    }

    static func referenceType(_ type: DocumentType) -> String {
        switch type {
        case .openstax: "textbook"
        case .wikipedia: "encyclopedia"
        case .ocw: "course"
        case .srt, .vtt, .transcript: "video"
        case .html: "website"
        case .markdown, .text: "lecture_notes"
        default: "other"
        }
    }

    static func publisher(_ type: DocumentType) -> String? {
        switch type {
        case .openstax: "OpenStax"
        case .ocw: "MIT OpenCourseWare"
        case .wikipedia: "Wikipedia"
        default: nil
        }
    }

    /// The source's URI where it is an address to open (http, https, file).
    static func accessURL(_ uri: String) -> String? {
        guard let scheme = URL(string: uri)?.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else { return nil }
        return uri
    }
}
