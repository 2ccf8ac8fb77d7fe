import CGemm
import Foundation
import XCTest

/// The encoder's passes between its matrix products (Sources/CGemm/encoder_ops.c: GELU,
/// residual + LayerNorm, attention's softmax, the rows' rescaling) against the same formulas in
/// Double, through every kernel this CPU can run, on widths that are not whole vectors (MiniLM's
/// are 384 and 1,536, attention's the sequence's length). The encoder's vectors themselves are
/// held to sentence-transformers' by MiniLMParityTests.
final class EncoderOpsTests: XCTestCase {
    private let kernels = ["avx512", "avx2", "portable"]
    private let widths = [1, 7, 16, 33, 248, 384, 1536]

    /// Reproducible values in [-scale, scale).
    private func values(_ count: Int, seed: UInt64, scale: Float = 1) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return scale * Float(Int64(state >> 40) - (1 << 23)) / Float(1 << 23)
        }
    }

    /// Runs `body` for each kernel this CPU has; checks the portable one and the one in use ran.
    private func forEachKernel(_ body: (String) -> Bool) {
        var ran = Set<String>()
        for kernel in kernels where body(kernel) { ran.insert(kernel) }
        XCTAssertTrue(ran.contains("portable"))
        XCTAssertTrue(ran.contains(String(cString: lectern_gemm_kernel())), "the kernel in use was tested")
    }

    func testGELUIsBERTsErfFormWithTheBiasAdded() {
        for width in widths {
            let rows = 3
            // Past erf's ±4 clamp on both sides, and around 0.
            let start = values(rows * width, seed: UInt64(width), scale: 7)
            let bias = values(width, seed: 5, scale: 0.5)
            let expected = start.indices.map { index -> Float in
                let x = Double(start[index]) + Double(bias[index % width])
                return Float(0.5 * x * (1 + erf(x / 2.0.squareRoot())))
            }
            forEachKernel { kernel in
                var out = start
                guard lectern_gelu_by(kernel, &out, Int32(rows), Int32(width), bias) == 1 else { return false }
                for index in out.indices {
                    XCTAssertEqual(out[index], expected[index], accuracy: 2e-6 * max(1, abs(expected[index])),
                                   "\(kernel) width \(width) at \(index)")
                }
                return true
            }
        }
    }

    func testResidualLayerNormMatchesTheDoubleFormula() {
        for width in widths where width > 1 {
            let rows = 4
            let start = values(rows * width, seed: UInt64(width) + 1, scale: 3)
            let residual = values(rows * width, seed: UInt64(width) + 2, scale: 2)
            let residualBias = values(width, seed: 3, scale: 0.3)
            let gain = values(width, seed: 4).map { 1 + $0 / 2 }
            let bias = values(width, seed: 6, scale: 0.2)
            for withResidual in [true, false] {
                var expected = [Float](repeating: 0, count: rows * width)
                for r in 0..<rows {
                    let row = (0..<width).map { j -> Double in
                        let i = r * width + j
                        return Double(start[i]) + (withResidual ? Double(residual[i]) + Double(residualBias[j]) : 0)
                    }
                    let mean = row.reduce(0, +) / Double(width)
                    let variance = row.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(width)
                    let inverse = 1 / (variance + 1e-12).squareRoot()
                    for j in 0..<width { expected[r * width + j] = Float((row[j] - mean) * inverse * Double(gain[j]) + Double(bias[j])) }
                }
                forEachKernel { kernel in
                    var out = start
                    let done = withResidual
                        ? lectern_add_layer_norm_by(kernel, &out, residual, residualBias, Int32(rows), Int32(width), gain, bias, 1e-12)
                        : lectern_add_layer_norm_by(kernel, &out, nil, nil, Int32(rows), Int32(width), gain, bias, 1e-12)
                    guard done == 1 else { return false }
                    for index in out.indices {
                        XCTAssertEqual(out[index], expected[index], accuracy: 2e-5 * max(1, abs(expected[index])),
                                       "\(kernel) width \(width) residual \(withResidual) at \(index)")
                    }
                    return true
                }
            }
        }
    }

    /// Numerators times the row's inverse sum are the softmax, also for scores far outside
    /// e^x's range (the row's largest is subtracted first) and for a row of one.
    func testSoftmaxNumeratorsAndInverseSumsGiveTheSoftmax() {
        for width in widths {
            for scale: Float in [4, 300] {
                let rows = 3
                let start = values(rows * width, seed: UInt64(width) * 3, scale: scale)
                var expected = [Double](repeating: 0, count: rows * width)
                for r in 0..<rows {
                    let row = (0..<width).map { Double(start[r * width + $0]) }
                    let top = row.max()!
                    let sum = row.reduce(0) { $0 + exp($1 - top) }
                    for j in 0..<width { expected[r * width + j] = exp(row[j] - top) / sum }
                }
                forEachKernel { kernel in
                    var out = start
                    var inverses = [Float](repeating: .nan, count: rows)
                    guard lectern_softmax_numerators_by(kernel, &out, Int32(rows), Int32(width), &inverses) == 1 else { return false }
                    for r in 0..<rows {
                        var total = 0.0
                        for j in 0..<width {
                            let p = Double(out[r * width + j]) * Double(inverses[r])
                            total += p
                            XCTAssertEqual(p, expected[r * width + j], accuracy: 1e-6 + 1e-5 * expected[r * width + j],
                                           "\(kernel) width \(width) scale \(scale) at [\(r)][\(j)]")
                        }
                        XCTAssertEqual(total, 1, accuracy: 1e-5, "\(kernel) width \(width) row \(r) sums to 1")
                    }
                    return true
                }
            }
        }
    }

    /// Attention scales one head's 32 columns of rows `hidden` apart: the other columns stay.
    func testScaleRowsTouchesOnlyItsColumns() {
        for width in [1, 7, 32, 40] {
            let rows = 5
            let ld = width + 9
            let start = values(rows * ld, seed: UInt64(width) + 11)
            let factors = values(rows, seed: 17, scale: 3)
            forEachKernel { kernel in
                var out = start
                guard lectern_scale_rows_by(kernel, &out, Int32(rows), Int32(width), Int32(ld), factors) == 1 else { return false }
                for r in 0..<rows {
                    for j in 0..<ld {
                        let i = r * ld + j
                        XCTAssertEqual(out[i], j < width ? start[i] * factors[r] : start[i], accuracy: 1e-6,
                                       "\(kernel) width \(width) at [\(r)][\(j)]")
                    }
                }
                return true
            }
        }
    }
}
