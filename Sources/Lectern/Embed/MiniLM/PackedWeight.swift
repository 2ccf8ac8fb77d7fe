import CGemm

/// The number format the encoder's dense layers multiply in. Attention, LayerNorm and GELU
/// stay in float32 either way.
enum MatrixPrecision: Sendable {
    case float32
    /// Weights and activations rounded to bfloat16 for the products, sums kept in float32:
    /// twice the multiply rate of float32 on CPUs with AVX512_BF16.
    case bfloat16
}

/// A Linear layer's weight [outputs × inputs] (PyTorch's layout), packed once at model load
/// into the panels Lectern's matrix product (Sources/CGemm) streams.
struct PackedWeight: Sendable {
    let outputs: Int
    let inputs: Int
    let precision: MatrixPrecision
    /// On a cache line's boundary, as the kernels' panels want (AlignedFloats).
    private let floats: AlignedFloats
    private let halves: [UInt16]

    init(_ weight: [Float], outputs: Int, inputs: Int, precision: MatrixPrecision) {
        precondition(weight.count == outputs * inputs)
        self.outputs = outputs
        self.inputs = inputs
        self.precision = precision
        switch precision {
        case .float32:
            floats = AlignedFloats(count: lectern_gemm_packed_count(Int32(outputs), Int32(inputs)))
            floats.withUnsafeMutableBufferPointer { buffer in
                lectern_gemm_pack_rows(Int32(outputs), Int32(inputs), weight, Int32(inputs), buffer.baseAddress!)
            }
            halves = []
        case .bfloat16:
            halves = [UInt16](unsafeUninitializedCapacity: lectern_gemm_bf16_packed_count(Int32(outputs), Int32(inputs))) { buffer, count in
                lectern_gemm_bf16_pack_rows(Int32(outputs), Int32(inputs), weight, Int32(inputs), buffer.baseAddress!)
                count = buffer.count
            }
            floats = AlignedFloats(count: 0)
        }
    }

    /// output[rows × outputs] (+)= input[rows × inputs] · weightᵀ; added to what `output`
    /// holds when `accumulate` (a bias written there first).
    func apply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>, accumulate: Bool) {
        switch precision {
        case .float32:
            floats.withUnsafeBufferPointer { packed in
                lectern_gemm(Int32(rows), Int32(outputs), Int32(inputs), 1, input, Int32(inputs), packed.baseAddress!, output,
                             Int32(outputs), accumulate ? 1 : 0)
            }
        case .bfloat16:
            halves.withUnsafeBufferPointer { packed in
                lectern_gemm_bf16(Int32(rows), Int32(outputs), Int32(inputs), input, Int32(inputs), packed.baseAddress!, output,
                                  Int32(outputs), accumulate ? 1 : 0)
            }
        }
    }
}
