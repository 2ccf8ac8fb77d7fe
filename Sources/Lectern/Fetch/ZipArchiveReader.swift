import CZLib
import Foundation

/// Unpacks a ZIP archive (stored and deflated entries) into a folder, refusing what an
/// untrusted archive could do harm with: paths that climb out of the folder, absolute paths,
/// encrypted entries, ZIP64 sizes, and zip bombs. Sizes are counted while inflating, a chunk at
/// a time straight to the file, never taken from the headers: an entry stops one chunk past
/// the size it states, past `maxEntryBytes`, or past `maxRatio` times its compressed size, and
/// the archive past `maxTotalBytes` (a 1.45 MB archive that inflated to 952 MiB took 1.98 GB of
/// memory and wrote it all before any reader looked).
enum ZipArchiveReader {
    static let maxTotalBytes = 1 << 30
    static let maxEntries = 100_000
    /// The most one entry may unpack to.
    static let maxEntryBytes = 256 << 20
    /// How many times its compressed size an entry may inflate to (text and markup inflate a
    /// few times, at most some tens; a bomb some hundreds to a thousand), above `ratioFloor`.
    static let maxRatio = 100
    /// Any entry may inflate to this much, whatever its ratio.
    static let ratioFloor = 1 << 20
    /// Inflated a chunk at a time.
    static let chunkBytes = 1 << 16

    static func unpack(_ data: Data, into folder: String, display: String) throws {
        let bytes = [UInt8](data)
        func u16(_ at: Int) throws -> Int {
            guard at >= 0, at + 2 <= bytes.count else { throw corrupt(display, "truncated") }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> Int {
            guard at >= 0, at + 4 <= bytes.count else { throw corrupt(display, "truncated") }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        // End of central directory: the last 0x06054b50 signature within 64 KiB of the end.
        var end = -1
        var position = bytes.count - 22
        while position >= max(0, bytes.count - 22 - 65_535) {
            if bytes[position] == 0x50, bytes[position + 1] == 0x4B, bytes[position + 2] == 0x05, bytes[position + 3] == 0x06 {
                end = position
                break
            }
            position -= 1
        }
        guard end >= 0 else { throw LecternError(.unsupported, display, "not a ZIP archive") }
        let entries = try u16(end + 10)
        let directoryOffset = try u32(end + 16)
        if entries == 0xFFFF || directoryOffset == 0xFFFF_FFFF {
            throw LecternError(.unsupported, display, "ZIP64 archives are not read")
        }
        guard entries <= maxEntries else { throw LecternError(.tooLarge, display, "over \(maxEntries) entries in the archive") }
        let root = URL(fileURLWithPath: folder).standardized.path
        var total = 0
        var cursor = directoryOffset
        for _ in 0..<entries {
            guard try u32(cursor) == 0x0201_4B50 else { throw corrupt(display, "bad central directory") }
            let flags = try u16(cursor + 8)
            let method = try u16(cursor + 10)
            let compressed = try u32(cursor + 20)
            let size = try u32(cursor + 24)
            let nameLength = try u16(cursor + 28)
            let extraLength = try u16(cursor + 30)
            let commentLength = try u16(cursor + 32)
            let localOffset = try u32(cursor + 42)
            guard cursor + 46 + nameLength <= bytes.count else { throw corrupt(display, "truncated") }
            let name = String(decoding: bytes[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            cursor += 46 + nameLength + extraLength + commentLength

            if flags & 1 != 0 { throw LecternError(.encrypted, display, "\(name) is encrypted") }
            if compressed == 0xFFFF_FFFF || size == 0xFFFF_FFFF { throw LecternError(.unsupported, display, "ZIP64 entries are not read") }
            let components = name.split(separator: "/", omittingEmptySubsequences: true)
            if name.hasPrefix("/") || name.contains("\\") || components.contains("..") {
                throw LecternError(.unsupported, display, "refused: entry \"\(name)\" points outside the archive's folder")
            }
            if name.hasSuffix("/") || components.isEmpty { continue }
            guard try u32(localOffset) == 0x0403_4B50 else { throw corrupt(display, "bad local header for \(name)") }
            let start = localOffset + 30 + (try u16(localOffset + 26)) + (try u16(localOffset + 28))
            guard start + compressed <= bytes.count else { throw corrupt(display, "truncated entry \(name)") }
            guard method == 0 || method == 8 else { throw LecternError(.unsupported, display, "\(name) uses compression method \(method)") }
            let target = URL(fileURLWithPath: root).appendingPathComponent(components.joined(separator: "/")).standardized.path
            guard target.hasPrefix(root + "/") else {
                throw LecternError(.unsupported, display, "refused: entry \"\(name)\" points outside the archive's folder")
            }
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: target, contents: nil), let file = FileHandle(forWritingAtPath: target) else {
                throw LecternError(.unreadable, display, "cannot write \(name) while unpacking")
            }
            defer { try? file.close() }
            let entry = Entry(name: name, start: start, compressed: compressed, stated: size)
            let written = try bytes.withUnsafeBufferPointer { archive in
                try write(entry, method: method, from: archive, to: file, unpackedSoFar: total, display: display)
            }
            total += written
        }
    }

    /// One entry as the central directory describes it.
    private struct Entry {
        var name: String
        /// Where its data starts in the archive, and how many bytes it takes there.
        var start: Int, compressed: Int
        /// The size the directory says it unpacks to (checked, not trusted).
        var stated: Int
    }

    /// Writes `entry` to `file`, inflating a chunk at a time and counting as it goes; returns the
    /// bytes written. Refused past a limit (`unpackedSoFar` is the archive's total before it).
    private static func write(_ entry: Entry, method: Int, from archive: UnsafeBufferPointer<UInt8>, to file: FileHandle,
                              unpackedSoFar: Int, display: String) throws -> Int {
        let limit = min(maxEntryBytes, max(ratioFloor, entry.compressed.multipliedReportingOverflow(by: maxRatio).partialValue))
        func tooLarge() -> LecternError {
            let reason = limit == maxEntryBytes ? "the most an entry may hold"
                : "over \(maxRatio) times its compressed \(byteSize(entry.compressed)) (a zip bomb)"
            return LecternError(.tooLarge, display, "refused: entry \"\(entry.name)\" inflates to over \(byteSize(limit)), \(reason)")
        }
        // An honest directory says so before anything is written; a lying one is caught below.
        if entry.stated > limit { throw tooLarge() }
        var produced = 0
        func take(_ chunk: UnsafeBufferPointer<UInt8>) throws {
            produced += chunk.count
            if produced > entry.stated {
                throw corrupt(display, "entry \(entry.name) inflates past its stated size of \(entry.stated) bytes")
            }
            if produced > limit { throw tooLarge() }
            if unpackedSoFar + produced > maxTotalBytes {
                throw LecternError(.tooLarge, display, "refused: the archive unpacks to over \(maxTotalBytes >> 20) MiB")
            }
            do {
                try file.write(contentsOf: UnsafeRawBufferPointer(chunk))
            } catch {
                throw LecternError(.unreadable, display, "cannot write \(entry.name) while unpacking: \(error.localizedDescription)")
            }
        }
        let input = UnsafeBufferPointer(rebasing: archive[entry.start..<(entry.start + entry.compressed)])
        guard method == 8 else {
            // Stored: its bytes are in the archive already; a chunk at a time all the same.
            var offset = 0
            while offset < input.count {
                let end = min(offset + chunkBytes, input.count)
                try take(UnsafeBufferPointer(rebasing: input[offset..<end]))
                offset = end
            }
            guard produced == entry.stated else { throw corrupt(display, "entry \(entry.name) does not match its stated size") }
            return produced
        }
        var stream = z_stream()
        guard lectern_inflate_init_raw(&stream) == Z_OK else { throw corrupt(display, "zlib could not start") }
        defer { inflateEnd(&stream) }
        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        while true {
            let (status, got) = buffer.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = CZLib.inflate(&stream, Z_NO_FLUSH)
                return (status, out.count - Int(stream.avail_out))
            }
            if got > 0 { try buffer.withUnsafeBufferPointer { try take(UnsafeBufferPointer(rebasing: $0[..<got])) } }
            if status == Z_STREAM_END { break }
            // Z_BUF_ERROR with no input left: the data ends before its stream does.
            guard status == Z_OK, got > 0 || stream.avail_in > 0 else {
                throw corrupt(display, "entry \(entry.name) does not inflate to its stated size")
            }
        }
        guard produced == entry.stated else { throw corrupt(display, "entry \(entry.name) does not inflate to its stated size") }
        return produced
    }

    /// `1 MiB`, `12 KiB`, `300 bytes`: sizes in messages.
    private static func byteSize(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    private static func corrupt(_ display: String, _ reason: String) -> LecternError {
        LecternError(.corrupt, display, "damaged ZIP archive: \(reason)")
    }
}
