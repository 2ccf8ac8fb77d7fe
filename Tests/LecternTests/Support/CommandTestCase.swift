import XCTest

/// A test of the `lectern` binary as a user runs it: each test gets a fresh folder to run in,
/// and the whole class skips, naming the path, when the binary is not built.
class CommandTestCase: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try TestPaths.requireLecternBinary()
    }
}
