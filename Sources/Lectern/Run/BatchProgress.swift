import Foundation

/// How far a batch of inputs has gone, in bytes of input: what an ingest's time left is
/// measured in. Documents differ a thousandfold in size (a note, a 1,500-passage book), so a
/// count of documents makes the time left swing from seconds to hours; bytes of input follow
/// the passages to embed. An input found unchanged leaves the total (it costs next to
/// nothing), and the one being embedded counts by the share of its passages done.
final class BatchProgress: Sendable {
    private let sizes: [Int]
    /// Updated from the parallel readers of `lectern run --jobs N`.
    private struct Done {
        var finished: [Bool]
        var closed: Set<Int> = []
        var share: [Int: Double] = [:]
        var left = 0
    }
    private let done: Locked<Done>

    /// Nil when no input's size is known (web sources only): there is nothing to measure.
    init?(sizes: [Int]) {
        guard sizes.contains(where: { $0 > 0 }) else { return nil }
        self.sizes = sizes
        done = Locked(Done(finished: Array(repeating: false, count: sizes.count)))
    }

    /// Bytes of input done and in all, as events carry them.
    var work: (done: Int, total: Int) {
        done.withLock { work(of: $0) }
    }

    private func work(of state: Done) -> (done: Int, total: Int) {
        var done = 0
        for (index, size) in sizes.enumerated() {
            if state.finished[index] { done += size } else if let part = state.share[index] { done += Int(Double(size) * part) }
        }
        return (done, sizes.reduce(0, +) - state.left)
    }

    /// `index`'s embedding is `done` of `total` passages along.
    func advance(_ index: Int, done: Int, total: Int) -> (done: Int, total: Int) {
        self.done.withLock { state in
            if index < sizes.count, total > 0 { state.share[index] = min(1, Double(done) / Double(total)) }
            return work(of: state)
        }
    }

    /// `index` is done (stored or failed; the first word on it counts); `unchanged`: it cost
    /// nothing, so it leaves the total.
    func finish(_ index: Int, unchanged: Bool) {
        done.withLock { state in
            guard index < sizes.count, state.closed.insert(index).inserted else { return }
            if unchanged {
                state.left += sizes[index]
                state.share[index] = nil
            } else {
                state.finished[index] = true
            }
        }
    }

    /// The bytes a file or a folder (every file under it) holds; 0 when unknown.
    static func size(of path: String) -> Int {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
        if !isDirectory.boolValue { return ((try? manager.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0 }
        var total = 0
        let walker = manager.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += values?.fileSize ?? 0 }
        }
        return total
    }
}
