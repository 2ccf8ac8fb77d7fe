import CVectorScan
import Foundation

/// Every vector of one set and embedder as int8 codes with a scale per vector, in three
/// contiguous buffers the store fills straight from its blobs; searched by `nearest`. A streamed
/// scan (`LibraryStore.streamedCandidates`) fills the same buffers a chunk of blocks at a time;
/// a library's sidecar (`VectorSidecar`) holds them as they are, read in place.
// Safe: owns raw buffers filled while it is made and only read afterwards (the scan), freed in
// `deinit`, or points into a read-only sidecar mapping it keeps; a streamed scan's chunk is
// filled and scanned by the one thread that made it.
final class CompactVectors: @unchecked Sendable {
    let dimension: Int
    /// The rows the buffers hold room for.
    let capacity: Int
    /// The rows filled: every one, or those of the chunk a streamed scan holds.
    var count: Int
    let ids: UnsafeMutableBufferPointer<Int64>
    let scales: UnsafeMutableBufferPointer<Float>
    let codes: UnsafeMutableBufferPointer<Int8>
    /// The float32 block of each row: block `blockIds[b]` holds rows `blockStarts[b]..<blockStarts[b + 1]`.
    var blockIds: [Int64] = []
    var blockStarts: [Int] = []

    /// The sidecar the buffers lie in (kept mapped while they are used); nil: this object
    /// allocated them.
    private let mapping: VectorSidecarMapping?

    init(dimension: Int, count: Int) {
        self.dimension = dimension
        self.capacity = count
        self.count = count
        ids = .allocate(capacity: max(count, 1))
        scales = .allocate(capacity: max(count, 1))
        codes = .allocate(capacity: max(count * dimension, 1))
        mapping = nil
    }

    /// The rows of a sidecar's section, read in place (the mapping is read-only: nothing
    /// writes these buffers).
    init(mapping: VectorSidecarMapping, section: VectorSidecar.Section, blockIds: [Int64], blockStarts: [Int]) {
        dimension = section.dimension
        capacity = section.count
        count = section.count
        func pointer<T>(_ offset: Int, _ type: T.Type) -> UnsafeMutablePointer<T> {
            UnsafeMutablePointer(mutating: (mapping.base + offset).assumingMemoryBound(to: T.self))
        }
        ids = UnsafeMutableBufferPointer(start: pointer(section.ids, Int64.self), count: section.count)
        scales = UnsafeMutableBufferPointer(start: pointer(section.scales, Float.self), count: section.count)
        codes = UnsafeMutableBufferPointer(start: pointer(section.codes, Int8.self), count: section.count * section.dimension)
        self.blockIds = blockIds
        self.blockStarts = blockStarts
        self.mapping = mapping
    }

    /// Whether the rows are read in place from the sidecar.
    var isMapped: Bool { mapping != nil }

    deinit {
        guard mapping == nil else { return }
        ids.deallocate()
        scales.deallocate()
        codes.deallocate()
    }

    /// Where row `row`'s float32 vector lies: its block and slot.
    func place(of row: Int) -> (block: Int64, slot: Int) {
        var low = 0
        var high = blockIds.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if blockStarts[middle] <= row { low = middle } else { high = middle - 1 }
        }
        return (blockIds[low], row - blockStarts[low])
    }

    /// The `keep` rows with the highest approximate cosine to `query`, best first, among the
    /// ids `allowed` lets through; the scan runs on `workers` threads.
    func candidates(for query: [Float], keep: Int, allowed: IdBitmap? = nil,
                    workers: Int = ProcessInfo.processInfo.activeProcessorCount) -> [(row: Int, score: Float)] {
        guard query.count == dimension, keep > 0, count > 0 else { return [] }
        // The query as int16 (to ±8191: sums stay within 32 bits), far finer than the codes.
        let largest = query.reduce(Float(0)) { max($0, abs($1)) }
        let queryScale = largest > 0 ? largest / 8191 : 1
        let quantized = query.map { Int16(($0 / queryScale).rounded()) }
        // Pieces of at least 16k rows: below that a thread costs more than it saves.
        let pieces = max(1, min(workers, count / 16_384))
        let size = (count + pieces - 1) / pieces
        let found = ParallelWork.map(pieces, workers: pieces) { piece -> [(row: Int, score: Float)] in
            let start = piece * size
            let rows = min(size, count - start)
            guard rows > 0 else { return [] }
            var scores = [Float](repeating: 0, count: keep)
            var places = [UInt32](repeating: 0, count: keep)
            let filled = quantized.withUnsafeBufferPointer { q in
                scores.withUnsafeMutableBufferPointer { scores in
                    places.withUnsafeMutableBufferPointer { places in
                        Self.scan(self, start: start, rows: rows, query: q.baseAddress!, queryScale: queryScale,
                                  allowed: allowed, keep: keep, scores: scores.baseAddress!, places: places.baseAddress!)
                    }
                }
            }
            return (0..<filled).map { (Int(places[$0]), scores[$0]) }
        }
        let merged = found.flatMap { (try? $0.get()) ?? [] }
        return Array(merged.sorted { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }.prefix(keep))
    }

    private static func scan(_ vectors: CompactVectors, start: Int, rows: Int, query: UnsafePointer<Int16>, queryScale: Float,
                             allowed: IdBitmap?, keep: Int, scores: UnsafeMutablePointer<Float>, places: UnsafeMutablePointer<UInt32>) -> Int {
        let dimension = vectors.dimension
        let codes = vectors.codes.baseAddress! + start * dimension
        let scales = vectors.scales.baseAddress! + start
        let ids = vectors.ids.baseAddress! + start
        guard let allowed else {
            return lectern_scan_int8(codes, scales, ids, rows, dimension, query, queryScale, nil, 0, keep, UInt32(start), scores, places)
        }
        return allowed.words.withUnsafeBufferPointer { words in
            lectern_scan_int8(codes, scales, ids, rows, dimension, query, queryScale, words.baseAddress, words.count, keep,
                              UInt32(start), scores, places)
        }
    }
}

/// A set of row ids (passages, topics) as one bit per id: what a filter lets a scan through.
struct IdBitmap: Sendable, Equatable {
    private(set) var words: [UInt64] = []

    init() {}

    init<S: Sequence>(_ ids: S) where S.Element == Int64 {
        for id in ids { insert(id) }
    }

    mutating func insert(_ id: Int64) {
        guard id >= 0 else { return }
        let word = Int(id >> 6)
        if word >= words.count { words += [UInt64](repeating: 0, count: max(word + 1 - words.count, words.count / 2)) }
        words[word] |= 1 << UInt64(id & 63)
    }

    func contains(_ id: Int64) -> Bool {
        guard id >= 0, Int(id >> 6) < words.count else { return false }
        return words[Int(id >> 6)] >> UInt64(id & 63) & 1 == 1
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    func intersection(_ other: IdBitmap) -> IdBitmap {
        var result = IdBitmap()
        result.words = zip(words, other.words).map { $0 & $1 }
        return result
    }
}
