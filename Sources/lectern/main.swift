import ArgumentParser
import Foundation
import Lectern

// swift-argument-parser exits 64 on usage errors; Lectern's contract is 0 all succeeded,
// 1 some inputs failed, 2 usage errors.
do {
    var command = try LecternCommand.parseAsRoot()
    do {
        try command.run()
    } catch let error as LecternError {
        // With `--events json`, the error that stopped the command is one more JSON line.
        let arguments = CommandLine.arguments
        let json = arguments.contains("--events=json")
            || zip(arguments, arguments.dropFirst()).contains { $0 == "--events" && $1 == "json" }
        if json {
            Terminal(events: .json).event(PipelineEvent(.failed, input: error.subject, message: error.reason))
        } else {
            FileHandle.standardError.write(Data("lectern: \(error)\n".utf8))
        }
        exit(error.code == .invalidInput ? 2 : 1)
    } catch {
        LecternCommand.exit(withError: error)
    }
} catch {
    let code = LecternCommand.exitCode(for: error)
    if code == .success {
        LecternCommand.exit(withError: error)
    }
    if code == .validationFailure || code.rawValue == 64 {
        let message = LecternCommand.fullMessage(for: error)
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
    LecternCommand.exit(withError: error)
}
