import COpenBLAS

/// GELU with the exact erf form BERT uses, x·½·(1 + erf(x/√2)). erf is a rational
/// approximation (Eigen's and XLA's float erf, error ≈ 1e-7) written without branches or libm
/// calls, so that the compiler vectorises the loop: it runs on 1,536 values per token per layer.
enum GELU {
    /// values[r][j] = GELU(values[r][j] + bias[j]): the linear layer's bias is added here.
    static func apply(_ values: UnsafeMutablePointer<Float>, rows: Int, width: Int, bias: UnsafePointer<Float>) {
        for r in 0..<rows {
            let row = values + r * width
            for j in 0..<width {
                let x = row[j] + bias[j]
                row[j] = 0.5 * x * (1 + erf(x * 0.70710678118654752))
            }
        }
    }

    @inline(__always)
    static func erf(_ value: Float) -> Float {
        let x = min(max(value, -4), 4)
        let x2 = x * x
        var p: Float = -2.72614225801306e-10
        p = p * x2 + 2.77068142495902e-08
        p = p * x2 - 2.10102402082508e-06
        p = p * x2 - 5.69250639462346e-05
        p = p * x2 - 7.34990630326855e-04
        p = p * x2 - 2.95459980854025e-03
        p = p * x2 - 1.60960333262415e-02
        p = p * x
        var q: Float = -1.45660718464996e-05
        q = q * x2 - 2.13374055278905e-04
        q = q * x2 - 1.68282697438203e-03
        q = q * x2 - 7.37332916720468e-03
        q = q * x2 - 1.42647390514189e-02
        return p / q
    }
}

/// Row-wise softmax with a branch-free exp (Cephes' float polynomial, about 1 ulp) that the
/// compiler vectorises: attention takes length² exponentials per head and layer, too many for
/// libm calls one by one.
enum Softmax {
    static func rows(_ values: UnsafeMutablePointer<Float>, rows: Int, width: Int) {
        for r in 0..<rows {
            let row = values + r * width
            let largest = RowMath.max(row, count: width)
            for k in 0..<width { row[k] = exp(row[k] - largest) }
            let inverse = 1 / RowMath.sum(row, count: width)
            for k in 0..<width { row[k] *= inverse }
        }
    }

    /// Unnormalised softmax numerators of each row, with 1/Σ of each row in `inverseSums`: the
    /// caller scales the (narrower) product with V instead of the scores. `ones` holds `width` 1s.
    ///
    /// Softmax does not change when a row is shifted by a constant. When every score lies within
    /// ±80, e^score neither overflows nor leaves the normal range, so the usual per-row maximum
    /// is not needed: one exp pass over the whole matrix, and OpenBLAS sums the rows.
    static func exponentiate(_ values: UnsafeMutablePointer<Float>, rows: Int, width: Int, inverseSums: UnsafeMutablePointer<Float>,
                             ones: UnsafePointer<Float>) {
        let count = rows * width
        if count > 0, Swift.abs(values[Int(lazy_cblas_isamax(Int32(count), values, 1))]) < 80 {
            for k in 0..<count { values[k] = exp(unclamped: values[k]) }
            lazy_cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(rows), Int32(width), 1, values, Int32(width), ones, 1, 0, inverseSums, 1)
            for r in 0..<rows { inverseSums[r] = 1 / inverseSums[r] }
            return
        }
        for r in 0..<rows {
            let row = values + r * width
            let largest = RowMath.max(row, count: width)
            for k in 0..<width { row[k] = exp(row[k] - largest) }
            inverseSums[r] = 1 / RowMath.sum(row, count: width)
        }
    }

    /// e^x = 2^n · e^r with n = round(x / ln 2); the rounding adds and subtracts 1.5·2²³, which
    /// also leaves n in the low bits of the float, from which 2^n is built.
    @inline(__always)
    static func exp(_ value: Float) -> Float {
        exp(unclamped: value < -87.3 ? -87.3 : (value > 88.3 ? 88.3 : value))
    }

    /// e^x for x within ±87.
    @inline(__always)
    static func exp(unclamped x: Float) -> Float {
        let shifted = x * 1.44269504088896341 + 12_582_912
        let n = shifted - 12_582_912
        var r = x - n * 0.693359375
        r = r + n * 2.12194440e-4
        var p: Float = 1.9875691500e-4
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        let e = p * r * r + r + 1
        return e * Float(bitPattern: (shifted.bitPattern &- 0x4B40_0000 &+ 127) &<< 23)
    }
}

/// Sums and means over rows of floats, 16 lanes at a time (LayerNorm's reductions).
enum RowMath {
    typealias Lanes = SIMD16<Float>

    @inline(__always)
    static func max(_ row: UnsafeMutablePointer<Float>, count: Int) -> Float {
        // Four independent running maxima, so the comparisons overlap.
        var (a, b, c, d) = (-Float.infinity, -Float.infinity, -Float.infinity, -Float.infinity)
        var j = 0
        while j + 4 <= count {
            a = row[j] > a ? row[j] : a
            b = row[j + 1] > b ? row[j + 1] : b
            c = row[j + 2] > c ? row[j + 2] : c
            d = row[j + 3] > d ? row[j + 3] : d
            j += 4
        }
        var largest = Swift.max(Swift.max(a, b), Swift.max(c, d))
        while j < count {
            if row[j] > largest { largest = row[j] }
            j += 1
        }
        return largest
    }

    @inline(__always)
    static func sum(_ row: UnsafeMutablePointer<Float>, count: Int) -> Float {
        var lanes = Lanes()
        var j = 0
        while j + Lanes.scalarCount <= count {
            lanes += UnsafeRawPointer(row + j).loadUnaligned(as: Lanes.self)
            j += Lanes.scalarCount
        }
        var total = lanes.sum()
        while j < count {
            total += row[j]
            j += 1
        }
        return total
    }

    @inline(__always)
    static func sumOfSquaredDeviations(_ row: UnsafeMutablePointer<Float>, count: Int, mean: Float) -> Float {
        var lanes = Lanes()
        let means = Lanes(repeating: mean)
        var j = 0
        while j + Lanes.scalarCount <= count {
            let d = UnsafeRawPointer(row + j).loadUnaligned(as: Lanes.self) - means
            lanes += d * d
            j += Lanes.scalarCount
        }
        var total = lanes.sum()
        while j < count {
            let d = row[j] - mean
            total += d * d
            j += 1
        }
        return total
    }
}
