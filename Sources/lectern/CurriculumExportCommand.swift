import ArgumentParser
import Foundation
import Lectern

struct CurriculumExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a curriculum as UMCF (for the UnaMentis tutoring app), a Markdown syllabus, or JSON.",
        discussion: """
            UMCF is the curriculum format of the UnaMentis tutoring app (a plain JSON `.umcf` \
            file): units and topics, each topic's passages as what the tutor speaks, its \
            objectives, key terms, study time, and where every passage comes from. Markdown is a \
            syllabus to read; JSON is Lectern's own complete record. Exporting an unchanged \
            curriculum again gives the same bytes, and topic and objective ids stay the same \
            across rebuilds, so a tutoring app replaces rather than duplicates them.

              lectern curriculum export philosophy -o philosophy.umcf
              lectern curriculum export philosophy -o syllabus.md
              lectern curriculum export philosophy --format json -o - | jq .curriculum.title
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The curriculum's name (as `lectern curriculum list` shows it).")
    var name: String

    @Option(help: "umcf, md or json; guessed from the -o file's extension when not given.")
    var format: CurriculumExportFormat?

    @Option(name: [.short, .customLong("output")], help: "The file to write; - (or none) writes to standard output.")
    var output: String?

    /// Writing to standard output: no `-o`, or `-o -`.
    private var toStandardOutput: Bool { output == nil || output == "-" }

    func validate() throws {
        guard format == nil else { return }
        guard let output, output != "-" else {
            throw ValidationError("give --format umcf, md or json when writing to standard output")
        }
        guard CurriculumExportFormat(fileName: output) != nil else {
            throw ValidationError("cannot tell the format from '\(output)': give --format umcf, md or json, or name the file .umcf, .md or .json")
        }
    }

    func run() throws {
        // Refused before the library is opened: `--format md -o x.umcf` is a slip, not a wish.
        if let format, let output { try OutputFile.checkFormat(output, format: format.rawValue) }
        let (_, terminal, library) = try global.openLibraryForReading()
        guard let chosen = format ?? output.flatMap(CurriculumExportFormat.init(fileName:)) else {
            throw ValidationError("give --format umcf, md or json")
        }
        if let output, !toStandardOutput { try library.protectedPaths.check(output) }
        let result = try CurriculumExport(library: library).export(curriculumNamed: name, format: chosen)
        try OutputFile.write(result.data, to: output ?? "-")
        guard let output, !OutputFile.isStandardOutput(output) else { return }
        let size = FileSizeText.of(Int64(result.data.count))
        terminal.out("\(result.title): \(result.units) unit\(result.units == 1 ? "" : "s"), \(result.topics) topic\(result.topics == 1 ? "" : "s") → \(output) (\(chosen.rawValue), \(size))")
    }
}

extension CurriculumExportFormat: ExpressibleByArgument {
    public init?(argument: String) {
        let name = argument.lowercased()
        if name == "markdown" { self = .markdown } else { self.init(rawValue: name) }
    }
}

extension CurriculumExportCommand: SharesGlobalOptions {}
