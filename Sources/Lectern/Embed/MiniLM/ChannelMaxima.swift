/// The largest |value| of each input channel of each product of each layer, over the rows the
/// encoder multiplied while it was recording (the calibration run, in float32).
final class ChannelMaxima {
    private(set) var maxima: [[[Float]]]

    init(layers: Int, hidden: Int, intermediate: Int) {
        maxima = (0..<layers).map { _ in
            Smoothing.Product.allCases.map { [Float](repeating: 0, count: $0 == .ffnDown ? intermediate : hidden) }
        }
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
