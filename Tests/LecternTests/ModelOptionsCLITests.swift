import XCTest
@testable import Lectern

/// The model options that only the shared corpus's tests used to reach, on generated notes:
/// `logs --template` and `--prompts`, and `cards generate --dry-run` and `--max-cost` with
/// the model named by flags (`--provider`, `--model`, `--base-url`, `--api-key-env`). Nothing
/// listens at the model's address, so a call that should not be made fails the test.
final class ModelOptionsCLITests: CommandTestCase {
    let environment = ["LECTERN_TEST_MODEL_KEY": "sk-test-not-used", "LECTERN_LLM_PRICES": "gpt-4o-mini=0.15/0.6",
                       "LECTERN_HTTP_RETRIES": "0"]
    let modelFlags = ["--provider", "openai", "--model", "gpt-4o-mini", "--base-url", "http://127.0.0.1:9/v1",
                      "--api-key-env", "LECTERN_TEST_MODEL_KEY"]

    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url, environment: environment)
    }

    func testLogsKeepsOnePromptsCallsAndPrintsPromptsWhenAsked() throws {
        try folder.write("notes/cells.md", "# Cells\n\nThe mitochondrion makes ATP for the cell.\n")
        XCTAssertEqual(try lectern(["ingest", "notes"]).status, 0)
        let store = try LibraryStore(path: folder.file("lectern.db").path, mustExist: true)
        try store.recordModelCall(ModelCallRecord(
            runId: nil, provider: "openai", model: "gpt-4o-mini", template: "ask/1", inputTokens: 120, outputTokens: 9,
            costUSD: nil, cached: false, subject: "what makes ATP", prompt: "[1] The mitochondrion makes ATP.\n\nQuestion: what makes ATP",
            response: "The mitochondrion [1].", finishReason: "stop", durationMs: 800))
        try store.recordModelCall(ModelCallRecord(
            runId: nil, provider: "openai", model: "gpt-4o-mini", template: "summary/1", inputTokens: 300, outputTokens: 40,
            costUSD: nil, cached: false, subject: "cells.md", prompt: "Summarise: The mitochondrion makes ATP for the cell.",
            response: "Mitochondria make the cell's ATP.", finishReason: "stop", durationMs: 1200))

        var result = try lectern(["logs", "--template", "ask"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("ask/1  openai/gpt-4o-mini"), result.stdout)
        XCTAssertFalse(result.stdout.contains("summary/1"), "only the ask prompt's calls: \(result.stdout)")
        XCTAssertFalse(result.stdout.contains("## Prompt"), "no prompts unless asked: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("## Answer\nThe mitochondrion [1]."), result.stdout)

        result = try lectern(["logs", "--template", "summary", "--prompts"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains("ask/1"), result.stdout)
        XCTAssertTrue(result.stdout.contains("## Prompt\nSummarise: The mitochondrion makes ATP for the cell."), result.stdout)
        XCTAssertTrue(result.stdout.contains("## Response\nMitochondria make the cell's ATP."), result.stdout)

        result = try lectern(["logs", "--template", "summary/2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("no summary/2 calls logged yet"), result.stderr)
        XCTAssertFalse(result.stdout.contains("summary/1"), result.stdout)
    }

    func testCardsGenerateDryRunPlansWithTheFlagsModelAndTheCostLimitRefusesBeforeAnyCall() throws {
        for (index, subject) in ["entropy", "capacity"].enumerated() {
            var text = "# \(subject.capitalized)\n\n"
            for part in 0..<3 {
                text += "## Part \(part)\n\n\(subject.capitalized) \(part) is the quantity of signal \(index * 3 + part) that a channel carries per symbol. "
                    + "Part \(part) of the note on \(subject) says that noise lowers what the channel carries.\n\n"
            }
            try folder.write("notes/\(subject).md", text)
        }
        XCTAssertEqual(try lectern(["ingest", "notes"]).status, 0)
        let built = try lectern(["curriculum", "build", "info", "notes"])
        XCTAssertEqual(built.status, 0, built.stderr)

        var result = try lectern(["cards", "generate", "info", "--dry-run", "--json"] + modelFlags)
        XCTAssertEqual(result.status, 0, result.stderr)
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        XCTAssertEqual(plan["model"] as? String, "openai/gpt-4o-mini", "the provider and model the flags name")
        let topics = try XCTUnwrap(plan["topics"] as? Int)
        XCTAssertGreaterThan(topics, 0)
        XCTAssertGreaterThanOrEqual(plan["calls"] as? Int ?? 0, topics)
        let cost = try XCTUnwrap(plan["cost"] as? Double, "a price for gpt-4o-mini is known")
        XCTAssertGreaterThan(cost, 0)

        result = try lectern(["cards", "generate", "info", "--dry-run"] + modelFlags)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("\(topics) topics: \(plan["calls"] as? Int ?? 0) calls to openai/gpt-4o-mini"), result.stdout)

        result = try lectern(["cards", "generate", "info", "--max-cost", String(format: "%.8f", cost / 2)] + modelFlags)
        XCTAssertNotEqual(result.status, 0, result.stdout)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("--max-cost"), result.stderr)
        XCTAssertFalse(result.stderr.contains("127.0.0.1:9"), "refused before any call: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("sk-test-not-used"))
        let listed = try lectern(["cards", "list", "--curriculum", "info", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count, 0,
                       "no cards were made: \(listed.stdout) \(listed.stderr)")

        result = try lectern(["cards", "generate", "info", "--dry-run"])
        XCTAssertNotEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("--dry-run and --max-cost plan a model run: give --provider"), result.stderr)
    }
}
