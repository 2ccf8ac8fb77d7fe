/// The largest |value| of each input channel of each product of each layer, over the rows the
/// encoder multiplied while it was recording (the calibration run, in float32).
final class ChannelMaxima {
    private(set) var maxima: [[[Float]]]

    init(layers: Int, hidden: Int, intermediate: Int) {
        maxima = (0..<layers).map { _ in
            Smoothing.Product.allCases.map { [Float](repeating: 0, count: $0 == .ffnDown ? intermediate : hidden) }
        }
    }

    /// The maxima written out by `flat` (layer by layer, product by product), or nil when
    /// `values` is not of that size.
    convenience init?(flat values: [Float], layers: Int, hidden: Int, intermediate: Int) {
        self.init(layers: layers, hidden: hidden, intermediate: intermediate)
        guard values.count == Self.count(layers: layers, hidden: hidden, intermediate: intermediate) else { return nil }
        var next = 0
        for layer in maxima.indices {
            for product in maxima[layer].indices {
                let width = maxima[layer][product].count
                maxima[layer][product] = Array(values[next..<(next + width)])
                next += width
            }
        }
    }

    /// Every value, layer by layer, product by product.
    var flat: [Float] { maxima.flatMap { $0.flatMap { $0 } } }

    static func count(layers: Int, hidden: Int, intermediate: Int) -> Int {
        layers * Smoothing.Product.allCases.reduce(0) { $0 + ($1 == .ffnDown ? intermediate : hidden) }
    }

    func record(layer: Int, _ product: Smoothing.Product, _ input: UnsafePointer<Float>, rows: Int) {
        let width = maxima[layer][product.rawValue].count
        maxima[layer][product.rawValue].withUnsafeMutableBufferPointer { top in
            for r in 0..<rows {
                let row = input + r * width
                for j in 0..<width { top[j] = max(top[j], abs(row[j])) }
            }
        }
    }
}
