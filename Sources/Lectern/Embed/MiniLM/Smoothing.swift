import Foundation

/// SmoothQuant (Xiao et al. 2023) for `minilm-int8`: a few of MiniLM's activation channels carry
/// values ten times the others' (the FFN-up input reaches ~28 where the median channel's largest
/// is ~2), and each row's one int8 scale is stretched to fit them, so the other channels lose
/// their low bits. Each product's input channel j is divided by
/// sⱼ = max|Xⱼ|^α / max|Wⱼ|^(1-α) as its row is quantized (one multiply a value, in
/// Sources/CGemm/gemm_int8.c) and the weight's column j multiplied by it when the weight is
/// packed: the product is the same, the large values now shared between the two sides.
///
/// MiniLM is post-LayerNorm: a LayerNorm's output is both the residual and the next product's
/// input, so 1/s cannot be folded into its gain as it can in a pre-LayerNorm model without
/// changing the residual; the multiply in the quantization costs nothing measurable instead.
enum Smoothing {
    /// A product of the encoder's layer, by its input.
    enum Product: Int, CaseIterable {
        case qkv, attentionOut, ffnUp, ffnDown
    }

    /// α by product, nil for a product left as it was. Chosen by bench/int8_error.py --smooth
    /// (cosine to float32 on the eval set's passages; see docs/benchmarks.md).
    static func alpha(_ product: Product) -> Float? {
        switch product {
        case .qkv, .attentionOut, .ffnUp: 0.5
        case .ffnDown: nil
        }
    }

    /// sⱼ for each input channel of a weight [outputs × inputs] stored in `parts` one block after
    /// another, from the largest |value| each channel had in the calibration run.
    static func factors(inputMaxima: [Float], weight parts: [MappedFloats], inputs: Int, alpha: Float) -> [Float] {
        var weightMaxima = [Float](repeating: 0, count: inputs)
        for part in parts {
            part.withUnsafeBufferPointer { w in
                for row in 0..<(w.count / inputs) {
                    for j in 0..<inputs { weightMaxima[j] = max(weightMaxima[j], abs(w[row * inputs + j])) }
                }
            }
        }
        // A channel the calibration never lit (or a weight column of zeros) gets no extreme factor.
        let floor: Float = 1e-5
        return (0..<inputs).map { j in
            pow(max(inputMaxima[j], floor), alpha) / pow(max(weightMaxima[j], floor), 1 - alpha)
        }
    }
}
