import CGemm
import XCTest
@testable import Lectern

/// The product of a few rows with an unpacked weight (`lectern_gemm_rows`, what a search
/// query's dozen tokens go through instead of packing the model's weights) against a sum in
/// Double through every kernel this CPU runs; and a query embedded alone (unpacked) against the
/// same query embedded in a batch (packed).
final class GemmRowsTests: XCTestCase {
    private func values(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(state >> 40) - (1 << 23)) / Float(1 << 23)
        }
    }

    func testEveryKernelMatchesTheDoubleSumOnRaggedShapes() {
        var ran = Set<String>()
        // Output counts past blocks of four, depths past whole vectors of 4, 8 and 16 lanes, and
        // strides wider than the rows (a part of the query-key-value weight writes a third of C's row).
        for (m, n, k) in [(1, 1, 1), (3, 7, 5), (12, 384, 384), (5, 9, 1536), (32, 13, 37), (2, 4, 17)] {
            let lda = k + 3, ldw = k + 1, ldc = n + 6
            let a = values(m * lda, seed: UInt64(m * 31 + k)), w = values(n * ldw, seed: UInt64(n * 17 + k))
            let start = values(m * ldc, seed: 7)
            for accumulate in [false, true] {
                for kernel in ["avx512", "avx2", "portable"] {
                    var c = start
                    guard lectern_gemm_rows_by(kernel, Int32(m), Int32(n), Int32(k), a, Int32(lda), w, Int32(ldw), &c, Int32(ldc),
                                               accumulate ? 1 : 0) == 1 else { continue }
                    ran.insert(kernel)
                    for i in 0..<m {
                        for j in 0..<ldc {
                            var want = start[i * ldc + j]
                            if j < n {
                                var sum = 0.0
                                for p in 0..<k { sum += Double(a[i * lda + p]) * Double(w[j * ldw + p]) }
                                want = Float(sum) + (accumulate ? start[i * ldc + j] : 0)
                            }
                            XCTAssertEqual(c[i * ldc + j], want, accuracy: 1e-4 * Float(k).squareRoot() + 1e-6,
                                           "\(kernel) \(m)×\(n)×\(k) accumulate \(accumulate) at [\(i)][\(j)]")
                        }
                    }
                }
            }
        }
        XCTAssertTrue(ran.contains("portable"))
        XCTAssertTrue(ran.contains(String(cString: lectern_gemm_kernel())), "the kernel in use was tested")
    }

    /// A query's vector does not depend on how it was computed: alone (a dozen rows, the weights
    /// read unpacked) and in a batch with a long passage (hundreds of rows, packed panels) agree
    /// to float rounding, so a search scores a passage the same either way.
    func testAQueryAloneAndInABatchGetTheSameVector() throws {
        let embedder = try MiniLMFixtures.embedder()
        let query = "why does a spinning figure skater speed up"
        let passage = try XCTUnwrap(MiniLMFixtures.reference().passages.first { $0.text.count > 800 }).text
        let alone = try XCTUnwrap(try embedder.embed([query]).first)
        let batch = try embedder.embed([passage, query])
        let cosine = zip(alone, batch[1]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        XCTAssertGreaterThanOrEqual(cosine, 0.99999)
        let reference = try XCTUnwrap(try MiniLMFixtures.reference().passages.first { $0.text.count > 800 })
        XCTAssertGreaterThan(zip(batch[0], reference.values).reduce(Float(0)) { $0 + $1.0 * $1.1 }, 0.9999, "the packed path still gives the reference vector")
    }
}
