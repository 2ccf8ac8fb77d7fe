import CGemm
import Foundation

/// Scratch matrices of one encode call, kept between calls: fresh 30 MB buffers per batch would
/// cost page faults and zeroing on every call. Every one starts on a cache line (AlignedFloats),
/// and its rows (384, 1,152 or 1,536 floats) are whole lines: a tile's row of C or a pass's
/// vector then never straddles two lines. As [Float] a buffer's floats began past malloc's
/// 16-byte boundary and the array's 32-byte header (48 bytes into a line for a freshly mapped
/// block), and every other 32-byte load or store of the AVX2 tiles and passes split in two.
final class Workspace {
    private(set) var x = AlignedFloats(count: 0)
    private(set) var qkv = AlignedFloats(count: 0)
    private(set) var context = AlignedFloats(count: 0)
    private(set) var projected = AlignedFloats(count: 0)
    private(set) var intermediate = AlignedFloats(count: 0)
    private(set) var scores = AlignedFloats(count: 0)
    /// One head's keys and values of one sequence, packed for the attention products.
    private(set) var packedKeys = AlignedFloats(count: 0)
    private(set) var packedValues = AlignedFloats(count: 0)

    func reserve(tokens: Int, hidden: Int, intermediate width: Int, longest: Int, headSize: Int) {
        func grow(_ buffer: inout AlignedFloats, _ count: Int) {
            if buffer.count < count { buffer = AlignedFloats(count: count) }
        }
        grow(&x, tokens * hidden)
        grow(&qkv, tokens * 3 * hidden)
        grow(&context, tokens * hidden)
        grow(&projected, tokens * hidden)
        grow(&intermediate, tokens * width)
        grow(&scores, longest * longest)
        grow(&packedKeys, lectern_gemm_packed_count(Int32(longest), Int32(headSize)))
        grow(&packedValues, lectern_gemm_packed_count(Int32(headSize), Int32(longest)))
    }
}

/// Workspaces for batches running side by side; one per batch in flight.
// Safe: a `Workspace` (scratch buffers, not Sendable) belongs to one batch at a time: `take`
// hands it out of the locked list and `give` puts it back, so no two threads hold one at once.
final class WorkspacePool: @unchecked Sendable {
    private let idle = Locked<[Workspace]>([])

    func take() -> Workspace { idle.withLock { $0.popLast() } ?? Workspace() }
    func give(_ workspace: Workspace) { idle.withLock { $0.append(workspace) } }
}
