import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The passages' int8 codes in a file beside the library (`lectern.db-vectors`), which a semantic
/// search maps into memory and scans in place instead of copying them out of SQLite: a cache
/// derived from the library, never its record. It may be deleted at any time, like `-wal` and
/// `-shm`; a sidecar that is missing, stale, of another library, truncated or unreadable is never
/// read (the search scans the library as without one, and writes a new sidecar when it may).
///
/// Layout (little-endian): the magic `LCTNVECS`, the format version (UInt32), the header's length
/// (UInt32) and the header as JSON (`Header`: the library's identity, its vector generation, the
/// file's size, and per vector set, embedder and dimension the rows and where each array lies),
/// all within the first `dataStart` bytes; then each section's arrays, each 64-byte aligned: the
/// rows' ids (Int64), scales (Float32), codes (Int8, `dimension` a row), and the float32 blocks
/// the rows come from (block ids, and each block's first row: Int64, one more than the blocks).
enum VectorSidecar {
    static let magic = Array("LCTNVECS".utf8)
    static let version: UInt32 = 1
    /// Where the arrays begin: the header (a few hundred bytes of JSON) fits before.
    static let dataStart = 4096
    static let alignment = 64
    static func path(library: String) -> String { library + "-vectors" }
    static func temporaryPath(library: String) -> String { path(library: library) + ".tmp" }

    /// What the library says now: a sidecar is read only when its header says the same.
    struct Key: Equatable, Sendable {
        var library: String
        var generation: String
    }

    struct Header: Codable, Equatable, Sendable {
        var library: String
        var generation: String
        /// The whole file's size: a shorter file (a copy cut short) is not read.
        var bytes: Int
        var sections: [Section]
    }

    /// One vector set's rows of one embedder, and the byte offsets of its arrays.
    struct Section: Codable, Equatable, Sendable {
        var set: String
        var embedder: String
        var dimension: Int
        var count: Int
        var blocks: Int
        var ids: Int
        var scales: Int
        var codes: Int
        var blockIds: Int
        var blockStarts: Int

        /// Each array's offset and length in bytes.
        var arrays: [(offset: Int, bytes: Int)] {
            [(ids, count * 8), (scales, count * 4), (codes, count * dimension), (blockIds, blocks * 8), (blockStarts, (blocks + 1) * 8)]
        }
    }

    /// A header for these sections with their arrays laid out one after another.
    static func layout(key: Key, sections: [(set: VectorSet, embedder: String, dimension: Int, count: Int, blocks: Int)]) -> Header {
        var next = dataStart
        func place(_ bytes: Int) -> Int {
            let offset = next
            next += (bytes + alignment - 1) / alignment * alignment
            return offset
        }
        let laid = sections.map { section in
            Section(set: section.set.rawValue, embedder: section.embedder, dimension: section.dimension, count: section.count,
                    blocks: section.blocks, ids: place(section.count * 8), scales: place(section.count * 4),
                    codes: place(section.count * section.dimension), blockIds: place(section.blocks * 8),
                    blockStarts: place((section.blocks + 1) * 8))
        }
        return Header(library: key.library, generation: key.generation, bytes: next, sections: laid)
    }

    /// The header of the file open at `descriptor`, when it is a sidecar this Lectern reads and
    /// its arrays lie within `size` bytes; nil for anything else.
    static func header(descriptor: Int32, size: Int) -> Header? {
        guard size >= dataStart else { return nil }
        var start = [UInt8](repeating: 0, count: 16)
        guard pread(descriptor, &start, 16, 0) == 16, Array(start[0..<8]) == magic else { return nil }
        let version = start[8..<12].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let length = Int(start[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard version == Self.version, length > 0, 16 + length <= dataStart else { return nil }
        var json = [UInt8](repeating: 0, count: length)
        guard pread(descriptor, &json, length, 16) == length,
              let header = try? JSONDecoder().decode(Header.self, from: Data(json)), header.bytes == size else { return nil }
        for section in header.sections {
            // Bounded before any product of them is taken (a damaged header must not trap).
            guard (0...size).contains(section.count), (0...size).contains(section.blocks), (1...65_536).contains(section.dimension) else { return nil }
            for array in section.arrays where array.offset < dataStart || array.offset > size || array.offset % alignment != 0
                || array.bytes > size - array.offset {
                return nil
            }
        }
        return header
    }

    /// The header's first bytes: magic, version, length, JSON.
    static func encoded(_ header: Header) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(header), 16 + json.count <= dataStart else { return nil }
        func little(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return magic + little(version) + little(UInt32(json.count)) + Array(json)
    }
}

/// A sidecar mapped read-only into this process: its pages are the file's pages in the kernel's
/// page cache, shared by every process that searches the library.
// Safe: the mapping is read-only, and a sidecar is never written in place (a new one replaces it
// by rename, so these pages stay those of the file that was opened); unmapped in `deinit`.
final class VectorSidecarMapping: @unchecked Sendable {
    let base: UnsafeRawPointer
    let length: Int
    let header: VectorSidecar.Header

    private init(base: UnsafeRawPointer, length: Int, header: VectorSidecar.Header) {
        self.base = base
        self.length = length
        self.header = header
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }

    /// The sidecar at `path` when it is whole and says `key`; nil when it is missing, stale, of
    /// another library or unreadable. `populate`: map every page now (`MAP_POPULATE`) rather
    /// than as the scan first touches it.
    static func open(_ path: String, key: VectorSidecar.Key, populate: Bool = false) -> VectorSidecarMapping? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, let header = VectorSidecar.header(descriptor: descriptor, size: Int(status.st_size)),
              header.library == key.library, header.generation == key.generation else { return nil }
        let flags = MAP_SHARED | (populate ? MAP_POPULATE : 0)
        guard let mapped = mmap(nil, header.bytes, PROT_READ, flags, descriptor, 0), mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            return nil
        }
        // Read ahead: a scan reads every code, in order.
        _ = madvise(mapped, header.bytes, MADV_WILLNEED)
        return VectorSidecarMapping(base: UnsafeRawPointer(mapped), length: header.bytes, header: header)
    }

    /// The section of `set` from `embedder`, as the compact vectors a search scans (they point
    /// into this mapping and keep it alive).
    func vectors(_ set: VectorSet, embedder: EmbedderInfo) -> CompactVectors? {
        guard let section = header.sections.first(where: { $0.set == set.rawValue && $0.embedder == embedder.key && $0.dimension == embedder.dimension })
        else { return nil }
        let blockIds = Array(UnsafeBufferPointer(start: (base + section.blockIds).assumingMemoryBound(to: Int64.self), count: section.blocks))
        let blockStarts = UnsafeBufferPointer(start: (base + section.blockStarts).assumingMemoryBound(to: Int64.self), count: section.blocks + 1)
            .map { Int($0) }
        // Block starts that do not rise to the row count are a damaged file.
        guard blockStarts.first == 0, blockStarts.last == section.count, zip(blockStarts, blockStarts.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            return nil
        }
        return CompactVectors(mapping: self, section: section, blockIds: blockIds, blockStarts: Array(blockStarts.dropLast()))
    }
}

/// Writes a sidecar into `<sidecar>.tmp` and moves it into place (fsync, then rename: a reader
/// sees the old file or the new one whole). One writer at a time: the temporary file is locked
/// (`flock`), and a process that finds it locked leaves the writing to the other.
final class VectorSidecarWriter {
    let header: VectorSidecar.Header
    private let library: String
    private var descriptor: Int32
    /// A write failed (a full disk): the file is not moved into place.
    private(set) var failed = false

    /// Nil when another process is writing the sidecar or the folder cannot be written.
    init?(library: String, header: VectorSidecar.Header) {
        guard let start = VectorSidecar.encoded(header) else { return nil }
        let temporary = VectorSidecar.temporaryPath(library: library)
        let descriptor = Glibc.open(temporary, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        // Locked, and still the file of that name (a writer that renamed it away had it locked).
        var opened = stat(), named = stat()
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &opened) == 0, stat(temporary, &named) == 0,
              opened.st_ino == named.st_ino, opened.st_dev == named.st_dev,
              ftruncate(descriptor, 0) == 0, ftruncate(descriptor, off_t(header.bytes)) == 0,
              pwrite(descriptor, start, start.count, 0) == start.count else {
            close(descriptor)
            return nil
        }
        self.library = library
        self.header = header
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { abandon() }
    }

    /// Rows `first..<first + vectors.count` of section `index`, from a streamed scan's chunk.
    func write(section index: Int, rowsFrom first: Int, _ vectors: CompactVectors) {
        let section = header.sections[index]
        let rows = vectors.count
        put(UnsafeRawPointer(vectors.ids.baseAddress!), rows * 8, at: section.ids + first * 8)
        put(UnsafeRawPointer(vectors.scales.baseAddress!), rows * 4, at: section.scales + first * 4)
        put(UnsafeRawPointer(vectors.codes.baseAddress!), rows * section.dimension, at: section.codes + first * section.dimension)
    }

    /// Section `index`'s float32 blocks and the row each begins at.
    func writeBlocks(section index: Int, blockIds: [Int64], blockStarts: [Int]) {
        let section = header.sections[index]
        blockIds.withUnsafeBytes { put($0.baseAddress!, $0.count, at: section.blockIds) }
        (blockStarts.map(Int64.init) + [Int64(section.count)]).withUnsafeBytes { put($0.baseAddress!, $0.count, at: section.blockStarts) }
    }

    private func put(_ bytes: UnsafeRawPointer, _ count: Int, at offset: Int) {
        guard !failed, count > 0 else { return }
        var done = 0
        while done < count {
            let wrote = pwrite(descriptor, bytes + done, count - done, off_t(offset + done))
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else {
                failed = true
                return
            }
            done += wrote
        }
    }

    /// Moves the file into place once it is on disk; false (and nothing moved) after a failure.
    @discardableResult
    func commit() -> Bool {
        defer { descriptor = -1 }
        guard !failed, fsync(descriptor) == 0,
              rename(VectorSidecar.temporaryPath(library: library), VectorSidecar.path(library: library)) == 0 else {
            abandon()
            return false
        }
        OutputFile.syncFolder((library as NSString).deletingLastPathComponent)
        close(descriptor)
        return true
    }

    /// Removes the unfinished file (this writer holds its lock, so it is still ours).
    func abandon() {
        guard descriptor >= 0 else { return }
        unlink(VectorSidecar.temporaryPath(library: library))
        close(descriptor)
        descriptor = -1
    }
}
