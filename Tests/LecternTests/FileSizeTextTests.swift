import Foundation
import XCTest
@testable import Lectern

/// `lectern stats`, `backup` and `curriculum export` print a file's size as Foundation's
/// `ByteCountFormatter` did before they stopped starting ICU for it: the same text for every
/// size, ties of the rounding included.
final class FileSizeTextTests: XCTestCase {
    func testSizesReadAsByteCountFormatterWroteThem() {
        var sizes: [Int64] = [0, 1, 2, 999, 1000, 1001, 1499, 1500, 1501, 2500, 3500, 999_499, 999_500, 999_999, 1_000_000,
                              1_050_000, 1_150_000, 1_250_000, 1_350_000, 48_381_952, 654_300_000, 999_949_999, 999_950_000,
                              999_999_999, 1_000_000_000, 1_005_000_000, 1_015_000_000, 1_125_000_000, 4_323_954_688,
                              999_995_000_000, 1_000_000_000_000, 2_675_000_000_000, 1_000_000_000_000_000, Int64.max]
        var random = TestRandom.seeded()
        for magnitude in 3...18 {
            let base = Int64(pow(10, Double(magnitude)))
            for _ in 0..<200 { sizes.append(Int64.random(in: base..<(magnitude == 18 ? Int64.max : base * 10), using: &random)) }
            // Round figures and halves at each magnitude, where rounding ties sit.
            for step in [1, 5, 15, 25, 125, 995, 1005] { sizes.append(base / 1000 * Int64(step)) }
        }
        for size in sizes {
            XCTAssertEqual(FileSizeText.of(size), ByteCountFormatter.string(fromByteCount: size, countStyle: .file), "\(size) bytes, \(random.replay)")
        }
    }

    func testALocaleThatWritesNumbersOtherwiseIsLeftToTheFormatter() {
        XCTAssertTrue(FileSizeText.writesNumbersAsEnglish([:]))
        XCTAssertTrue(FileSizeText.writesNumbersAsEnglish(["LANG": "C.UTF-8"]))
        XCTAssertTrue(FileSizeText.writesNumbersAsEnglish(["LANG": "de_DE.UTF-8", "LC_ALL": "en_US.UTF-8"]))
        XCTAssertFalse(FileSizeText.writesNumbersAsEnglish(["LANG": "de_DE.UTF-8"]))
        XCTAssertFalse(FileSizeText.writesNumbersAsEnglish(["LANG": "C.UTF-8", "LC_NUMERIC": "fr_FR.UTF-8"]))
    }
}
