import Foundation

/// `minilm-int8`'s calibration (the channel maxima its smoothing comes from, `ChannelMaxima`)
/// kept beside the model as `int8-calibration.bin`, so that only the first int8 process after
/// `make model` runs the calibration's float32 pass: it took 0.13 s of a one-query `lectern
/// embed` on a quiet Zen 5 (0.3–0.56 s at load 5) against 0.01–0.03 s to start without it, and
/// every one-shot search of an int8 library paid it.
///
/// The file is a key line, then the maxima as 32-bit floats in this machine's byte order. The key
/// names what the maxima depend on: the weights and vocabulary files (size, modification time),
/// the calibration's token ids (a stable hash), the model's shape and the byte order. A file
/// whose key differs or whose size is wrong is ignored and written again; a folder that cannot
/// be written leaves it unwritten (the calibration then runs in every process, as before). It is
/// written whole or not at all (a temporary file renamed), so processes starting together at
/// most calibrate twice. A stale file cannot make a product wrong, only its rounding other than
/// a fresh calibration's: smoothing scales an input channel down and its weight column up by
/// the same factor.
enum CalibrationCache {
    static let fileName = "int8-calibration.bin"

    /// The key of the maxima for the model in `directory` and these calibration sequences; nil
    /// when a model file cannot be looked at.
    static func key(directory: String, calibration: [[Int32]], shape: BertEncoder.Shape = BertEncoder.Shape()) -> String? {
        var parts = ["lectern-int8-calibration 1", "shape \(shape.layers)x\(shape.hidden)x\(shape.intermediate)",
                     "byte-order \(1.littleEndian == 1 ? "little" : "big")"]
        for file in ["model.safetensors", "vocab.txt"] {
            // The file itself, where the model's files are links to it.
            let path = URL(fileURLWithPath: directory + "/" + file).resolvingSymlinksInPath().path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date else { return nil }
            parts.append("\(file) \(size.int64Value) \(modified.timeIntervalSince1970)")
        }
        // FNV-1a over the token ids (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for sequence in calibration {
            for id in sequence + [-1] {
                for byte in withUnsafeBytes(of: id.littleEndian, Array.init) {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                }
            }
        }
        parts.append("calibration \(calibration.count) \(String(hash, radix: 16))")
        return parts.joined(separator: "; ")
    }

    /// The maxima stored under `key`, or nil (no file, another key, a wrong size).
    static func read(directory: String, key: String, shape: BertEncoder.Shape = BertEncoder.Shape()) -> ChannelMaxima? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName),
              let newline = data.firstIndex(of: 0x0A),
              String(decoding: data[data.startIndex..<newline], as: UTF8.self) == key else { return nil }
        let body = data[(newline + 1)...]
        let count = ChannelMaxima.count(layers: shape.layers, hidden: shape.hidden, intermediate: shape.intermediate)
        guard body.count == count * MemoryLayout<Float>.size else { return nil }
        var values = [Float](repeating: 0, count: count)
        _ = values.withUnsafeMutableBytes { body.copyBytes(to: $0) }
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        return ChannelMaxima(flat: values, layers: shape.layers, hidden: shape.hidden, intermediate: shape.intermediate)
    }

    /// Stores `maxima` under `key`; does nothing when the folder cannot be written.
    static func write(_ maxima: ChannelMaxima, directory: String, key: String) {
        var data = Data((key + "\n").utf8)
        maxima.flat.withUnsafeBytes { data.append(contentsOf: $0) }
        try? data.write(to: URL(fileURLWithPath: directory + "/" + fileName), options: .atomic)
    }
}
