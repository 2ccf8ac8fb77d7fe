import Foundation

/// Reads sources into extracted documents without a library: loading bytes with size and
/// permission checks, then picking the reader by content. `ingest` and `extract` share it, so
/// `lectern extract` shows exactly what ingest would store.
struct DocumentReader: Sendable {
    var registry: ReaderRegistry
    var options: ExtractOptions
    /// Files larger than this are refused before reading.
    var maxFileBytes: Int = 1 << 30
    /// Passwords per file (`--password-file`); `options.password` is for the files it does not name.
    var passwords: PasswordFile?
    /// Handed to the readers, which check it between pages and modules.
    var cancellation: Cancellation?

    init(registry: ReaderRegistry = .standard, options: ExtractOptions = ExtractOptions()) {
        self.registry = registry
        self.options = options
    }

    /// A source ready to be read: what the reader sees (a ZIP's unpacked folder, which lives as
    /// long as this value) and the reader chosen for it, once for all its documents.
    struct OpenedSource {
        let input: SourceInput
        let reader: any Extractor
        let archive: ArchiveSource?
    }

    /// Reads one file or folder into a `SourceInput`.
    func load(_ item: InputExpander.Item) throws -> SourceInput {
        let uri = "file://" + item.path
        if item.isDirectory {
            return SourceInput(uri: uri, path: item.path, isDirectory: true, options: options(for: item))
        }
        var status = stat()
        guard stat(item.path, &status) == 0 else {
            throw LecternError(.notFound, item.display, "no such file or directory")
        }
        // Opening a FIFO would wait for a writer, and a device never ends: say what it is instead.
        if let kind = Self.specialFileKind(status.st_mode) {
            throw LecternError(.unsupported, item.display, "\(kind), not a regular file: Lectern reads files and folders")
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: item.path)
        } catch {
            throw LecternError(.notFound, item.display, "no such file or directory")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > maxFileBytes {
            throw LecternError(.tooLarge, item.display, "file is \(size >> 20) MiB, over the \(maxFileBytes >> 20) MiB limit")
        }
        guard FileManager.default.isReadableFile(atPath: item.path) else {
            throw LecternError(.unreadable, item.display, "permission denied")
        }
        // Binary bytes no reader knows (a sparse file of NULs, a disk image) are refused from the
        // first of them: reading a 1 GiB file whole cost 1 GiB before the same refusal.
        if size > Self.headBytes, let head = FileHandle(forReadingAtPath: item.path).flatMap({ file in
            defer { try? file.close() }
            return try? file.read(upToCount: Self.headBytes)
        }), !recognisesBinary(head, path: item.path) {
            throw LecternError(.unsupported, item.display, "binary data that no reader understands")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: item.path), options: .mappedIfSafe)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw LecternError(.unreadable, item.display, "cannot read: \(reason)")
        }
        if data.isEmpty { throw LecternError(.empty, item.display, "empty file") }
        return SourceInput(uri: uri, path: item.path, data: data, options: options(for: item))
    }

    /// The bytes a file's kind is told from before it is read whole.
    static let headBytes = 8192

    /// False for `head` (a file's first bytes) when they are binary and no reader claims them by
    /// their magic bytes (a PDF's, a ZIP's); text is for the readers to judge on the whole file.
    func recognisesBinary(_ head: Data, path: String) -> Bool {
        guard TextDecoding.looksBinary(head) else { return true }
        if ArchiveSource.isZip(head) { return true }
        let input = SourceInput(uri: "file://" + path, path: path, data: head)
        return registry.extractors.contains { $0.confidence(for: input) > 0 }
    }

    /// What a file that is neither a regular file nor a folder is, for messages.
    static func specialFileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return nil
        }
    }

    /// Unpacks a ZIP into the folder it holds and chooses the reader by content.
    func open(_ input: SourceInput, display: String) throws -> OpenedSource {
        let archive = try ArchiveSource.unpack(input, display: display)
        let whole = archive?.input ?? input
        do {
            return OpenedSource(input: whole, reader: try registry.reader(for: whole), archive: archive)
        } catch var error as LecternError {
            error.subject = display
            throw error
        }
    }

    /// Reads one document of an opened source with the reader chosen for it, within the
    /// bounds every reader's output keeps (`OutputBounds`).
    func read(_ input: SourceInput, with reader: any Extractor, display: String) throws -> ExtractedDocument {
        var input = input
        input.stop = cancellation
        do {
            return try OutputBounds.apply(to: try reader.extract(input), inputBytes: Self.size(of: input), name: display)
        } catch var error as LecternError {
            if error.subject == nil || error.subject == input.path || error.subject == input.uri { error.subject = display }
            throw error
        } catch {
            throw LecternError(.corrupt, display, "\(error)")
        }
    }

    /// The bytes a source holds: a file's, or those of every file in a folder.
    static func size(of input: SourceInput) -> Int {
        guard input.isDirectory, let root = input.path else { return input.data.count }
        var total = 0
        let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            total += values.fileSize ?? 0
        }
        return total
    }

    /// Picks the reader by content and extracts: exactly what `lectern extract` shows.
    func extract(_ input: SourceInput, display: String) throws -> (reader: any Extractor, document: ExtractedDocument) {
        let source = try open(input, display: display)
        return try withExtendedLifetime(source) {
            (source.reader, try read(source.input, with: source.reader, display: display))
        }
    }
}

/// Readers check a stop through the Model's `StopCheck`: a signal stops a long PDF or book
/// between its pages or modules.
extension Cancellation: StopCheck {}
