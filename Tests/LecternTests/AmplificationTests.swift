import Foundation
import XCTest
@testable import Lectern

/// Small inputs that would cost huge amounts before any limit looked at them: a ZIP that
/// inflates a thousandfold (1.45 MB → 952 MiB took 1.98 GB and wrote it all to $TMPDIR), an
/// entry whose header lies about its size, a 1 GiB sparse file of NULs (read whole before the
/// binary check), a PDF page that keeps poppler busy (SIGTERM waited for it). Each is refused
/// with one line in bounded memory, or stopped at once.
final class AmplificationTests: XCTestCase {
    /// Runs a Python script (standard library only) with `arguments`.
    func python(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("python3 could not write the test input") }
    }

    /// An OpenStax book in a ZIP whose one module is `mebibytes` MiB of spaces (a thousandfold
    /// deflate ratio); `statedSize` rewrites the size the central directory gives the module.
    func writeBombBook(_ path: URL, mebibytes: Int, statedSize: Int? = nil) throws {
        try python("""
            import sys, zipfile, struct
            path, mib, stated = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("book/META-INF/books.xml", '<container xmlns="https://openstax.org/namespaces/book-container" version="1"><book slug="tiny" style="x" href="../collections/tiny.collection.xml"/></container>')
                z.writestr("book/collections/tiny.collection.xml", '<col:collection xmlns:col="http://cnx.rice.edu/collxml" xmlns:md="http://cnx.rice.edu/mdml"><col:metadata><md:title>Tiny</md:title><md:slug>tiny</md:slug></col:metadata><col:content><col:module document="m1"/></col:content></col:collection>')
                with z.open("book/modules/m1/index.cnxml", "w") as f:
                    f.write(b'<document xmlns="http://cnx.rice.edu/cnxml"><title>T</title><content><para>')
                    chunk = b" " * (1 << 20)
                    for _ in range(mib): f.write(chunk)
                    f.write(b'</para></content></document>')
            if stated >= 0:
                data = bytearray(open(path, "rb").read())
                name = b"book/modules/m1/index.cnxml"
                at = data.rfind(b"PK\\x01\\x02", 0, data.rfind(name))
                data[at + 24:at + 28] = struct.pack("<I", stated)
                open(path, "wb").write(data)
            """, [path.path, String(mebibytes), String(statedSize ?? -1)])
    }

    func testAZipBombStopsWhileInflating() throws {
        let folder = try TemporaryFolder()
        try writeBombBook(folder.file("bomb.zip"), mebibytes: 200)
        let temporary = folder.file("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = try runLecternMeasured(["extract", "bomb.zip"], in: folder.url, environment: ["TMPDIR": temporary.path])
        XCTAssertEqual(run.result.status, 1)
        XCTAssertEqual(run.result.stderr,
                       "lectern: bomb.zip: refused: entry \"book/modules/m1/index.cnxml\" inflates to over 19 MiB, over 100 times its compressed 199 KiB (a zip bomb)\n")
        XCTAssertLessThan(run.peakMiB, 100, "peak memory")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "nothing left in $TMPDIR")
    }

    func testAnEntryInflatingPastItsStatedSizeIsDamage() throws {
        // The header says 1,000 bytes; the data inflates to 2 MiB: inflating stops a chunk past it.
        let folder = try TemporaryFolder()
        try writeBombBook(folder.file("liar.zip"), mebibytes: 2, statedSize: 1_000)
        let run = try runLecternMeasured(["extract", "liar.zip"], in: folder.url)
        XCTAssertEqual(run.result.status, 1)
        XCTAssertEqual(run.result.stderr,
                       "lectern: liar.zip: damaged ZIP archive: entry book/modules/m1/index.cnxml inflates past its stated size of 1000 bytes\n")
    }

    func testASparseFileOfNULsIsRefusedFromItsFirstBytes() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("disk.img")
        XCTAssertTrue(FileManager.default.createFile(atPath: path.path, contents: nil))
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let run = try runLecternMeasured(["extract", "disk.img"], in: folder.url)
        XCTAssertEqual(run.result.status, 1)
        XCTAssertEqual(run.result.stderr, "lectern: disk.img: binary data that no reader understands\n")
        XCTAssertLessThan(run.peakMiB, 100, "peak memory (the file is 1 GiB)")
    }

    func testSIGTERMStopsAPDFInsideALongPage() throws {
        // Page 2's content stream inflates to 120 MiB of text operators that run off the page:
        // poppler works through it for seconds (2 s of CPU on a Zen 5) and cannot be interrupted
        // inside it.
        let folder = try TemporaryFolder()
        try python("""
            import sys, zlib
            line = b"(Entropy measures uncertainty and more words here to read) Tj 0 -1 Td\\n"
            pages = [b"BT /F1 12 Tf 72 720 Td (A first page about entropy.) Tj ET",
                     b"BT /F1 1 Tf 10 780 Td 1 TL\\n" + line * (120 * (1 << 20) // len(line)) + b"ET",
                     b"BT /F1 12 Tf 72 720 Td (A third page.) Tj ET"]
            n = len(pages)
            objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
                    ("<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % (3 + 2 * i) for i in range(n)), n)).encode()]
            for i, content in enumerate(pages):
                objs.append(("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (3 + 2 * n, 4 + 2 * i)).encode())
                z = zlib.compress(content, 6)
                objs.append(("<< /Length %d /Filter /FlateDecode >>\\nstream\\n" % len(z)).encode() + z + b"\\nendstream")
            objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
            out, offsets = bytearray(b"%PDF-1.4\\n"), []
            for i, o in enumerate(objs):
                offsets.append(len(out))
                out += ("%d 0 obj\\n" % (i + 1)).encode() + o + b"\\nendobj\\n"
            xref = len(out)
            out += ("xref\\n0 %d\\n0000000000 65535 f \\n" % (len(objs) + 1)).encode()
            for off in offsets: out += ("%010d 00000 n \\n" % off).encode()
            out += ("trailer\\n<< /Size %d /Root 1 0 R >>\\nstartxref\\n%d\\n%%%%EOF\\n" % (len(objs) + 1, xref)).encode()
            open(sys.argv[1], "wb").write(out)
            """, [folder.file("slow.pdf").path])
        let running = try RunningLectern(["extract", "slow.pdf"], in: folder.url)
        // Signalled once it has spent 0.4 s of CPU, inside page 2 however fast the machine (a fixed
        // 1.5 s of waiting let a quick CPU finish the whole file first; a loaded one gets there later).
        let deadline = Date().addingTimeInterval(60)
        while running.process.isRunning, Self.cpuSeconds(of: running.process.processIdentifier) < 0.4, Date() < deadline {
            usleep(20_000)
        }
        XCTAssertTrue(running.process.isRunning, "lectern finished before the signal: page 2 is too short for this machine")
        let sent = Date()
        running.send(SIGTERM)
        let result = running.finish(timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(sent), 2, "stopped inside the page, not after it")
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("lectern: interrupted (SIGTERM)\n"), result.stderr)
    }

    /// The user and system CPU time of process `pid` so far (/proc/PID/stat), 0 when it is gone.
    static func cpuSeconds(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After "(comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
