import CGemm
import XCTest
@testable import Lectern

/// The int8 product of `minilm-int8` (Sources/CGemm/gemm_int8.c) through every kernel this CPU
/// runs: its integer sums against exact sums, its floats against the same quantized arithmetic
/// summed in Double, and the embedder's vectors against float32's.
final class GemmInt8Tests: XCTestCase {
    static let kernels = ["avx512-vnni", "avx-vnni", "avx2", "portable"]

    /// Reproducible values in [-1, 1).
    private func values(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(state >> 40) - (1 << 23)) / Float(1 << 23)
        }
    }

    /// Shapes past whole tiles (12, 6, 4 rows; 32, 16, 4 columns), row blocks (96) and steps of
    /// 4 depths, with MiniLM's FFN depth among them.
    private let shapes = [(1, 1, 1), (13, 45, 7), (29, 33, 385), (100, 17, 40), (7, 64, 800), (101, 130, 390), (97, 96, 1536)]

    private struct Packed {
        var codes: [UInt8]
        var scales: [Float]
        var sums: [Int32]
    }

    private func pack(_ w: [Float], n: Int, k: Int) -> Packed {
        var packed = Packed(codes: [UInt8](repeating: 0xAA, count: lectern_gemm_i8_packed_size(Int32(n), Int32(k))),
                            scales: [Float](repeating: 0, count: n), sums: [Int32](repeating: 0, count: n))
        packed.codes.withUnsafeMutableBytes { bytes in
            lectern_gemm_i8_pack_rows(Int32(n), Int32(k), w, Int32(k), bytes.baseAddress!, &packed.scales, &packed.sums)
        }
        return packed
    }

    /// Column j's code at depth p, where the header says the packing puts it.
    /// The int8 product in Double from A's codes (as the product quantizes its rows) and B's packed
    /// codes, and the exact product of the floats `a` (rows `lda` apart) and `w`: m × n, row-major.
    private func doubleReference(codes: [UInt8], zeros: [Int32], rowScales: [Float], packed: Packed, a: [Float], lda: Int, w: [Float],
                                 m: Int, n: Int, k: Int) -> (quantized: [Double], exact: [Double]) {
        var quantized = [Double](repeating: 0, count: m * n), exact = quantized
        for j in 0..<n {
            let column = (0..<k).map { Double(code(packed, j: j, p: $0, k: k)) }
            for i in 0..<m {
                var sum = 0.0, product = 0.0
                for p in 0..<k {
                    sum += Double(Int(codes[i * k + p]) - Int(zeros[i])) * column[p]
                    product += Double(a[i * lda + p]) * Double(w[j * k + p])
                }
                quantized[i * n + j] = sum * Double(rowScales[i]) * Double(packed.scales[j])
                exact[i * n + j] = product
            }
        }
        return (quantized, exact)
    }

    private func code(_ packed: Packed, j: Int, p: Int, k: Int) -> Int {
        let k4 = (k + 3) / 4 * 4
        return Int(Int8(bitPattern: packed.codes[(j / 32) * 32 * k4 + (p / 4) * 128 + (j % 32) * 4 + p % 4]))
    }

    func testEveryKernelSumsCodeProductsExactly() {
        var ran = Set<String>()
        for (m, n, k) in shapes {
            // Whole numbers in [-127, 127] with ±127 in every column: scale 1, codes the weights.
            var w = values(n * k, seed: UInt64(n * 13 + k)).map { ($0 * 127.99).rounded(.towardZero) }
            for j in 0..<n { w[j * k] = j % 2 == 0 ? 127 : -127 }
            let packed = pack(w, n: n, k: k)
            XCTAssertEqual(packed.scales, [Float](repeating: 1, count: n))
            let ldcodes = k + 3
            let codes = values(m * ldcodes, seed: UInt64(m * 7 + k)).map { UInt8(($0 + 1) * 63.99) }
            var expected = [Int32](repeating: -1, count: m * (n + 2))
            for i in 0..<m {
                for j in 0..<n {
                    var sum = 0
                    for p in 0..<k { sum += Int(codes[i * ldcodes + p]) * Int(w[j * k + p]) }
                    expected[i * (n + 2) + j] = Int32(sum)
                }
            }
            for kernel in Self.kernels {
                var out = [Int32](repeating: -1, count: m * (n + 2))
                let done = packed.codes.withUnsafeBytes { bytes in
                    lectern_gemm_i8_sums_by(kernel, Int32(m), Int32(n), Int32(k), codes, Int32(ldcodes), bytes.baseAddress!, &out,
                                            Int32(n + 2))
                }
                guard done == 1 else { continue }
                ran.insert(kernel)
                XCTAssertEqual(out, expected, "\(kernel) \(m)×\(n)×\(k)")
            }
        }
        XCTAssertTrue(ran.contains("portable"))
        XCTAssertTrue(ran.contains(String(cString: lectern_gemm_i8_kernel())), "the kernel in use was tested")
    }

    func testEveryKernelGivesTheQuantizedProductInFloat() {
        var ran = Set<String>()
        // Fewer rows at the FFN's depth than above: the Double sums run in a debug build.
        for (m, n, k) in shapes.map({ $0.2 == 1536 ? (13, 33, 1536) : $0 }) {
            let lda = k + 3, ldc = n + 5
            var a = values(m * lda, seed: UInt64(m * 7 + k))
            a[0] = 9  // an outlier, as LayerNorm's output has
            let w = values(n * k, seed: UInt64(n * 13 + k)).map { $0 * 0.1 }
            let start = values(m * ldc, seed: 99)
            let packed = pack(w, n: n, k: k)
            // A's codes as the product makes them, and B's from the packing: the same arithmetic in Double.
            var codes = [UInt8](repeating: 0, count: m * k)
            var rowScales = [Float](repeating: 0, count: m), zeros = [Int32](repeating: 0, count: m)
            lectern_gemm_i8_quantize_rows(Int32(m), Int32(k), a, Int32(lda), nil, &codes, Int32(k), &rowScales, &zeros)
            XCTAssertTrue(codes.allSatisfy { $0 <= 127 }, "7-bit codes")
            var quantized = [Float](repeating: 0, count: m * ldc), exact = quantized
            let reference = doubleReference(codes: codes, zeros: zeros, rowScales: rowScales, packed: packed, a: a, lda: lda, w: w, m: m, n: n, k: k)
            for i in 0..<m {
                for j in 0..<n {
                    quantized[i * ldc + j] = Float(reference.quantized[i * n + j])
                    exact[i * ldc + j] = Float(reference.exact[i * n + j])
                }
            }
            var first: [Float]?
            for accumulate in [false, true] {
                for kernel in Self.kernels {
                    var c = start
                    let done = packed.codes.withUnsafeBytes { bytes in
                        lectern_gemm_i8_by(kernel, Int32(m), Int32(n), Int32(k), a, Int32(lda), nil, bytes.baseAddress!, packed.scales,
                                           packed.sums, &c, Int32(ldc), accumulate ? 1 : 0)
                    }
                    guard done == 1 else { continue }
                    ran.insert(kernel)
                    var worst: Float = 0
                    for i in 0..<m {
                        for j in 0..<ldc {
                            let index = i * ldc + j
                            guard j < n else {
                                XCTAssertEqual(c[index], start[index], "\(kernel): column \(j) past n is the caller's")
                                continue
                            }
                            let base = accumulate ? start[index] : 0
                            XCTAssertEqual(c[index], quantized[index] + base, accuracy: 1e-5 * (1 + abs(quantized[index] + base)),
                                           "\(kernel) \(m)×\(n)×\(k) accumulate \(accumulate) at [\(i)][\(j)]")
                            worst = max(worst, abs(c[index] - base - exact[index]))
                        }
                    }
                    // A product, not noise: within the codes' steps of the float32 product.
                    XCTAssertLessThan(worst, 0.02 * Float(k).squareRoot() + 0.01, "\(kernel) \(m)×\(n)×\(k)")
                    // Every kernel sums the same integers and dequantizes alike: the same floats.
                    if !accumulate {
                        if let first { XCTAssertEqual(c, first, "\(kernel) \(m)×\(n)×\(k) differs from the first kernel") }
                        else { first = c }
                    }
                }
            }
        }
        XCTAssertTrue(ran.contains("portable"))
    }

    /// SmoothQuant's product (channels given): every kernel gives the smoothed quantized
    /// arithmetic summed in Double, and where one input channel carries values 20 times the
    /// others' (as MiniLM's FFN-up input does), the product is nearer the float32 one than the
    /// plain int8 product is.
    func testSmoothedProductMatchesDoubleAndShrinksTheError() {
        var ran = Set<String>()
        for (m, n, k) in [(13, 45, 7), (29, 33, 385), (13, 33, 1536)] {
            var a = values(m * k, seed: UInt64(m * 5 + k))
            for i in 0..<m { a[i * k + (k - 1) / 2] *= 20 }  // an outlier channel in every row
            let w = values(n * k, seed: UInt64(n * 11 + k)).map { $0 * 0.1 }
            // s = max|A_p|^½ / max|W_p|^½ (Smoothing, α = ½); B's columns times s, A's divided by it.
            var smoothing = [Float](repeating: 0, count: k)
            for p in 0..<k {
                let top = (0..<m).map { abs(a[$0 * k + p]) }.max()!, weightTop = (0..<n).map { abs(w[$0 * k + p]) }.max()!
                smoothing[p] = (max(top, 1e-5) / max(weightTop, 1e-5)).squareRoot()
            }
            let channels = smoothing.map { 1 / $0 }
            var scaled = w
            for j in 0..<n { for p in 0..<k { scaled[j * k + p] *= smoothing[p] } }
            let packed = pack(scaled, n: n, k: k), plain = pack(w, n: n, k: k)
            var codes = [UInt8](repeating: 0, count: m * k)
            var rowScales = [Float](repeating: 0, count: m), zeros = [Int32](repeating: 0, count: m)
            lectern_gemm_i8_quantize_rows(Int32(m), Int32(k), a, Int32(k), channels, &codes, Int32(k), &rowScales, &zeros)
            let (reference, exact) = doubleReference(codes: codes, zeros: zeros, rowScales: rowScales, packed: packed, a: a, lda: k, w: w, m: m, n: n, k: k)
            func error(_ c: [Float]) -> Double { zip(c, exact).map { abs(Double($0) - $1) }.max()! }
            for kernel in Self.kernels {
                var smoothed = [Float](repeating: 0, count: m * n), unsmoothed = smoothed
                let done = packed.codes.withUnsafeBytes { bytes in
                    lectern_gemm_i8_by(kernel, Int32(m), Int32(n), Int32(k), a, Int32(k), channels, bytes.baseAddress!, packed.scales,
                                       packed.sums, &smoothed, Int32(n), 0)
                }
                guard done == 1 else { continue }
                ran.insert(kernel)
                _ = plain.codes.withUnsafeBytes { bytes in
                    lectern_gemm_i8_by(kernel, Int32(m), Int32(n), Int32(k), a, Int32(k), nil, bytes.baseAddress!, plain.scales,
                                       plain.sums, &unsmoothed, Int32(n), 0)
                }
                for index in smoothed.indices {
                    XCTAssertEqual(Double(smoothed[index]), reference[index], accuracy: 1e-5 * (1 + abs(reference[index])),
                                   "\(kernel) \(m)×\(n)×\(k) at \(index)")
                }
                XCTAssertLessThan(error(smoothed), 0.6 * error(unsmoothed), "\(kernel) \(m)×\(n)×\(k): smoothing did not shrink the error")
            }
        }
        XCTAssertTrue(ran.contains("portable"))
    }

    /// What a user of `--embedder minilm-int8` gets: vectors within a cosine of 0.99 of the
    /// float32 model's, under their own name, a paraphrase still nearer than an unrelated text.
    func testInt8EmbedderStaysCloseToFloat32() throws {
        let float32 = try MiniLMFixtures.embedder()
        let int8 = try MiniLMEmbedder(directory: MiniLMFixtures.modelDirectory(), precision: .int8)
        XCTAssertEqual(int8.info.name, "minilm-int8")
        // Generated sentences, short and long (one of ~200 words): every layer's shapes.
        let subjects = ["The mitochondrion", "A capacitor", "The French Revolution", "Photosynthesis", "A binary search tree"]
        let verbs = ["stores", "releases", "changes", "explains", "depends on"]
        let objects = ["energy in chemical bonds", "electric charge between two plates", "the power of the monarchy",
                       "light into sugar", "the order of its keys"]
        var texts = zip(zip(subjects, verbs), objects).map { "\($0.0) \($0.1) \($1)." }
        texts.append((0..<40).map { "\(subjects[$0 % 5]) \(verbs[($0 / 5) % 5]) \(objects[($0 * 3) % 5])." }.joined(separator: " "))
        let exact = try float32.embed(texts)
        let approximate = try int8.embed(texts)
        func cosine(_ x: [Float], _ y: [Float]) -> Float { zip(x, y).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
        let cosines = zip(exact, approximate).map(cosine)
        XCTAssertGreaterThanOrEqual(cosines.min() ?? 0, 0.99, "\(cosines)")
        XCTAssertLessThan(cosines.min() ?? 1, 0.999999, "int8 vectors identical to float32: the int8 path did not run")
        let query = try int8.embed(["How do plants turn sunlight into food?"])[0]
        XCTAssertGreaterThan(cosine(query, approximate[3]), cosine(query, approximate[2]), "photosynthesis over the revolution")
        // Smoothing (SmoothQuant, on by default) brings the vectors nearer float32's than plain int8.
        let plain = try MiniLMEmbedder(directory: MiniLMFixtures.modelDirectory(), precision: .int8, smoothed: false).embed(texts)
        func distance(_ vectors: [[Float]]) -> Float { zip(exact, vectors).map { 1 - cosine($0, $1) }.reduce(0, +) / Float(texts.count) }
        XCTAssertLessThan(distance(approximate), 0.8 * distance(plain), "smoothed \(distance(approximate)), plain \(distance(plain))")
    }
}

/// `minilm-int8`'s calibration kept beside the model (CalibrationCache): the first process
/// writes it, the next reads it instead of running the calibration, and a file that does not
/// fit the model is made again. What a user notices: a second int8 process (a one-shot search
/// of an int8 library) gives the same vectors without the calibration's start-up.
final class Int8CalibrationCacheTests: XCTestCase {
    func testTheCalibrationIsKeptBesideTheModelAndMadeAgainWhenItDoesNotFit() throws {
        let model = try MiniLMFixtures.modelDirectory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-calibration-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The weights linked, the vocabulary copied (so that it can be touched here).
        for file in ["model.safetensors", "tokenizer.json"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + file, withDestinationPath: model + "/" + file)
        }
        try FileManager.default.copyItem(atPath: model + "/vocab.txt", toPath: folder + "/vocab.txt")
        let cache = folder + "/" + CalibrationCache.fileName
        let texts = ["Photosynthesis turns light into sugar in the chloroplasts of a leaf.",
                     "A binary search tree keeps its keys in order, so a lookup halves the candidates at each step."]
        func embed() throws -> [[Float]] { try MiniLMEmbedder(directory: folder, precision: .int8).embed(texts) }

        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))
        let first = try embed()
        let written = try XCTUnwrap(FileManager.default.contents(atPath: cache), "the first int8 process keeps its calibration")
        XCTAssertTrue(String(decoding: written.prefix(40), as: UTF8.self).hasPrefix("lectern-int8-calibration 1"))
        XCTAssertEqual(try embed(), first, "read back, the calibration gives the same vectors")

        // The stored maxima are what the next process uses: others under the same key give other
        // (still close) vectors.
        let newline = try XCTUnwrap(written.firstIndex(of: 0x0A))
        var altered = Data(written[...newline])
        let count = (written.count - altered.count) / MemoryLayout<Float>.size
        [Float](repeating: 1, count: count).withUnsafeBytes { altered.append(contentsOf: $0) }
        try altered.write(to: URL(fileURLWithPath: cache))
        let fromAltered = try embed()
        XCTAssertNotEqual(fromAltered, first, "the stored calibration was not read")
        func cosine(_ x: [Float], _ y: [Float]) -> Float { zip(x, y).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
        XCTAssertGreaterThan(zip(fromAltered, first).map(cosine).min() ?? 0, 0.99)

        // A file cut short is made again, and so is one written for another vocabulary file.
        try Data(written.prefix(written.count - 4)).write(to: URL(fileURLWithPath: cache))
        XCTAssertEqual(try embed(), first)
        XCTAssertEqual(FileManager.default.contents(atPath: cache), written, "a short file is written again whole")
        try altered.write(to: URL(fileURLWithPath: cache))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: folder + "/vocab.txt")
        XCTAssertEqual(try embed(), first, "a calibration keyed to the vocabulary as it was is not used")
        XCTAssertNotEqual(FileManager.default.contents(atPath: cache), altered)
    }
}
