import XCTest
@testable import Lectern

/// `ask` is a safe default: without a model, or when the model cannot be reached, it prints the
/// best passages as `search` does (p<N>, where, whole snippet), says why there is no answer and
/// what would give one, and exits 0 when it showed passages.
final class AskFallbackTests: CommandTestCase {
    func lectern(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: environment)
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try folder.write("notes/respiration.md", """
            # Respiration

            Glycolysis splits glucose into two pyruvate molecules in the cytoplasm. It does not need oxygen: \
            glycolysis is anaerobic and runs with or without it.

            # Photosynthesis

            The Calvin cycle fixes carbon dioxide into sugar in the stroma of the chloroplast.
            """)
        XCTAssertEqual(try lectern("ingest", "notes").status, 0)
    }

    func testWithoutAModelTheBestPassagesAreShownAsSearchShowsThem() throws {
        let asked = try lectern("ask", "does glycolysis need oxygen", "-k", "2")
        XCTAssertEqual(asked.status, 0, asked.stderr)
        let searched = try lectern("search", "does glycolysis need oxygen", "-k", "2")
        XCTAssertEqual(asked.stdout, searched.stdout, "the same hits, drawn the same way")
        XCTAssertTrue(asked.stdout.hasPrefix("1. Respiration"), asked.stdout)
        XCTAssertTrue(asked.stdout.contains("notes/respiration.md § Respiration"), asked.stdout)
        XCTAssertTrue(asked.stdout.contains("glycolysis is anaerobic and runs with or without it."), "whole sentences: \(asked.stdout)")
        XCTAssertTrue(asked.stderr.contains("no language model is configured, so there is no answer: set [llm] provider and model in config-home/lectern/config.toml (or give --provider and --model)"), asked.stderr)
    }

    func testAModelThatCannotBeReachedStillShowsThePassages() throws {
        // Port 9 (discard) has no server on this machine: the connection is refused.
        let asked = try lectern("ask", "does glycolysis need oxygen", "-k", "2", "--provider", "openai", "--model", "m",
                                "--base-url", "http://127.0.0.1:9/v1", environment: ["LECTERN_HTTP_RETRIES": "0"])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertTrue(asked.stdout.hasPrefix("1. Respiration"), asked.stdout)
        XCTAssertTrue(asked.stderr.contains("the model openai/m could not answer ("), asked.stderr)
    }

    func testNothingFoundExitsOneAsSearchDoes() throws {
        let asked = try lectern("ask", "glycolysis", "-k", "2", "--source", "notes/none.md")
        XCTAssertEqual(asked.status, 1, asked.stdout)
        XCTAssertEqual(asked.stdout, "")
    }
}
