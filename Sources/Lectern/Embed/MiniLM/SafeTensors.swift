import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `.safetensors` file: an 8-byte little-endian header length, a JSON header naming each
/// tensor's dtype, shape and byte range, then the raw little-endian data. The file is
/// memory-mapped: a tensor read as `mapped` is used where it lies (pages the model never
/// touches, such as the rows of words a text lacks, are never read), and one read as `floats`
/// is copied out and its mapped pages given back, so it is not counted twice.
struct SafeTensors {
    struct Entry: Sendable {
        var dtype: String
        var shape: [Int]
        var range: Range<Int>
    }

    let path: String
    let entries: [String: Entry]
    private let file: MappedFile

    /// A header larger than this is not a model we know.
    static let maxHeaderBytes = 16 << 20

    init(path: String) throws {
        self.path = path
        guard let file = MappedFile(path: path) else {
            throw LecternError(.modelMissing, path, "cannot read the model weights: run `make model`")
        }
        let bytes = file.bytes
        guard bytes.count >= 8 else { throw LecternError(.corrupt, path, "not a safetensors file (too short); run `make model` again") }
        let headerLength = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[$1]) << (8 * UInt64($1)) }
        guard headerLength <= UInt64(Self.maxHeaderBytes), 8 + Int(headerLength) <= bytes.count else {
            throw LecternError(.corrupt, path, "not a safetensors file (bad header length); run `make model` again")
        }
        let start = 8 + Int(headerLength)
        let headerData = Data(UnsafeRawBufferPointer(rebasing: bytes[8..<start]))
        guard let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any] else {
            throw LecternError(.corrupt, path, "not a safetensors file (header is not JSON); run `make model` again")
        }
        var entries: [String: Entry] = [:]
        for (name, value) in header where name != "__metadata__" {
            guard let fields = value as? [String: Any], let dtype = fields["dtype"] as? String,
                  let shape = fields["shape"] as? [Int], let offsets = fields["data_offsets"] as? [Int],
                  offsets.count == 2, offsets[0] >= 0, offsets[0] <= offsets[1], start + offsets[1] <= bytes.count
            else {
                throw LecternError(.corrupt, path, "tensor '\(name)' has a malformed entry; run `make model` again")
            }
            entries[name] = Entry(dtype: dtype, shape: shape, range: (start + offsets[0])..<(start + offsets[1]))
        }
        self.entries = entries
        self.file = file
    }

    /// The entry of float32 tensor `name`, checked against the `shape` the model expects.
    private func entry(_ name: String, shape: [Int]) throws -> Entry {
        guard let entry = entries[name] else {
            throw LecternError(.corrupt, path, "the weights lack tensor '\(name)'; run `make model` again")
        }
        guard entry.dtype == "F32", entry.shape == shape else {
            throw LecternError(.corrupt, path, "tensor '\(name)' is \(entry.dtype) \(entry.shape), expected F32 \(shape)")
        }
        let count = shape.reduce(1, *)
        guard entry.range.count == count * 4 else {
            throw LecternError(.corrupt, path, "tensor '\(name)' has \(entry.range.count) bytes, expected \(count * 4)")
        }
        return entry
    }

    /// The float32 tensor `name` copied into an array; its mapped pages are released after.
    func floats(_ name: String, shape: [Int]) throws -> [Float] {
        let entry = try entry(name, shape: shape)
        var values = [Float](repeating: 0, count: entry.range.count / 4)
        values.withUnsafeMutableBytes { target in
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: file.bytes[entry.range]))
        }
        file.release(entry.range)
        #if _endian(big)
        for i in values.indices { values[i] = Float(bitPattern: UInt32(littleEndian: values[i].bitPattern)) }
        #endif
        return values
    }

    /// The float32 tensor `name` where it lies in the mapped file, without a copy.
    func mapped(_ name: String, shape: [Int]) throws -> MappedFloats {
        let entry = try entry(name, shape: shape)
        #if _endian(big)
        return MappedFloats(copying: try floats(name, shape: shape))
        #else
        // safetensors aligns tensors to 8 bytes from the data start; a float needs 4.
        guard (Int(bitPattern: file.bytes.baseAddress!) + entry.range.lowerBound) % MemoryLayout<Float>.alignment == 0 else {
            return MappedFloats(copying: try floats(name, shape: shape))
        }
        return MappedFloats(file: file, range: entry.range)
        #endif
    }
}

/// A read-only private mapping of a whole file, unmapped when the last user lets go.
// Safe: owns a read-only mmap (PROT_READ, MAP_PRIVATE), unmapped once in `deinit`.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init?(path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    /// Gives back the whole pages inside `range`: read again from the file if touched later.
    func release(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + page - 1) / page * page
        let end = range.upperBound / page * page
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start), end - start, Int32(MADV_DONTNEED))
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count)
    }
}

/// Float32 values that stay where they lie in a mapped weights file (or, where they cannot,
/// in memory of their own); indexed like the array they replace.
// Safe: a read-only pointer into a `MappedFile` it keeps alive (or into floats of its own it never changes).
struct MappedFloats: @unchecked Sendable {
    private let owner: AnyObject
    private let base: UnsafePointer<Float>
    let count: Int

    init(file: MappedFile, range: Range<Int>) {
        owner = file
        base = (file.bytes.baseAddress! + range.lowerBound).assumingMemoryBound(to: Float.self)
        count = range.count / 4
    }

    init(copying values: [Float]) {
        let storage = ManagedBuffer<Int, Float>.create(minimumCapacity: values.count) { _ in values.count }
        owner = storage
        base = storage.withUnsafeMutablePointerToElements { elements in
            values.withUnsafeBufferPointer { elements.initialize(from: $0.baseAddress!, count: values.count) }
            return UnsafePointer(elements)
        }
        count = values.count
    }

    subscript(index: Int) -> Float { base[index] }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }
}
