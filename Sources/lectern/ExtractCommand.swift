import ArgumentParser
import Foundation
import Lectern

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print the typed blocks of files without storing them (what ingest would read).",
        discussion: """
            Takes files, folders (read recursively) and glob patterns, like ingest. Text \
            gives each file a header line, then its blocks. With --json one file is one \
            JSON object; several files, a folder or a glob give JSON lines, one document \
            a line with its "input" and "reader". A file that cannot be read is one line \
            on stderr, the others go on, and the exit status is 1. Exit statuses are \
            ingest's: 0 all read (a warning, such as a page without a text layer, included), \
            1 some failed, 2 usage error, 130 / 143 stopped by SIGINT / SIGTERM.

              lectern extract notes/cells.md
              lectern extract lecture.pdf --json
              lectern extract notes/ slides/*.pdf --json
            """ + "\n\n" + InputSelectionOptions.discussion)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files, folders (read recursively) and glob patterns.", completion: .file())
    var paths: [String]

    @OptionGroup var selection: InputSelectionOptions

    @OptionGroup var reading: ReadingOptions

    @Flag(help: "Print JSON: one object for one file, JSON lines (one document a line) for several.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file, folder or glob") }
    }

    func run() throws {
        let terminal = global.terminal()
        var extraction = Extraction(options: reading.extractOptions(try global.configuration()))
        extraction.passwords = try reading.passwords()
        extraction.cancellation = StopSignals.cancellation
        extraction.selection = selection.selection
        var printed = 0
        let result = extraction.run(paths, events: { terminal.event($0) }) { read in
            if read.alone {
                show(read, on: terminal)
            } else {
                show(read, separated: printed > 0, on: terminal)
            }
            printed += 1
        }
        if let leftOut = InputSelectionOptions.leftOutLine(files: result.leftOut, folders: result.foldersLeftOut) {
            terminal.aside(leftOut)
        }
        if result.stopped == .interrupted, let exit = StopSignals.interruptedExit {
            terminal.note(StopSignals.cancellation.reason)
            throw exit
        }
        if result.failed > 0 { throw ExitCode(1) }
    }

    /// One document named alone: the whole document as one JSON object, or its title line and blocks.
    func show(_ read: ReadDocument, on terminal: Terminal) {
        if json {
            terminal.json(read.document)
            return
        }
        terminal.out(terminal.bold(read.document.title) + terminal.dim("  (\(read.document.type), read by \(read.reader))"))
        printBlocks(read.document, on: terminal)
    }

    /// One of several: a JSON line naming the input, or a header line naming the file.
    func show(_ read: ReadDocument, separated: Bool, on terminal: Terminal) {
        if json {
            terminal.jsonLine(ExtractedFile(input: read.input, reader: read.reader, document: read.document))
            return
        }
        if separated { terminal.out("") }
        terminal.out(terminal.bold("\(read.input): \(read.document.title)") + terminal.dim("  (\(read.document.type), read by \(read.reader))"))
        printBlocks(read.document, on: terminal)
    }

    func printBlocks(_ document: ExtractedDocument, on terminal: Terminal) {
        for block in document.blocks {
            var place = block.page.map { "p.\($0) " } ?? ""
            // Read with OCR: said, with Tesseract's confidence, so a doubtful word can be checked.
            if let confidence = block.ocrConfidence { place += "ocr \(Int(confidence.rounded()))% " }
            if let start = block.start { place += "@\(TimeFormat.clock(start)) " }
            if let speaker = block.speaker, block.kind == .cue { place += "\(speaker) " }
            terminal.out(terminal.dim("\(place)\(block.kind.rawValue)\(block.level.map { "/\($0)" } ?? "")") + "  \(block.text)")
        }
    }
}

extension ExtractCommand: SharesGlobalOptions, StopsAtDocumentBoundaries {}

/// A JSON line of `extract`: the document's own fields plus the input it came from and the
/// reader that read it.
struct ExtractedFile: Encodable {
    var input: String
    var reader: String
    var document: ExtractedDocument

    enum CodingKeys: String, CodingKey {
        case input, reader
    }

    func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encode(reader, forKey: .reader)
    }
}
