import Foundation

/// all-MiniLM-L6-v2, run in-process on Lectern's own matrix product (Sources/CGemm): the
/// default embedder. Its files come from `make model` (never downloaded at run time); vectors
/// match sentence-transformers to a cosine of 0.9999 (see MiniLMParityTests). `minilm-bf16` is
/// the same model multiplying in bfloat16, `minilm-int8` in int8 (each its own name: their
/// vectors differ slightly, so a library built with one is not searched with the other).
final class MiniLMEmbedder: Embedder {
    static let bfloat16Name = "minilm-bf16"
    static let int8Name = "minilm-int8"
    /// Every name of this model, by the precision of its products.
    static let names = [name, bfloat16Name, int8Name]
    static let name = "minilm"
    static let model = "all-MiniLM-L6-v2"
    static let files = ["model.safetensors", "vocab.txt", "tokenizer.json"]
    /// Sequence length the model was trained at, with `[CLS]` and `[SEP]`.
    static let maxSequenceLength = 256

    let info: EmbedderInfo
    let directory: String
    let precision: MatrixPrecision
    /// int8: whether its products are smoothed (Smoothing); LECTERN_INT8_SMOOTHING=0 turns it
    /// off, to measure what it brings (bench/int8_quality.py).
    let smoothed: Bool
    /// The model's parts, read on first use: a command that never embeds (a keyword search,
    /// an ingest with nothing new) never reads the 90 MB of weights or the vocabulary.
    private let parts = LoadedParts()
    var tokenCounter: any TokenCounter { LazyWordPieceCounter(embedder: self) }
    /// Trained on English sentence pairs: other languages embed poorly.
    var isEnglishOnly: Bool { true }
    let workspaces = WorkspacePool()
    /// How many batches run side by side (each on one thread).
    let parallelism: Int
    /// Tokens per packed batch; bounds the working memory (about 30 KB per token).
    static let tokensPerBatch = 2048

    /// The model in `directory` (`<models_dir>/all-MiniLM-L6-v2`): its files must be there;
    /// they are read when a text is first counted or embedded.
    init(directory: String, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
         precision: MatrixPrecision = .float32,
         smoothed: Bool = ProcessInfo.processInfo.environment["LECTERN_INT8_SMOOTHING"] != "0") throws {
        let name = switch precision {
        case .float32: Self.name
        case .bfloat16: Self.bfloat16Name
        case .int8: Self.int8Name
        }
        info = EmbedderInfo(name: name, model: Self.model, dimension: 384, version: 1)
        self.precision = precision
        self.smoothed = smoothed
        let missing = Self.files.filter { !FileManager.default.fileExists(atPath: directory + "/" + $0) }
        guard missing.isEmpty else {
            throw LecternError(.modelMissing, directory, "the all-MiniLM-L6-v2 model files are missing (\(missing.joined(separator: ", "))): run `make model`")
        }
        self.directory = directory
        self.parallelism = max(1, parallelism)
    }

    /// The WordPiece tokenizer, read from `vocab.txt` once.
    func tokenizer() throws -> WordPieceTokenizer {
        try parts.tokenizer {
            let tokenizer = try WordPieceTokenizer(vocabularyFile: directory + "/vocab.txt")
            guard tokenizer.vocabularySize == BertEncoder.Shape().vocabulary else {
                throw LecternError(.corrupt, directory + "/vocab.txt", "has \(tokenizer.vocabularySize) pieces, expected 30522; run `make model` again")
            }
            return tokenizer
        }
    }

    /// The encoder over the memory-mapped weights, made once.
    func encoder() throws -> BertEncoder {
        // int8 calibrates its smoothing on a fixed text in float32 first (SmoothingCalibration);
        // the tokenizer is read outside the encoder's lock, which it shares.
        let tokenizer = precision == .int8 && smoothed ? try tokenizer() : nil
        return try parts.encoder {
            let weights = try SafeTensors(path: directory + "/model.safetensors")
            var maxima: ChannelMaxima?
            if let tokenizer {
                // Kept beside the model once found (CalibrationCache): a later process reads them.
                let calibration = SmoothingCalibration.texts.map { tokenizer.encode($0, maxLength: Self.maxSequenceLength) }
                let key = CalibrationCache.key(directory: directory, calibration: calibration)
                maxima = key.flatMap { CalibrationCache.read(directory: directory, key: $0) }
                if maxima == nil {
                    let found = try BertEncoder.channelMaxima(weights: weights, calibration: calibration)
                    if let key { CalibrationCache.write(found, directory: directory, key: key) }
                    maxima = found
                }
            }
            return try BertEncoder(weights: weights, precision: precision, maxima: maxima)
        }
    }

    func prepare() throws {
        _ = try tokenizer()
        _ = try encoder()
    }

    func embed(_ texts: [String]) throws -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        let tokenizer = try tokenizer()
        let encoder = try encoder()
        let sequences = texts.map { tokenizer.encode($0, maxLength: Self.maxSequenceLength) }
        let batches = Self.batches(lengths: sequences.map(\.count), parallelism: parallelism)
        let dimension = info.dimension
        let workspaces = self.workspaces
        // Each batch's rows, in the batch's order.
        let encoded = ParallelWork.map(batches.count, workers: parallelism) { b -> [Float] in
            let batch = batches[b]
            var rows = [Float](repeating: 0, count: batch.count * dimension)
            let workspace = workspaces.take()
            defer { workspaces.give(workspace) }
            rows.withUnsafeMutableBufferPointer { encoder.encode(batch.map { sequences[$0] }, into: $0.baseAddress!, workspace: workspace) }
            return rows
        }
        var vectors = [[Float]](repeating: [], count: texts.count)
        for (batch, result) in zip(batches, encoded) {
            let rows = try result.get()
            for (row, index) in batch.enumerated() { vectors[index] = Array(rows[(row * dimension)..<((row + 1) * dimension)]) }
        }
        return vectors
    }

    /// Splits texts into batches of similar total length: longest first, each to the batch
    /// with the fewest tokens, with at least `parallelism` batches so that every core works and
    /// at most `tokensPerBatch` tokens in each (unless one text alone is longer).
    static func batches(lengths: [Int], parallelism: Int) -> [[Int]] {
        let total = lengths.reduce(0, +)
        var count = max(1, (total + tokensPerBatch - 1) / tokensPerBatch)
        count = min(lengths.count, ((count + parallelism - 1) / parallelism) * parallelism)
        var batches = [[Int]](repeating: [], count: count)
        var sizes = [Int](repeating: 0, count: count)
        for index in lengths.indices.sorted(by: { lengths[$0] > lengths[$1] }) {
            let target = sizes.indices.min(by: { sizes[$0] < sizes[$1] })!
            batches[target].append(index)
            sizes[target] += lengths[index]
        }
        return batches.filter { !$0.isEmpty }
    }
}

/// The tokenizer and encoder of one `MiniLMEmbedder`, each made by the first caller that needs
/// it (others wait for it); a failure is not kept, so the next call says it again.
private final class LoadedParts: Sendable {
    private struct Parts {
        var tokenizer: WordPieceTokenizer?
        var encoder: BertEncoder?
    }
    private let parts = Locked(Parts())

    func tokenizer(_ make: () throws -> WordPieceTokenizer) throws -> WordPieceTokenizer {
        try loaded(\.tokenizer, make)
    }

    func encoder(_ make: () throws -> BertEncoder) throws -> BertEncoder {
        try loaded(\.encoder, make)
    }

    /// The part at `keyPath`, made once (under the lock, so two threads never both make it).
    private func loaded<Part>(_ keyPath: WritableKeyPath<Parts, Part?>, _ make: () throws -> Part) throws -> Part {
        try parts.withLock { parts in
            if let loaded = parts[keyPath: keyPath] { return loaded }
            let made = try make()
            parts[keyPath: keyPath] = made
            return made
        }
    }
}

/// MiniLM's token counter, reading the vocabulary on the first count. Its key is the
/// tokenizer's (the vocabulary's size is checked when it loads), so a skip key needs no file.
struct LazyWordPieceCounter: TokenCounter {
    let embedder: MiniLMEmbedder

    var countingKey: String { "bert-uncased-wordpiece-\(BertEncoder.Shape().vocabulary)" }

    /// A vocabulary that cannot be read counts by the estimate; embedding the passage then
    /// fails with the reason, so nothing is stored from it.
    func count(_ text: String) -> Int {
        guard let tokenizer = try? embedder.tokenizer() else { return ApproximateTokenCounter().count(text) }
        return tokenizer.count(text)
    }
}
