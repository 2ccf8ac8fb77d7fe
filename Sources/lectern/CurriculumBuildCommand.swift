import ArgumentParser
import Foundation
import Lectern

struct CurriculumBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build (or rebuild) a curriculum from documents in the library.",
        discussion: """
            SOURCE is what `show` and `rm` take: a path (a folder takes everything under it), a \
            URI, a document id, or a quoted glob. Several documents give one unit each, in name \
            order (numbers in names as numbers: lecture-2 before lecture-10), or as --order \
            says. Rebuilding with unchanged sources writes nothing; after a source changes (and \
            is ingested again), only the topics drawing on it are made again; without SOURCE an \
            existing curriculum is rebuilt from its own sources. Summaries come from \
            the language model when one is configured, else from the offline method.

              lectern curriculum build philosophy ~/books/introduction-philosophy
              lectern curriculum build biology notes/ lectures/ --title "Cell biology"
              lectern curriculum build biology      # again, after its sources changed
              lectern curriculum build calculus notes/ --order dependencies
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup(title: "Language model") var llm: LLMOptions

    @Argument(help: "The curriculum's name (what list, show, export and rm call it).", completion: Completions.curricula)
    var name: String

    @Argument(help: "Documents to build from: paths, folders, URIs, document ids or quoted globs (none: an existing curriculum's own sources).", completion: .file())
    var sources: [String] = []

    @Flag(help: "Build from every document in the library.")
    var all = false

    @Option(help: "The curriculum's title (default: the only source's title, else the name).")
    var title: String?

    @Option(help: ArgumentHelp("The order of the sources: name (numbers in names as numbers), given (as named here), or dependencies (by name, then a source that defines a term before those that use it). Default: name; a rebuild without SOURCE keeps the curriculum's order.", valueName: "name|given|dependencies"))
    var order: CurriculumOrder?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the curriculum's name is empty") }
        if let title, title.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--title is empty") }
    }

    func run() throws {
        let configuration = try global.configuration(flags: llm.flags)
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        let recorder = try global.startRun(library, command: "curriculum build")
        terminal.event(PipelineEvent(.runStarted, run: recorder.id))
        let result = try recorder.run { () throws -> CurriculumBuildResult in
            var builder = try LibraryServices(configuration: configuration, library: library, recorder: recorder).curriculumBuilder()
            builder.order = order
            return try builder.build(name: name, title: title, sources: sources, all: all, recorder: recorder) { terminal.event($0) }
        }
        terminal.finishProgress()
        terminal.event(PipelineEvent(.runFinished, counts: recorder.snapshot, run: recorder.id))
        if json {
            terminal.json(result)
        } else if result.unchanged {
            terminal.out("\(name): unchanged (\(Plural.counted(result.units, "unit")), \(Plural.counted(result.topics, "topic")))")
        } else {
            var line = "\(name): \(Plural.counted(result.units, "unit")), \(Plural.counted(result.topics, "topic")) from \(Plural.counted(result.sources, "source"))"
            line += " (\(result.rebuiltTopics) made, \(result.keptTopics) kept"
            if result.mergedTopics > 0 { line += ", \(result.mergedTopics) joined across sources" }
            line += ")"
            terminal.out(TerminalText(line))
        }
        if !result.notFound.isEmpty { throw ExitCode(1) }
    }
}

extension CurriculumBuildCommand: SharesGlobalOptions {}

extension CurriculumOrder: ExpressibleByArgument {}
