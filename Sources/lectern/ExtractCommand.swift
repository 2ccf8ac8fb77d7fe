import ArgumentParser
import Foundation
import Lectern

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print the typed blocks of files without storing them (what ingest would read).",
        discussion: """
            Takes files, folders (read recursively) and glob patterns, like ingest. Text
            gives each file a header line, then its blocks. With --json one file is one
            JSON object; several files, a folder or a glob give JSON lines, one document
            a line with its "input" and "reader". A file that cannot be read is one line
            on stderr, the others go on, and the exit status is 1.

              lectern extract notes/cells.md
              lectern extract lecture.pdf --json
              lectern extract notes/ slides/*.pdf --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files, folders (read recursively) and glob patterns.")
    var paths: [String]

    @Option(help: "Password for encrypted PDFs.")
    var password: String?

    @Option(help: "The encoding of text files when it is not recognised: utf-8, or windows-1252 (latin-1). Without it, text that is not UTF-8 but reads as Windows-1252 is read as such, with a warning.")
    var encoding: TextEncoding?

    @Flag(help: "Print JSON: one object for one file, JSON lines (one document a line) for several.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file, folder or glob") }
    }

    func run() throws {
        let terminal = global.terminal()
        let (items, missing) = InputExpander(registry: .standard).expand(paths)
        var failed = missing.count
        for error in missing {
            terminal.event(PipelineEvent(.failed, input: error.subject, message: error.reason))
        }
        // One argument that names one document (a file, or a folder read as one, like a book)
        // prints one document without its name; a folder of files or a glob can give several,
        // so each is printed with its name, however many there turn out to be.
        let single = paths.count == 1 && missing.isEmpty && items.count == 1
            && items[0].path == Configuration.resolvePath(paths[0], base: nil)
        let documents = DocumentReader(options: ExtractOptions(password: password, encoding: encoding))
        var printed = 0
        for item in items {
            do {
                let input = try documents.load(item)
                var (reader, document) = try documents.extract(input, display: item.display)
                if document.title.isEmpty { document.title = TextCleanup.titleFromPath(item.display) }
                for warning in document.warnings {
                    terminal.event(PipelineEvent(.warning, input: item.display, line: warning.line, message: warning.message))
                }
                if single {
                    show(document, reader: reader, on: terminal)
                } else {
                    show(document, reader: reader, input: item.display, separated: printed > 0, on: terminal)
                }
                printed += 1
            } catch let lectern as LecternError where lectern.code == .unknownShape && item.foundInFolder {
                // Met while walking a folder: passed over, as ingest does.
                terminal.event(PipelineEvent(.warning, input: lectern.subject ?? item.display, message: "skipped: " + lectern.reason))
            } catch {
                failed += 1
                let lectern = error as? LecternError ?? LecternError(.corrupt, item.display, "\(error)")
                terminal.event(PipelineEvent(.failed, input: lectern.subject ?? item.display, line: lectern.line, message: lectern.reason))
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// One file: the whole document as one JSON object, or its title line and blocks.
    func show(_ document: ExtractedDocument, reader: any Extractor, on terminal: Terminal) {
        if json {
            terminal.json(document)
            return
        }
        terminal.out(terminal.bold(document.title) + terminal.dim("  (\(document.type), read by \(reader.name))"))
        printBlocks(document, on: terminal)
    }

    /// One of several files: a JSON line naming the input, or a header line naming the file.
    func show(_ document: ExtractedDocument, reader: any Extractor, input: String, separated: Bool, on terminal: Terminal) {
        if json {
            terminal.jsonLine(ExtractedFile(input: input, reader: reader.name, document: document))
            return
        }
        if separated { terminal.out("") }
        terminal.out(terminal.bold("\(input): \(document.title)") + terminal.dim("  (\(document.type), read by \(reader.name))"))
        printBlocks(document, on: terminal)
    }

    func printBlocks(_ document: ExtractedDocument, on terminal: Terminal) {
        for block in document.blocks {
            var place = block.page.map { "p.\($0) " } ?? ""
            if let start = block.start { place += "@\(TimeFormat.clock(start)) " }
            if let speaker = block.speaker, block.kind == .cue { place += "\(speaker) " }
            terminal.out(terminal.dim("\(place)\(block.kind.rawValue)\(block.level.map { "/\($0)" } ?? "")") + "  " + block.text)
        }
    }
}

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
