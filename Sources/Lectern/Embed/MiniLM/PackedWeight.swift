import CGemm

/// The number format the encoder's dense layers multiply in. Attention, LayerNorm and GELU
/// stay in float32 either way.
enum MatrixPrecision: Sendable {
    case float32
    /// Weights and activations rounded to bfloat16 for the products, sums kept in float32:
    /// twice the multiply rate of float32 on CPUs with AVX512_BF16.
    case bfloat16
    /// Weights quantized to int8 per output column, activations to 7-bit codes per row, sums in
    /// int32 (Sources/CGemm/include/gemm_int8.h): vpdpbusd where the CPU has VNNI, vpmaddubsw
    /// with AVX2, the same integers from every kernel.
    case int8
}

/// A Linear layer's weight [outputs × inputs] (PyTorch's layout), as the model file maps it,
/// packed into the panels Lectern's matrix product (Sources/CGemm) streams the first time a
/// product of many rows needs them. A product of a few rows (a search query of a dozen
/// tokens) reads the weight as it is (`lectern_gemm_rows`): packing MiniLM's 85 MB for one
/// query was half of a `lectern search` call's time.
struct PackedWeight: Sendable {
    let outputs: Int
    let inputs: Int
    let precision: MatrixPrecision
    /// int8 only: SmoothQuant's factor of each input channel (Smoothing), the weight's columns
    /// multiplied by it as they are packed and the input divided by it as it is quantized; nil
    /// for a plain product.
    private let smoothing: [Float]?
    /// 1/smoothing, as the int8 product takes it.
    private let channels: [Float]?
    /// The weight's rows in blocks as the file stores them (one, or a layer's query, key and
    /// value weights one after another).
    private let parts: [MappedFloats]
    /// The packed panels once made; shared by every copy of this weight and every thread.
    private let panels: Locked<Panels?>

    /// On a cache line's boundary, as the kernels' panels want (AlignedFloats).
    private struct Panels: Sendable {
        var floats: AlignedFloats
        var halves: [UInt16]
        /// int8: the codes (bytes in a cache-aligned block), each column's scale and code sum.
        var codes = AlignedFloats(count: 0)
        var scales: [Float] = []
        var sums: [Int32] = []
    }

    /// Products of at most this many rows read the weight unpacked (float32 only): below it
    /// packing costs more than it saves.
    static let unpackedRows = 32

    init(parts: [MappedFloats], outputs: Int, inputs: Int, precision: MatrixPrecision, smoothing: [Float]? = nil) {
        precondition(parts.reduce(0) { $0 + $1.count } == outputs * inputs && parts.allSatisfy { $0.count % inputs == 0 })
        precondition(smoothing == nil || (precision == .int8 && smoothing!.count == inputs && smoothing!.allSatisfy { $0 > 0 && $0.isFinite }))
        self.outputs = outputs
        self.inputs = inputs
        self.precision = precision
        self.smoothing = smoothing
        channels = smoothing?.map { 1 / $0 }
        self.parts = parts
        panels = Locked(nil)
    }

    init(_ weight: [Float], outputs: Int, inputs: Int, precision: MatrixPrecision, smoothing: [Float]? = nil) {
        self.init(parts: [MappedFloats(copying: weight)], outputs: outputs, inputs: inputs, precision: precision, smoothing: smoothing)
    }

    /// output[rows × outputs] (+)= input[rows × inputs] · weightᵀ; added to what `output`
    /// holds when `accumulate` (a bias written there first).
    func apply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>, accumulate: Bool) {
        if precision == .float32, rows <= Self.unpackedRows {
            var column = 0
            for part in parts {
                let partOutputs = part.count / inputs
                part.withUnsafeBufferPointer { weight in
                    lectern_gemm_rows(Int32(rows), Int32(partOutputs), Int32(inputs), input, Int32(inputs), weight.baseAddress!, Int32(inputs),
                                      output + column, Int32(outputs), accumulate ? 1 : 0)
                }
                column += partOutputs
            }
            return
        }
        let packed = packedPanels()
        switch precision {
        case .float32:
            packed.floats.withUnsafeBufferPointer { packed in
                lectern_gemm(Int32(rows), Int32(outputs), Int32(inputs), 1, input, Int32(inputs), packed.baseAddress!, output,
                             Int32(outputs), accumulate ? 1 : 0)
            }
        case .bfloat16:
            packed.halves.withUnsafeBufferPointer { packed in
                lectern_gemm_bf16(Int32(rows), Int32(outputs), Int32(inputs), input, Int32(inputs), packed.baseAddress!, output,
                                  Int32(outputs), accumulate ? 1 : 0)
            }
        case .int8:
            packed.codes.withUnsafeBufferPointer { codes in
                withChannels { channels in
                    lectern_gemm_i8(Int32(rows), Int32(outputs), Int32(inputs), input, Int32(inputs), channels,
                                    UnsafeRawPointer(codes.baseAddress!), packed.scales, packed.sums, output, Int32(outputs), accumulate ? 1 : 0)
                }
            }
        }
    }

    /// The input's factors for the int8 product (nil: none).
    private func withChannels<R>(_ body: (UnsafePointer<Float>?) -> R) -> R {
        guard let channels else { return body(nil) }
        return channels.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The panels, packed by the first caller (the others wait for them).
    private func packedPanels() -> Panels {
        panels.withLock { slot in
            if let slot { return slot }
            let made = withWeight { weight in
                guard let smoothing else { return Self.pack(weight, outputs: outputs, inputs: inputs, precision: precision) }
                // Column j times sⱼ, once, before the weight is quantized.
                var scaled = [Float](repeating: 0, count: outputs * inputs)
                for row in 0..<outputs {
                    for j in 0..<inputs { scaled[row * inputs + j] = weight[row * inputs + j] * smoothing[j] }
                }
                return scaled.withUnsafeBufferPointer { Self.pack($0.baseAddress!, outputs: outputs, inputs: inputs, precision: precision) }
            }
            slot = made
            return made
        }
    }

    /// The whole weight in one block: the part itself, or the parts copied one after another.
    private func withWeight<R>(_ body: (UnsafePointer<Float>) -> R) -> R {
        if parts.count == 1 { return parts[0].withUnsafeBufferPointer { body($0.baseAddress!) } }
        var whole: [Float] = []
        whole.reserveCapacity(outputs * inputs)
        for part in parts { part.withUnsafeBufferPointer { whole.append(contentsOf: $0) } }
        return whole.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func pack(_ weight: UnsafePointer<Float>, outputs: Int, inputs: Int, precision: MatrixPrecision) -> Panels {
        switch precision {
        case .float32:
            let floats = AlignedFloats(count: lectern_gemm_packed_count(Int32(outputs), Int32(inputs)))
            floats.withUnsafeMutableBufferPointer { buffer in
                lectern_gemm_pack_rows(Int32(outputs), Int32(inputs), weight, Int32(inputs), buffer.baseAddress!)
            }
            return Panels(floats: floats, halves: [])
        case .bfloat16:
            let halves = [UInt16](unsafeUninitializedCapacity: lectern_gemm_bf16_packed_count(Int32(outputs), Int32(inputs))) { buffer, count in
                lectern_gemm_bf16_pack_rows(Int32(outputs), Int32(inputs), weight, Int32(inputs), buffer.baseAddress!)
                count = buffer.count
            }
            return Panels(floats: AlignedFloats(count: 0), halves: halves)
        case .int8:
            // Quantized once, as the weight is first used: the dense layers' 42 MB of float32 become
            // 11 MB of codes (18 ms for all of them).
            let bytes = lectern_gemm_i8_packed_size(Int32(outputs), Int32(inputs))
            let codes = AlignedFloats(count: (bytes + 3) / 4)
            var scales = [Float](repeating: 0, count: outputs)
            var sums = [Int32](repeating: 0, count: outputs)
            codes.withUnsafeMutableBufferPointer { buffer in
                lectern_gemm_i8_pack_rows(Int32(outputs), Int32(inputs), weight, Int32(inputs), UnsafeMutableRawPointer(buffer.baseAddress!),
                                          &scales, &sums)
            }
            return Panels(floats: AlignedFloats(count: 0), halves: [], codes: codes, scales: scales, sums: sums)
        }
    }
}
