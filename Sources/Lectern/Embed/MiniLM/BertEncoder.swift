import CGemm
import Foundation

/// The BERT encoder of all-MiniLM-L6-v2 (6 layers, hidden 384, 12 heads of 32, GELU, LayerNorm
/// eps 1e-12) followed by mean pooling and L2 normalisation, as sentence-transformers does.
///
/// Sequences are packed one after another (no padding): the dense layers see every token of
/// a batch in one matrix product, and attention runs per sequence and head. One call runs on
/// the calling thread only; `MiniLMEmbedder` runs several calls side by side.
final class BertEncoder: Sendable {
    struct Shape: Sendable {
        var vocabulary = 30522
        var hidden = 384
        var layers = 6
        var heads = 12
        var intermediate = 1536
        var maxPositions = 512
        var layerNormEpsilon: Float = 1e-12
        var headSize: Int { hidden / heads }
    }

    struct Layer: Sendable {
        /// Query, key and value weights stacked into one [3·hidden × hidden] matrix.
        var qkvWeight: PackedWeight
        var qkvBias: [Float]
        var attentionOutWeight: PackedWeight
        var attentionOutBias: [Float]
        var attentionNormGain: [Float]
        var attentionNormBias: [Float]
        var intermediateWeight: PackedWeight
        var intermediateBias: [Float]
        var outputWeight: PackedWeight
        var outputBias: [Float]
        var outputNormGain: [Float]
        var outputNormBias: [Float]
    }

    let shape: Shape
    /// Used where they lie in the mapped weights file: a text reads only its words' rows.
    let wordEmbeddings: MappedFloats
    let positionEmbeddings: MappedFloats
    /// Row 0 of the token type embeddings: every token is of sentence A.
    let tokenTypeEmbedding: [Float]
    let embeddingNormGain: [Float]
    let embeddingNormBias: [Float]
    let layers: [Layer]

    /// The number format of the dense layers' products.
    let precision: MatrixPrecision

    /// `maxima`: for int8, each product input's largest value per channel, from which its
    /// SmoothQuant factors come (Smoothing; `channelMaxima` finds them); without them int8's
    /// products are not smoothed.
    init(weights: SafeTensors, shape: Shape = Shape(), precision: MatrixPrecision = .float32, maxima: ChannelMaxima? = nil) throws {
        self.shape = shape
        self.precision = precision
        let maxima = precision == .int8 ? maxima : nil
        let h = shape.hidden
        wordEmbeddings = try weights.mapped("embeddings.word_embeddings.weight", shape: [shape.vocabulary, h])
        positionEmbeddings = try weights.mapped("embeddings.position_embeddings.weight", shape: [shape.maxPositions, h])
        tokenTypeEmbedding = Array(try weights.floats("embeddings.token_type_embeddings.weight", shape: [2, h]).prefix(h))
        embeddingNormGain = try weights.floats("embeddings.LayerNorm.weight", shape: [h])
        embeddingNormBias = try weights.floats("embeddings.LayerNorm.bias", shape: [h])
        layers = try (0..<shape.layers).map { i in
            let p = "encoder.layer.\(i)."
            func w(_ name: String, _ dims: [Int]) throws -> [Float] { try weights.floats(p + name, shape: dims) }
            // Dense weights stay in the mapped file: packed when a batch first needs them, never
            // for a query's few rows (PackedWeight).
            func packed(_ names: [String], _ outputs: Int, _ inputs: Int, _ product: Smoothing.Product) throws -> PackedWeight {
                let parts = try names.map { try weights.mapped(p + $0, shape: [outputs / names.count, inputs]) }
                var smoothing: [Float]?
                if let maxima, let alpha = Smoothing.alpha(product) {
                    smoothing = Smoothing.factors(inputMaxima: maxima.maxima[i][product.rawValue], weight: parts, inputs: inputs, alpha: alpha)
                }
                return PackedWeight(parts: parts, outputs: outputs, inputs: inputs, precision: precision, smoothing: smoothing)
            }
            return Layer(
                qkvWeight: try packed(["attention.self.query.weight", "attention.self.key.weight", "attention.self.value.weight"], 3 * h, h, .qkv),
                qkvBias: try w("attention.self.query.bias", [h]) + w("attention.self.key.bias", [h]) + w("attention.self.value.bias", [h]),
                attentionOutWeight: try packed(["attention.output.dense.weight"], h, h, .attentionOut),
                attentionOutBias: try w("attention.output.dense.bias", [h]),
                attentionNormGain: try w("attention.output.LayerNorm.weight", [h]),
                attentionNormBias: try w("attention.output.LayerNorm.bias", [h]),
                intermediateWeight: try packed(["intermediate.dense.weight"], shape.intermediate, h, .ffnUp),
                intermediateBias: try w("intermediate.dense.bias", [shape.intermediate]),
                outputWeight: try packed(["output.dense.weight"], h, shape.intermediate, .ffnDown),
                outputBias: try w("output.dense.bias", [h]),
                outputNormGain: try w("output.LayerNorm.weight", [h]),
                outputNormBias: try w("output.LayerNorm.bias", [h])
            )
        }
    }

    /// The calibration: `sequences` (token ids, as `encode` takes them) run in float32, each
    /// product input's largest value per channel recorded.
    static func channelMaxima(weights: SafeTensors, shape: Shape = Shape(), calibration sequences: [[Int32]]) throws -> ChannelMaxima {
        let recorder = ChannelMaxima(layers: shape.layers, hidden: shape.hidden, intermediate: shape.intermediate)
        let calibrating = try BertEncoder(weights: weights, shape: shape, precision: .float32)
        var vectors = [Float](repeating: 0, count: sequences.count * shape.hidden)
        vectors.withUnsafeMutableBufferPointer { calibrating.encode(sequences, into: $0.baseAddress!, recorder: recorder) }
        return recorder
    }

    /// Mean-pooled, L2-normalised sentence vectors of `sequences` (token ids with
    /// `[CLS]`/`[SEP]`, each at most `maxPositions` long), written to `output` row by row;
    /// `recorder` keeps each product input's largest values (the int8 calibration).
    func encode(_ sequences: [[Int32]], into output: UnsafeMutablePointer<Float>, workspace: Workspace = Workspace(),
                recorder: ChannelMaxima? = nil) {
        let h = shape.hidden
        let lengths = sequences.map { min($0.count, shape.maxPositions) }
        let tokens = lengths.reduce(0, +)
        guard tokens > 0 else { return }
        var offsets: [Int] = []
        var running = 0
        for length in lengths {
            offsets.append(running)
            running += length
        }
        let longest = lengths.max() ?? 0

        workspace.reserve(tokens: tokens, hidden: h, intermediate: shape.intermediate, longest: longest, headSize: shape.headSize)
        // The workspace's buffers, held by the caller for the whole call.
        let x = workspace.x.start, qkv = workspace.qkv.start, context = workspace.context.start
        let projected = workspace.projected.start, intermediate = workspace.intermediate.start
        let epsilon = shape.layerNormEpsilon

        // Embeddings: word + position + token type 0, then LayerNorm.
        for (s, sequence) in sequences.enumerated() {
            for position in 0..<lengths[s] {
                let row = x + (offsets[s] + position) * h
                let id = Int(sequence[position])
                let word = id >= 0 && id < shape.vocabulary ? id : 100
                for j in 0..<h {
                    row[j] = wordEmbeddings[word * h + j] + positionEmbeddings[position * h + j] + tokenTypeEmbedding[j]
                }
            }
        }
        lectern_add_layer_norm(x, nil, nil, Int32(tokens), Int32(h), embeddingNormGain, embeddingNormBias, epsilon)

        for (index, layer) in layers.enumerated() {
            // Q, K, V for every token at once.
            recorder?.record(layer: index, .qkv, x, rows: tokens)
            Self.linear(x, rows: tokens, weight: layer.qkvWeight, bias: layer.qkvBias, into: qkv)
            attention(qkv: qkv, lengths: lengths, offsets: offsets, workspace: workspace)
            recorder?.record(layer: index, .attentionOut, context, rows: tokens)
            Self.linear(context, rows: tokens, weight: layer.attentionOutWeight, bias: nil, into: projected)
            // x = LayerNorm(x + projected + the projection's bias), its bias added here rather
            // than in a pass of its own.
            lectern_add_layer_norm(x, projected, layer.attentionOutBias, Int32(tokens), Int32(h), layer.attentionNormGain,
                                   layer.attentionNormBias, epsilon)
            recorder?.record(layer: index, .ffnUp, x, rows: tokens)
            Self.linear(x, rows: tokens, weight: layer.intermediateWeight, bias: nil, into: intermediate)
            lectern_gelu(intermediate, Int32(tokens), Int32(shape.intermediate), layer.intermediateBias)
            recorder?.record(layer: index, .ffnDown, intermediate, rows: tokens)
            Self.linear(intermediate, rows: tokens, weight: layer.outputWeight, bias: nil, into: projected)
            lectern_add_layer_norm(x, projected, layer.outputBias, Int32(tokens), Int32(h), layer.outputNormGain,
                                   layer.outputNormBias, epsilon)
        }

        // Mean over each sequence's tokens (all real: nothing is padded), then unit length.
        for s in sequences.indices {
            let target = output + s * h
            var sums = [Double](repeating: 0, count: h)
            for position in 0..<lengths[s] {
                let row = x + (offsets[s] + position) * h
                for j in 0..<h { sums[j] += Double(row[j]) }
            }
            let mean = sums.map { $0 / Double(max(1, lengths[s])) }
            let norm = max(mean.reduce(0) { $0 + $1 * $1 }.squareRoot(), 1e-12)
            for j in 0..<h { target[j] = Float(mean[j] / norm) }
        }
        withExtendedLifetime(workspace) {}
    }

    /// Scaled dot-product attention of every head of every sequence; heads are written side by
    /// side into `workspace.context` ([tokens × hidden]). Always in float32: a tenth of the work.
    private func attention(qkv base: UnsafePointer<Float>, lengths: [Int], offsets: [Int], workspace: Workspace) {
        let h = shape.hidden
        let d = shape.headSize
        let stride = 3 * h
        let scale = 1 / Float(d).squareRoot()
        let longest = lengths.max() ?? 0
        let sums = UnsafeMutableBufferPointer<Float>.allocate(capacity: longest)
        defer { sums.deallocate() }
        let scores = workspace.scores.start, context = workspace.context.start
        let keys = workspace.packedKeys.start, values = workspace.packedValues.start
        for (s, length) in lengths.enumerated() where length > 0 {
            let n = Int32(length)
            let rows = base + offsets[s] * stride
            for head in 0..<shape.heads {
                let q = rows + head * d
                let k = rows + h + head * d
                let v = rows + 2 * h + head * d
                // scores = scale · Q·Kᵀ: K's rows are the product's columns.
                lectern_gemm_pack_rows(n, Int32(d), k, Int32(stride), keys)
                lectern_gemm(n, n, Int32(d), scale, q, Int32(stride), keys, scores, n, 0)
                lectern_softmax_numerators(scores, n, n, sums.baseAddress!)
                // context = P·V: V's columns are the product's columns.
                let out = context + offsets[s] * h + head * d
                lectern_gemm_pack_columns(Int32(d), n, v, Int32(stride), values)
                lectern_gemm(n, Int32(d), n, 1, scores, n, values, out, Int32(h), 0)
                lectern_scale_rows(out, n, Int32(d), Int32(h), sums.baseAddress!)
            }
        }
    }

    /// output[rows × outputs] = input[rows × inputs] · weightᵀ (+ bias) (PyTorch's Linear layout).
    /// Without `bias` the caller adds it in the pass that follows anyway.
    static func linear(_ input: UnsafePointer<Float>, rows: Int, weight: PackedWeight, bias: [Float]?,
                       into output: UnsafeMutablePointer<Float>) {
        let outputs = weight.outputs
        if let bias {
            bias.withUnsafeBufferPointer { b in
                for r in 0..<rows { (output + r * outputs).update(from: b.baseAddress!, count: outputs) }
            }
        }
        weight.apply(input, rows: rows, into: output, accumulate: bias != nil)
    }
}
