import Foundation
import XCTest

/// The `lectern` binary run under GNU time (`/usr/bin/time`, which `make setup` installs): what a
/// user sees, and the process's peak resident memory, for tests that bound what an input may cost.
struct MeasuredRun {
    var result: CommandResult
    /// Peak resident set size in MiB.
    var peakMiB: Double
    var seconds: Double
}

func runLecternMeasured(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> MeasuredRun {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { throw XCTSkip("\(time) is not installed (make setup installs it)") }
    let report = directory.appendingPathComponent("time-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: report) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: time)
    process.arguments = ["-f", "%M %e", "-o", report.path, TestPaths.lecternBinary.path] + arguments
    process.currentDirectoryURL = directory
    process.environment = lecternEnvironment(in: directory, overrides: environment)
    let result = try capture(process)
    let fields = try String(contentsOf: report, encoding: .utf8).split(whereSeparator: \.isWhitespace).suffix(2)
    let kilobytes = Double(fields.first ?? "") ?? 0
    return MeasuredRun(result: result, peakMiB: kilobytes / 1024, seconds: Double(fields.last ?? "") ?? 0)
}
