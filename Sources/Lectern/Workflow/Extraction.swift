import Foundation

/// One document `lectern extract` read, as the reader made it.
public struct ReadDocument: Sendable {
    /// The input as the user named it (relative to the working folder).
    public var input: String
    /// The reader chosen by content.
    public var reader: String
    public var document: ExtractedDocument
    /// The command line named this one document (one file, or a folder read as one, like a
    /// book); otherwise it is one of several (a folder of files, a glob), however many there are.
    public var alone: Bool
}

/// What `lectern extract` did.
public struct ExtractionResult: Sendable, BatchOutcome {
    var read = 0
    public var failed = 0
    /// Files of a shape no reader knows, met while walking a folder (a warning each).
    var skipped = 0
    public var stopped: BatchStop?
    /// Files and folders that folder walks left out by ignore rules.
    public var leftOut = 0
    public var foldersLeftOut = 0
}

/// Reads files, folders and globs into typed blocks without a library: what ingest would store.
/// A bad input is a `failed` event and the others go on.
public struct Extraction: Sendable {
    var reader: DocumentReader
    /// Checked between inputs.
    public var cancellation: Cancellation?
    /// What a folder walk takes (ignore rules, --include/--exclude).
    public var selection = InputSelection()
    /// Passwords per file (`--password-file`), before the options' one password.
    public var passwords: PasswordFile? {
        get { reader.passwords }
        set { reader.passwords = newValue }
    }

    public init(registry: ReaderRegistry = .standard, options: ExtractOptions = ExtractOptions()) {
        reader = DocumentReader(registry: registry, options: options)
    }

    /// Reads every input in order, handing each document to `each` as soon as it is read.
    public func run(_ paths: [String], events: EventHandler, each: (ReadDocument) -> Void) -> ExtractionResult {
        var result = ExtractionResult()
        var reader = self.reader
        reader.cancellation = cancellation
        let advice = RunAdvice()
        let expansion = InputExpander(registry: reader.registry, selection: selection).walk(paths)
        let (items, missing) = (expansion.items, expansion.failures)
        result.failed = missing.count
        for error in missing {
            events(PipelineEvent(.failed, input: error.subject, message: error.reason))
        }
        for left in expansion.leftOut {
            if left.isDirectory { result.foldersLeftOut += 1 } else { result.leftOut += 1 }
            events(PipelineEvent(.leftOut, input: left.display + (left.isDirectory ? "/" : ""), message: left.rule))
        }
        // One argument that names one document (a file, or a folder read as one, like a book)
        // prints one document without its name; a folder of files or a glob can give several.
        let alone = paths.count == 1 && missing.isEmpty && items.count == 1
            && items[0].path == Configuration.resolvePath(paths[0], base: nil)
        for item in items {
            if cancellation?.isCancelled == true {
                result.stopped = .interrupted
                break
            }
            do {
                let input = try reader.load(item)
                var (extractor, document) = try reader.extract(input, display: item.display)
                if document.title.isEmpty { document.title = TextCleanup.titleFromPath(item.display) }
                advice.events(for: document.warnings, input: item.display).forEach(events)
                each(ReadDocument(input: item.display, reader: extractor.name, document: document, alone: alone))
                result.read += 1
            } catch let stop where BatchStop.of(stop) == .interrupted {
                // A signal stopped the document in hand between its pages or modules.
                result.stopped = .interrupted
                break
            } catch let lectern as LecternError where lectern.code == .unknownShape && item.foundInFolder && selection.useDefaultIgnore {
                // On the default ignore list, as in ingest.
                result.leftOut += 1
                events(PipelineEvent(.leftOut, input: item.display, message: InputSelection.unrecognisedJSON + " (" + InputSelection.defaultOrigin + ")"))
            } catch let lectern as LecternError where lectern.code == .unknownShape && item.foundInFolder {
                // Met while walking a folder: passed over, as ingest does.
                result.skipped += 1
                events(PipelineEvent(.warning, input: lectern.subject ?? item.display, message: "skipped: " + lectern.reason))
            } catch {
                result.failed += 1
                let lectern = error as? LecternError ?? LecternError(.corrupt, item.display, "\(error)")
                events(PipelineEvent(.failed, input: lectern.subject ?? item.display, line: lectern.line, message: lectern.reason))
            }
        }
        return result
    }
}
