/// Floats on a 64-byte boundary, a cache line: the matrix product's kernels load a packed
/// panel's row 32 or 64 bytes at a time, and an array's storage (16-byte aligned) would split
/// every other load across two lines and spread a panel over twice the lines of L1.
// Safe: the storage is written only through `withUnsafeMutableBufferPointer` or `start`, by the
// owner that holds the one reference while it fills it (a weight at model load, a workspace in
// its batch); shared afterwards, it is only read.
final class AlignedFloats: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Float>
    let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(1, count) * MemoryLayout<Float>.stride, alignment: 64)
            .initializeMemory(as: Float.self, repeating: 0, count: max(1, count))
    }

    deinit { base.deallocate() }

    /// The first float, for code that holds this object for as long as it uses the pointer (an
    /// encoder's workspace during its batch).
    var start: UnsafeMutablePointer<Float> { base }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }
}
