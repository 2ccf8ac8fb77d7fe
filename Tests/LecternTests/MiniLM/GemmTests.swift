import CGemm
import XCTest
@testable import Lectern

/// Lectern's own matrix product (Sources/CGemm) against a product summed in Double, on shapes
/// that are not whole tiles, panels or depth blocks, through every kernel this CPU can run; and
/// the bfloat16 embedder against the float32 one on real passages.
final class GemmTests: XCTestCase {
    /// Reproducible values in [-1, 1).
    private func values(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(state >> 40) - (1 << 23)) / Float(1 << 23)
        }
    }

    /// C = alpha · A · Bᵀ (+ C), A [m × k] in rows of `lda`, B [n × k].
    private func reference(m: Int, n: Int, k: Int, alpha: Float, a: [Float], lda: Int, b: [Float], c: [Float], ldc: Int,
                           accumulate: Bool) -> [Float] {
        var out = c
        for i in 0..<m {
            for j in 0..<n {
                var sum = 0.0
                for p in 0..<k { sum += Double(a[i * lda + p]) * Double(b[j * k + p]) }
                out[i * ldc + j] = Float(Double(alpha) * sum) + (accumulate ? c[i * ldc + j] : 0)
            }
        }
        return out
    }

    func testEveryKernelMatchesTheDoubleSumOnRaggedShapes() throws {
        let kernels = ["avx512", "avx2", "portable"]
        var ran = Set<String>()
        // Rows past whole tiles (12 for AVX-512, 6 for AVX2, 4 portable) and row blocks (96),
        // columns past panels (32) and half panels (16), depth past a depth block (384), and a row
        // stride wider than the depth. Products up to two panels wide read A where it lies in the
        // AVX2 kernel, wider ones pack it first: both, with attention's shapes (depth 32; 32
        // columns) among them.
        for (m, n, k) in [(1, 1, 1), (13, 45, 7), (29, 33, 385), (100, 17, 40), (7, 64, 800), (37, 37, 32), (43, 32, 43),
                          (50, 97, 33), (101, 130, 390),
                          (150, 70, 800)] {
            let lda = k + 3
            let ldc = n + 5
            let a = values(m * lda, seed: UInt64(m * 7 + k))
            let b = values(n * k, seed: UInt64(n * 13 + k))
            let start = values(m * ldc, seed: 99)
            var packed = [Float](repeating: .nan, count: lectern_gemm_packed_count(Int32(n), Int32(k)))
            lectern_gemm_pack_rows(Int32(n), Int32(k), b, Int32(k), &packed)
            for accumulate in [false, true] {
                let expected = reference(m: m, n: n, k: k, alpha: 0.5, a: a, lda: lda, b: b, c: start, ldc: ldc, accumulate: accumulate)
                for kernel in kernels {
                    var c = start
                    guard lectern_gemm_by(kernel, Int32(m), Int32(n), Int32(k), 0.5, a, Int32(lda), packed, &c, Int32(ldc),
                                          accumulate ? 1 : 0) == 1 else { continue }
                    ran.insert(kernel)
                    for i in 0..<m {
                        for j in 0..<ldc {
                            let index = i * ldc + j
                            // Columns past n are the caller's: never written.
                            let want = j < n ? expected[index] : start[index]
                            XCTAssertEqual(c[index], want, accuracy: 1e-4 * Float(k).squareRoot() + 1e-6,
                                           "\(kernel) \(m)×\(n)×\(k) accumulate \(accumulate) at [\(i)][\(j)]")
                        }
                    }
                }
            }
        }
        XCTAssertTrue(ran.contains("portable"))
        XCTAssertTrue(ran.contains(String(cString: lectern_gemm_kernel())), "the kernel in use was tested")
    }

    /// Attention multiplies by V as it lies in memory (k rows of n): packing by columns gives
    /// the same product as packing its transpose by rows.
    func testColumnPackingEqualsRowPackingOfTheTranspose() {
        let (m, n, k) = (21, 32, 50)
        let v = values(k * n, seed: 2)  // k rows of n
        var transposed = [Float](repeating: 0, count: n * k)
        for p in 0..<k { for j in 0..<n { transposed[j * k + p] = v[p * n + j] } }
        var byColumns = [Float](repeating: 0, count: lectern_gemm_packed_count(Int32(n), Int32(k)))
        var byRows = byColumns
        lectern_gemm_pack_columns(Int32(n), Int32(k), v, Int32(n), &byColumns)
        lectern_gemm_pack_rows(Int32(n), Int32(k), transposed, Int32(k), &byRows)
        XCTAssertEqual(byColumns, byRows)
    }

    /// Rows of a weight packed four at a time by 4 × 4 transposes (attention packs every head's
    /// keys so): columns past the last whole four and depths past the last whole four are still
    /// where the kernels read them (panel of 32 columns, depth after depth), zeros past n.
    func testRowPackingPlacesRaggedEdgesWhereTheKernelsReadThem() {
        for (n, k) in [(37, 6), (3, 5), (64, 32), (250, 33)] {
            let ldw = k + 2
            let w = values(n * ldw, seed: UInt64(n + k))
            var packed = [Float](repeating: .nan, count: lectern_gemm_packed_count(Int32(n), Int32(k)))
            lectern_gemm_pack_rows(Int32(n), Int32(k), w, Int32(ldw), &packed)
            let columns = (n + 31) / 32 * 32
            XCTAssertEqual(packed.count, columns * k)
            for j in 0..<columns {
                for p in 0..<k {
                    let index = (j / 32) * 32 * k + p * 32 + j % 32
                    XCTAssertEqual(packed[index], j < n ? w[j * ldw + p] : 0, "\(n)×\(k): column \(j) at depth \(p)")
                }
            }
        }
    }

    func testBfloat16ProductIsTheProductOfRoundedValues() {
        let (m, n, k) = (27, 40, 397)
        let a = values(m * k, seed: 5)
        let b = values(n * k, seed: 6)
        // bfloat16 keeps 8 significant bits: the product of the rounded values, summed in float.
        func rounded(_ x: Float) -> Float {
            let bits = x.bitPattern
            return Float(bitPattern: (bits &+ 0x7fff &+ ((bits >> 16) & 1)) & 0xffff_0000)
        }
        let expected = reference(m: m, n: n, k: k, alpha: 1, a: a.map(rounded), lda: k, b: b.map(rounded),
                                 c: [Float](repeating: 0, count: m * n), ldc: n, accumulate: false)
        var packed = [UInt16](repeating: 0, count: lectern_gemm_bf16_packed_count(Int32(n), Int32(k)))
        lectern_gemm_bf16_pack_rows(Int32(n), Int32(k), b, Int32(k), &packed)
        var native = [Float](repeating: 0, count: m * n)
        var portable = native
        lectern_gemm_bf16(Int32(m), Int32(n), Int32(k), a, Int32(k), packed, &native, Int32(n), 0)
        lectern_gemm_bf16_portable(Int32(m), Int32(n), Int32(k), a, Int32(k), packed, &portable, Int32(n), 0)
        for index in expected.indices {
            XCTAssertEqual(native[index], expected[index], accuracy: 2e-4, "at \(index)")
            XCTAssertEqual(portable[index], expected[index], accuracy: 2e-4, "at \(index)")
        }
        // And it is not the float32 product: the rounding is really there.
        let exact = reference(m: m, n: n, k: k, alpha: 1, a: a, lda: k, b: b, c: [Float](repeating: 0, count: m * n), ldc: n,
                              accumulate: false)
        XCTAssertGreaterThan(zip(exact, native).map { abs($0 - $1) }.max() ?? 0, 1e-3)
    }

    /// What a user of `--embedder minilm-bf16` gets: vectors within a cosine of 0.99 of the
    /// float32 model's, under their own name.
    func testBfloat16EmbedderStaysCloseToFloat32() throws {
        let float32 = try MiniLMFixtures.embedder()
        let bfloat16 = try MiniLMEmbedder(directory: MiniLMFixtures.modelDirectory(), precision: .bfloat16)
        XCTAssertEqual(bfloat16.info.name, "minilm-bf16")
        XCTAssertEqual(float32.info.name, "minilm")
        let texts = try MiniLMFixtures.reference().passages.prefix(16).map(\.text)
        let exact = try float32.embed(texts)
        let approximate = try bfloat16.embed(texts)
        var worst: Float = 1
        for (x, y) in zip(exact, approximate) {
            worst = min(worst, zip(x, y).reduce(Float(0)) { $0 + $1.0 * $1.1 })
        }
        XCTAssertGreaterThanOrEqual(worst, 0.99)
        XCTAssertLessThan(worst, 0.999999, "bfloat16 vectors identical to float32: the bf16 path did not run")
    }
}
