import CZLib
import Foundation

/// Unpacks a ZIP archive (stored and deflated entries) into a folder, refusing what an
/// untrusted archive could do harm with: paths that climb out of the folder, absolute paths,
/// encrypted entries, ZIP64 sizes, and more than `maxTotalBytes` unpacked (zip bombs).
enum ZipArchiveReader {
    static let maxTotalBytes = 1 << 30
    static let maxEntries = 100_000

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
            total += size
            if total > maxTotalBytes {
                throw LecternError(.tooLarge, display, "refused: the archive unpacks to over \(maxTotalBytes >> 20) MiB")
            }
            guard try u32(localOffset) == 0x0403_4B50 else { throw corrupt(display, "bad local header for \(name)") }
            let start = localOffset + 30 + (try u16(localOffset + 26)) + (try u16(localOffset + 28))
            guard start + compressed <= bytes.count else { throw corrupt(display, "truncated entry \(name)") }
            let content: [UInt8]
            switch method {
            case 0: content = Array(bytes[start..<(start + compressed)])
            case 8: content = try inflate(bytes, start: start, count: compressed, size: size, name: name, display: display)
            default: throw LecternError(.unsupported, display, "\(name) uses compression method \(method)")
            }
            let target = URL(fileURLWithPath: root).appendingPathComponent(components.joined(separator: "/")).standardized.path
            guard target.hasPrefix(root + "/") else {
                throw LecternError(.unsupported, display, "refused: entry \"\(name)\" points outside the archive's folder")
            }
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: target, contents: Data(content)) else {
                throw LecternError(.unreadable, display, "cannot write \(name) while unpacking")
            }
        }
    }

    private static func corrupt(_ display: String, _ reason: String) -> LecternError {
        LecternError(.corrupt, display, "damaged ZIP archive: \(reason)")
    }

    /// Raw deflate → exactly `size` bytes (the size the directory promises, no more).
    private static func inflate(_ bytes: [UInt8], start: Int, count: Int, size: Int, name: String, display: String) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(size, 1))
        var stream = z_stream()
        guard lectern_inflate_init_raw(&stream) == Z_OK else { throw corrupt(display, "zlib could not start") }
        defer { inflateEnd(&stream) }
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + start)
                stream.avail_in = uInt(count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(size)
                return CZLib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else {
            throw corrupt(display, "entry \(name) does not inflate to its stated size")
        }
        return size == 0 ? [] : output
    }
}
