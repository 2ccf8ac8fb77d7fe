import CGemm
import Foundation

/// Scratch matrices of one encode call, kept between calls: fresh 30 MB buffers per batch would
/// cost page faults and zeroing on every call.
final class Workspace {
    var x: [Float] = []
    var qkv: [Float] = []
    var context: [Float] = []
    var projected: [Float] = []
    var intermediate: [Float] = []
    var scores: [Float] = []
    /// One head's keys and values of one sequence, packed for the attention products (on a
    /// cache line's boundary, as PackedWeight's panels).
    var packedKeys = AlignedFloats(count: 0)
    var packedValues = AlignedFloats(count: 0)

    func reserve(tokens: Int, hidden: Int, intermediate width: Int, longest: Int, headSize: Int) {
        func grow(_ buffer: inout [Float], _ count: Int) {
            if buffer.count < count { buffer = [Float](repeating: 0, count: count) }
        }
        grow(&x, tokens * hidden)
        grow(&qkv, tokens * 3 * hidden)
        grow(&context, tokens * hidden)
        grow(&projected, tokens * hidden)
        grow(&intermediate, tokens * width)
        grow(&scores, longest * longest)
        func growAligned(_ buffer: inout AlignedFloats, _ count: Int) {
            if buffer.count < count { buffer = AlignedFloats(count: count) }
        }
        growAligned(&packedKeys, lectern_gemm_packed_count(Int32(longest), Int32(headSize)))
        growAligned(&packedValues, lectern_gemm_packed_count(Int32(headSize), Int32(longest)))
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
