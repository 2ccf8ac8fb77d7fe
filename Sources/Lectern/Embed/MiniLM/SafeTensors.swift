import Foundation

/// A `.safetensors` file: an 8-byte little-endian header length, a JSON header naming each
/// tensor's dtype, shape and byte range, then the raw little-endian data. The file is mapped,
/// not read, and only the tensors asked for are copied out.
struct SafeTensors {
    struct Entry: Sendable {
        var dtype: String
        var shape: [Int]
        var range: Range<Int>
    }

    let path: String
    let entries: [String: Entry]
    private let data: Data
    private let dataStart: Int

    /// A header larger than this is not a model we know.
    static let maxHeaderBytes = 16 << 20

    init(path: String) throws {
        self.path = path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw LecternError(.modelMissing, path, "cannot read the model weights: run `make model`")
        }
        guard data.count >= 8 else { throw LecternError(.corrupt, path, "not a safetensors file (too short); run `make model` again") }
        let headerLength = data.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        guard headerLength <= UInt64(Self.maxHeaderBytes), 8 + Int(headerLength) <= data.count else {
            throw LecternError(.corrupt, path, "not a safetensors file (bad header length); run `make model` again")
        }
        let start = 8 + Int(headerLength)
        guard let header = try? JSONSerialization.jsonObject(with: data.subdata(in: 8..<start)) as? [String: Any] else {
            throw LecternError(.corrupt, path, "not a safetensors file (header is not JSON); run `make model` again")
        }
        var entries: [String: Entry] = [:]
        for (name, value) in header where name != "__metadata__" {
            guard let fields = value as? [String: Any], let dtype = fields["dtype"] as? String,
                  let shape = fields["shape"] as? [Int], let offsets = fields["data_offsets"] as? [Int],
                  offsets.count == 2, offsets[0] >= 0, offsets[0] <= offsets[1], start + offsets[1] <= data.count
            else {
                throw LecternError(.corrupt, path, "tensor '\(name)' has a malformed entry; run `make model` again")
            }
            entries[name] = Entry(dtype: dtype, shape: shape, range: (start + offsets[0])..<(start + offsets[1]))
        }
        self.entries = entries
        self.data = data
        self.dataStart = start
    }

    /// The float32 tensor `name`, checked against the `shape` the model expects.
    func floats(_ name: String, shape: [Int]) throws -> [Float] {
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
        var values = [Float](repeating: 0, count: count)
        values.withUnsafeMutableBytes { target in
            data.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[entry.range]))
            }
        }
        #if _endian(big)
        for i in values.indices { values[i] = Float(bitPattern: UInt32(littleEndian: values[i].bitPattern)) }
        #endif
        return values
    }
}
