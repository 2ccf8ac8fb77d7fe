import Foundation
import XCTest

/// Image-only PDFs made from text PDFs, as a scanner makes them: each page rendered with
/// `pdftoppm` (poppler-utils, which `make setup` installs) to a grey JPEG at `dpi`, and the
/// JPEGs wrapped in a PDF of the same page size with no text layer (what img2pdf does: the
/// JPEG bytes go in unchanged under /DCTDecode).
enum ScanPDF {
    static func make(from source: URL, dpi: Int, into folder: TemporaryFolder, name: String) throws -> URL {
        let tool = ["/usr/bin/pdftoppm", "/usr/local/bin/pdftoppm"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else { throw XCTSkip("pdftoppm is not installed (poppler-utils): run `make setup`") }
        let prefix = folder.file(name + "-page").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-r", String(dpi), "-gray", "-jpeg", source.path, prefix]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "pdftoppm failed on \(source.lastPathComponent)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            .filter { $0.hasPrefix(name + "-page") && $0.hasSuffix(".jpg") }.sorted()
        let jpegs = try pages.map { try Data(contentsOf: folder.file($0)) }
        let url = folder.file(name + ".pdf")
        try pdf(jpegs: jpegs, dpi: dpi).write(to: url)
        return url
    }

    /// Width, height and components of a JPEG, from its start-of-frame marker.
    static func jpegSize(_ data: Data) -> (width: Int, height: Int, components: Int)? {
        let bytes = [UInt8](data)
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let marker = bytes[i + 1]
            if [0xC0, 0xC1, 0xC2].contains(marker) {
                return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]), Int(bytes[i + 9]))
            }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return nil
    }

    static func pdf(jpegs: [Data], dpi: Int) throws -> Data {
        var objects: [Data] = []
        var pages: [(image: Int, content: Int, width: Double, height: Double)] = []
        for jpeg in jpegs {
            let size = try XCTUnwrap(jpegSize(jpeg), "pdftoppm wrote a JPEG without a frame header")
            let colour = size.components == 1 ? "/DeviceGray" : "/DeviceRGB"
            objects.append(Data("<< /Type /XObject /Subtype /Image /Width \(size.width) /Height \(size.height) /ColorSpace \(colour) /BitsPerComponent 8 /Filter /DCTDecode /Length \(jpeg.count) >>\nstream\n".utf8) + jpeg + Data("\nendstream".utf8))
            let image = objects.count
            let width = Double(size.width) * 72 / Double(dpi), height = Double(size.height) * 72 / Double(dpi)
            let content = String(format: "q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", width, height)
            objects.append(Data("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream".utf8))
            pages.append((image, objects.count, width, height))
        }
        let pagesId = objects.count + pages.count + 1
        var kids: [Int] = []
        for page in pages {
            objects.append(Data(String(format: "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>",
                                       pagesId, page.width, page.height, page.image, page.content).utf8))
            kids.append(objects.count)
        }
        objects.append(Data("<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>".utf8))
        objects.append(Data("<< /Type /Catalog /Pages \(pagesId) 0 R >>".utf8))
        var out = Data("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(index + 1) 0 obj\n".utf8) + object + Data("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Data(String(format: "%010d 00000 n \n", offset).utf8) }
        out += Data("trailer\n<< /Size \(objects.count + 1) /Root \(objects.count) 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
