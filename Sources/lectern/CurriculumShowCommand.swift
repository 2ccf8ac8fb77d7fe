import ArgumentParser
import Lectern

struct CurriculumShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a curriculum: its units and topics with study time, objectives and sources.",
        discussion: """
              lectern curriculum show philosophy             every unit and topic, with details
              lectern curriculum show philosophy --depth 1   only the units
              lectern curriculum show philosophy --json      the whole record
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The curriculum's name.", completion: Completions.curricula)
    var name: String

    @Option(help: "How deep to print: 1 units, 2 topics, 3 topics with objectives, key terms, sources and prerequisites (default 3).")
    var depth: Int = 3

    @Flag(help: "Print the whole curriculum as JSON.")
    var json = false

    func validate() throws {
        if depth < 1 { throw ValidationError("--depth must be at least 1") }
    }

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        guard let view = try Curricula.view(named: name, in: library) else {
            terminal.event(PipelineEvent(.failed, input: name, message: "no curriculum of this name (see `lectern curriculum list`)"))
            throw ExitCode(1)
        }
        if json {
            terminal.json(view)
            return
        }
        let pager = depth >= 3 ? Pager.start(terminal) : nil
        defer { pager?.finish() }
        let topics = view.units.reduce(0) { $0 + $1.topics.count }
        let minutes = view.units.reduce(0) { $0 + $1.studyMinutes }
        terminal.out(terminal.bold(view.title))
        terminal.out("\(view.name)  \(Plural.counted(view.units.count, "unit"))  \(Plural.counted(topics, "topic"))  \(Self.duration(minutes))  \(terminal.dim("updated " + view.updated))")
        for source in view.sources {
            terminal.out(terminal.dim("source: \(source.title) (\(source.type)) \(source.uri)\(source.licence.map { " — " + $0 } ?? "")"))
        }
        if let summary = view.summary, depth >= 3 {
            terminal.out("")
            terminal.outLines(summary, indent: "")
        }
        for (unitIndex, unit) in view.units.enumerated() {
            // A blank line sets each unit's topics apart; a list of units alone needs none
            // but the one under the header.
            if depth >= 2 || unitIndex == 0 { terminal.out("") }
            terminal.out(terminal.bold("\(unitIndex + 1). \(unit.title)") + "  " + terminal.dim(Self.duration(unit.studyMinutes)))
            guard depth >= 2 else { continue }
            for (topicIndex, topic) in unit.topics.enumerated() {
                terminal.out("   \(unitIndex + 1).\(topicIndex + 1) \(topic.title)  \(terminal.dim("\(Self.duration(topic.studyMinutes))  [\(topic.id)]"))")
                guard depth >= 3 else { continue }
                for objective in topic.objectives { terminal.out("        • \(objective)") }
                if !topic.summary.isEmpty {
                    terminal.out("        \(terminal.dim(Self.summaryLabel(topic.summaryOrigin)))")
                    terminal.outLines(topic.summary, indent: "          ")
                }
                if !topic.keyTerms.isEmpty { terminal.out("        \(terminal.dim("terms:")) \(topic.keyTerms.joined(separator: ", "))") }
                if !topic.prerequisites.isEmpty { terminal.out("        \(terminal.dim("builds on:")) \(topic.prerequisites.joined(separator: "; "))") }
                for source in topic.sources { terminal.out("        \(terminal.dim("from: " + source))") }
            }
        }
    }

    /// Whose words the summary is: the source's own, or Lectern's choice of the text's sentences.
    static func summaryLabel(_ origin: String) -> String {
        switch origin {
        case "source": "summary (the source's own):"
        case "model": "summary (written by the model):"
        default: "summary (sentences chosen from the text):"
        }
    }

    static func duration(_ minutes: Int) -> String {
        minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }
}

extension CurriculumShowCommand: SharesGlobalOptions {}
