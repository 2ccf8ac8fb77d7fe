import Foundation

/// Where the subject of a document without usable structure (a lecture transcript, one long
/// page) shifts: a TextTiling-style cut (Hearst 1997) over its consecutive passage vectors.
/// The similarity between the windows before and after each gap forms a curve; a gap in a deep
/// valley of that curve is where one subject ends and another starts.
enum TopicSegmentation {
    /// Passages on each side of a gap whose mean vectors are compared.
    static let window = 2
    /// A topic shorter than this (in tokens) joins a neighbour: longer than one passage (254),
    /// so that no topic is a single passage, and a few minutes of reading.
    static let minimumTokens = 450
    /// A topic longer than this is cut at its deepest gap even when no gap is deep: a
    /// 10-minute study stretch (~2,000 tokens ≈ 1,500 words).
    static let maximumTokens = 2_000

    /// Consecutive, non-empty ranges that cover `0..<vectors.count` in order, one per topic.
    static func segments(vectors: [[Float]], tokenCounts: [Int]) -> [Range<Int>] {
        segments(vectors: vectors, tokenCounts: tokenCounts, minimumTokens: minimumTokens, maximumTokens: maximumTokens)
    }

    static func segments(vectors: [[Float]], tokenCounts: [Int], minimumTokens: Int, maximumTokens: Int) -> [Range<Int>] {
        let n = vectors.count
        guard n > 1 else { return n == 0 ? [] : [0..<n] }
        let tokens = (0..<n).map { $0 < tokenCounts.count ? max(tokenCounts[$0], 1) : 1 }
        let total = tokens.reduce(0, +)
        guard total >= 2 * minimumTokens else { return [0..<n] }

        let depths = depthScores(vectors)
        // depths[g] belongs to the gap before passage g + 1.
        let positive = depths.filter { $0 > 0 }
        let mean = positive.isEmpty ? 0 : positive.reduce(0, +) / Float(positive.count)
        let variance = positive.isEmpty ? 0 : positive.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(positive.count)
        let cutoff = max(mean - variance.squareRoot() / 2, 0.0001)

        // Prefix sums: the tokens of any range in constant time.
        var prefix = [0]
        for count in tokens { prefix.append(prefix.last! + count) }
        func size(_ range: Range<Int>) -> Int { prefix[range.upperBound] - prefix[range.lowerBound] }

        // Deepest gaps first; a cut is kept when both sides stay at least the minimum size.
        var cuts: [Int] = []
        for gap in depths.indices.sorted(by: { depths[$0] != depths[$1] ? depths[$0] > depths[$1] : $0 < $1 })
        where depths[gap] >= cutoff && isLocalPeak(depths, gap) {
            let boundary = gap + 1
            if fits(boundary, into: cuts, total: n, size: size, minimum: minimumTokens) { cuts.append(boundary) }
        }
        cuts.sort()

        // A topic still too long is cut at its deepest admissible gap, until none is.
        var ranges = ranges(from: cuts, count: n)
        var changed = true
        while changed {
            changed = false
            for (index, range) in ranges.enumerated() where size(range) > maximumTokens {
                let candidates = (range.lowerBound + 1)..<range.upperBound
                let best = candidates.filter {
                    size(range.lowerBound..<$0) >= minimumTokens && size($0..<range.upperBound) >= minimumTokens
                }.max { a, b in
                    // The deepest gap; among equals, the one nearest the middle.
                    if depths[a - 1] != depths[b - 1] { return depths[a - 1] < depths[b - 1] }
                    return abs(size(range.lowerBound..<a) - size(range) / 2) > abs(size(range.lowerBound..<b) - size(range) / 2)
                }
                    // No gap leaves both sides big enough: cut nearest the middle.
                    ?? candidates.min { abs(size(range.lowerBound..<$0) - size(range) / 2) < abs(size(range.lowerBound..<$1) - size(range) / 2) }
                guard let best else { continue }
                ranges.replaceSubrange(index...index, with: [range.lowerBound..<best, best..<range.upperBound])
                changed = true
                break
            }
        }
        return ranges
    }

    /// One depth score per gap (n − 1 of them): how far the smoothed similarity curve falls at
    /// the gap below the highest points reached climbing from it to the left and to the right.
    static func depthScores(_ vectors: [[Float]]) -> [Float] {
        let n = vectors.count
        guard n > 1 else { return [] }
        let similarities: [Float] = (1..<n).map { boundary in
            let left = mean(vectors[max(0, boundary - window)..<boundary])
            let right = mean(vectors[boundary..<min(n, boundary + window)])
            return cosine(left, right)
        }
        // Smoothing by a moving average of three removes single-gap noise.
        let smoothed: [Float] = similarities.indices.map { i in
            let part = similarities[max(0, i - 1)...min(similarities.count - 1, i + 1)]
            return part.reduce(0, +) / Float(part.count)
        }
        return smoothed.indices.map { i in
            var left = smoothed[i]
            var j = i
            while j > 0, smoothed[j - 1] >= left { left = smoothed[j - 1]; j -= 1 }
            var right = smoothed[i]
            j = i
            while j < smoothed.count - 1, smoothed[j + 1] >= right { right = smoothed[j + 1]; j += 1 }
            return (left - smoothed[i]) + (right - smoothed[i])
        }
    }

    private static func isLocalPeak(_ depths: [Float], _ gap: Int) -> Bool {
        (gap == 0 || depths[gap - 1] <= depths[gap]) && (gap == depths.count - 1 || depths[gap + 1] <= depths[gap])
    }

    private static func fits(_ boundary: Int, into cuts: [Int], total: Int, size: (Range<Int>) -> Int, minimum: Int) -> Bool {
        let before = cuts.filter { $0 < boundary }.max() ?? 0
        let after = cuts.filter { $0 > boundary }.min() ?? total
        return size(before..<boundary) >= minimum && size(boundary..<after) >= minimum
    }

    private static func ranges(from cuts: [Int], count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for cut in cuts where cut > start && cut < count {
            ranges.append(start..<cut)
            start = cut
        }
        ranges.append(start..<count)
        return ranges
    }

    static func mean<C: Collection>(_ vectors: C) -> [Float] where C.Element == [Float] {
        guard let first = vectors.first else { return [] }
        var sum = [Float](repeating: 0, count: first.count)
        for vector in vectors where vector.count == sum.count {
            for j in sum.indices { sum[j] += vector[j] }
        }
        return sum
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var dot: Float = 0, na: Float = 0, nb: Float = 0
        for j in a.indices {
            dot += a[j] * b[j]
            na += a[j] * a[j]
            nb += b[j] * b[j]
        }
        guard na > 0, nb > 0 else { return 0 }
        return dot / (na.squareRoot() * nb.squareRoot())
    }
}
