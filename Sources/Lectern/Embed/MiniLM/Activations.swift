/// GELU with the exact erf form BERT uses, x·½·(1 + erf(x/√2)). erf is a rational
/// approximation (Eigen's and XLA's float erf, error ≈ 1e-7) written without branches or libm
/// calls, so that the compiler vectorises the loop: it runs on 1,536 values per token per layer.
enum GELU {
    static func apply(_ values: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let x = values[i]
            values[i] = 0.5 * x * (1 + erf(x * 0.70710678118654752))
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

/// Row-wise softmax with a branch-free exp (Cephes' float polynomial, about 1 ulp): attention
/// takes length² exponentials per head and layer, too many for libm calls one by one.
enum Softmax {
    static func rows(_ values: UnsafeMutablePointer<Float>, rows: Int, width: Int) {
        for r in 0..<rows {
            let row = values + r * width
            var largest = -Float.infinity
            for j in 0..<width { largest = max(largest, row[j]) }
            var sum: Float = 0
            for j in 0..<width {
                let e = exp(row[j] - largest)
                row[j] = e
                sum += e
            }
            let inverse = 1 / sum
            for j in 0..<width { row[j] *= inverse }
        }
    }

    @inline(__always)
    static func exp(_ value: Float) -> Float {
        let x = min(max(value, -87.3), 88.3)
        let n = (x * 1.44269504088896341).rounded(.toNearestOrEven)
        var r = x - n * 0.693359375
        r = r + n * 2.12194440e-4
        var p: Float = 1.9875691500e-4
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        let e = p * r * r + r + 1
        let scale = Float(bitPattern: UInt32(truncatingIfNeeded: Int32(n) + 127) << 23)
        return e * scale
    }
}
