import CZLib
import Foundation

/// Writes a ZIP archive of stored (uncompressed) entries: what an `.apkg` is. Stored rather
/// than deflated because Anki reads both, it needs no other zlib entry point than `crc32`
/// (the shim declares only the raw inflater), and it keeps a 5,000-card export well inside
/// its time budget; the collection is small next to what a learner's media would be.
enum ZipArchiveWriter {
    static func archive(_ entries: [(name: String, data: Data)]) throws -> Data {
        var out = Data()
        var directory = Data()
        for entry in entries {
            let name = Data(entry.name.utf8)
            guard entry.data.count < 0xFFFF_FFFF, out.count < 0xFFFF_FFFF else {
                throw LecternError(.tooLarge, entry.name, "over 4 GB: ZIP64 archives are not written")
            }
            let crc = entry.data.withUnsafeBytes { raw -> UInt32 in
                UInt32(crc32(0, raw.bindMemory(to: Bytef.self).baseAddress, uInt(raw.count)))
            }
            let offset = UInt32(out.count)
            let size = UInt32(entry.data.count)
            // Local file header.
            out.append(u32: 0x0403_4B50); out.append(u16: 20); out.append(u16: 0x0800); out.append(u16: 0)
            out.append(u16: 0); out.append(u16: 0x21) // 1980-01-01 00:00
            out.append(u32: crc); out.append(u32: size); out.append(u32: size)
            out.append(u16: UInt16(name.count)); out.append(u16: 0)
            out.append(name)
            out.append(entry.data)
            // Central directory record.
            directory.append(u32: 0x0201_4B50); directory.append(u16: 20); directory.append(u16: 20)
            directory.append(u16: 0x0800); directory.append(u16: 0); directory.append(u16: 0); directory.append(u16: 0x21)
            directory.append(u32: crc); directory.append(u32: size); directory.append(u32: size)
            directory.append(u16: UInt16(name.count)); directory.append(u16: 0); directory.append(u16: 0)
            directory.append(u16: 0); directory.append(u16: 0); directory.append(u32: 0); directory.append(u32: offset)
            directory.append(name)
        }
        let directoryOffset = UInt32(out.count)
        out.append(directory)
        out.append(u32: 0x0605_4B50); out.append(u16: 0); out.append(u16: 0)
        out.append(u16: UInt16(entries.count)); out.append(u16: UInt16(entries.count))
        out.append(u32: UInt32(directory.count)); out.append(u32: directoryOffset); out.append(u16: 0)
        return out
    }
}

private extension Data {
    mutating func append(u16 value: UInt16) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
    mutating func append(u32 value: UInt32) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
}
