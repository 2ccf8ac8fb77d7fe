import Foundation
import XCTest
@testable import Lectern

/// `lectern mcp` spoken to in raw JSON-RPC lines (Tests/Support/mcp_raw.py), as a broken or
/// hostile client would: every unusable message gets the JSON-RPC error its kind calls for, and
/// the next request is answered as usual.
final class MCPProtocolErrorTests: XCTestCase {
    func runRaw(_ arguments: [String] = []) throws -> [String: Any] {
        try TestPaths.requireLecternBinary()
        let python = MCPServerTests.python
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("\(python.path) is absent: run `make testdeps`")
        }
        let folder = try TemporaryFolder()
        try folder.write("zymurgy.md", "# Zymurgy\n\nZymurgy is the study of fermentation: yeast turns sugars into alcohol.\n")
        let ingest = try runLectern(["ingest", "zymurgy.md"], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let process = Process()
        process.executableURL = python
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/Support/mcp_raw.py").path, TestPaths.lecternBinary.path] + arguments
        process.currentDirectoryURL = folder.url
        process.environment = lecternEnvironment(in: folder.url)
        let result = try capture(process)
        guard result.status == 0, let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw LecternError(.corrupt, "mcp_raw.py", "exit \(result.status): \(result.stderr.suffix(3000))")
        }
        return report
    }

    /// The one answer of `name`, which must be an error; its code, id and message.
    func error(_ report: [String: Any], _ name: String) throws -> (code: Int?, id: Any?, message: String) {
        let cases = try XCTUnwrap(report["cases"] as? [String: Any])
        let outcome = try XCTUnwrap(cases[name] as? [String: Any], name)
        XCTAssertEqual(outcome["servingAfter"] as? Bool, true, "\(name): the next request was not answered")
        let answers = try XCTUnwrap(outcome["answers"] as? [[String: Any]], name)
        XCTAssertEqual(answers.count, 1, "\(name): \(answers)")
        let error = try XCTUnwrap(answers.first?["error"] as? [String: Any], "\(name): \(answers)")
        return (error["code"] as? Int, answers.first?["id"], error["message"] as? String ?? "")
    }

    func testUnusableMessagesGetTheirJSONRPCErrorAndTheServerGoesOn() throws {
        let report = try runRaw(["--big-bytes", "64"])
        // Params of the wrong shape: -32602 with the request's id (the SDK said -32603, internal error).
        let nameNull = try error(report, "nameNull")
        XCTAssertEqual(nameNull.code, -32602)
        XCTAssertEqual(nameNull.id as? Int, 1)
        XCTAssertTrue(nameNull.message.contains("name must be a string, not null"), nameNull.message)
        let paramsNull = try error(report, "paramsNull")
        XCTAssertEqual(paramsNull.code, -32602)
        XCTAssertEqual(paramsNull.id as? Int, 2)
        // An id that is neither a string nor a number: -32600 with id null (it went unanswered).
        for name in ["objectId", "arrayId"] {
            let answer = try error(report, name)
            XCTAssertEqual(answer.code, -32600, name)
            XCTAssertTrue(answer.id is NSNull, "\(name): id \(String(describing: answer.id))")
        }
        let notJSON = try error(report, "notJSON")
        XCTAssertEqual(notJSON.code, -32700)
        XCTAssertTrue(notJSON.id is NSNull, "id \(String(describing: notJSON.id))")
        XCTAssertEqual(report["serverStderr"] as? String, "")
        XCTAssertEqual(report["exitStatus"] as? Int, 0)
    }

    /// A 6 MiB line is over the 4 MiB cap: answered -32600 with id null, naming the cap, and the
    /// request after it is answered (the reader skipped the line as it came, never held it whole).
    func testAnOverLongMessageIsAnsweredAndTheNextRequestServed() throws {
        let report = try runRaw(["--big-bytes", String(6 << 20)])
        let tooLong = try error(report, "tooLong")
        XCTAssertEqual(tooLong.code, -32600)
        XCTAssertTrue(tooLong.id is NSNull, "id \(String(describing: tooLong.id))")
        XCTAssertTrue(tooLong.message.contains("at most 4194304 bytes (4 MiB)"), tooLong.message)
    }
}
