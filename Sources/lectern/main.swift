import ArgumentParser
import Foundation
import Lectern

// A file-size limit (`ulimit -f`) makes a write fail with EFBIG, which the library reports as one
// line naming the library, instead of killing the process with SIGXFSZ.
signal(SIGXFSZ, SIG_IGN)

// swift-argument-parser exits 64 on usage errors; Lectern's contract is 0 all succeeded,
// 1 some inputs failed, 2 usage errors, 130 / 143 stopped by SIGINT / SIGTERM; a command that
// exits like grep (`search`) exits 1 when it found nothing and 2 on any error (docs/commands.md).
do {
    var command = try LecternCommand.parseAsRoot()
    let events = (command as? any ReportsEvents)?.eventFormat ?? .text
    StopSignals.install(stopsAtBoundaries: command is any StopsAtDocumentBoundaries, events: events)
    // A failure of a PostgreSQL server met mid-command is Lectern's one line, as any other.
    let outcome = Result { try command.run() }.mapError(LecternError.translating)
    // However the command ended (but by a signal that stops it at once), the libraries it wrote
    // are checkpointed before the process exits: their file alone is then the whole library.
    OpenLibraries.checkpointAll(refreshingSidecars: StopSignals.cancellation.signal == nil)
    do {
        try outcome.get()
    } catch let error as LecternError {
        // With `--events json`, the error that stopped the command is one more JSON line.
        Terminal(events: events).stop(error)
        if error.code == .interrupted, let signal = StopSignals.cancellation.signal { exit(StopSignals.exitStatus(signal)) }
        exit(error.code == .invalidInput || command is any ExitsLikeGrep ? 2 : 1)
    } catch {
        // Any other error (help asked for, an exit status, a system's error): as
        // swift-argument-parser shows it, but as a JSON event with `--events json`.
        var code = LecternCommand.exitCode(for: error)
        let message = LecternCommand.message(for: error)
        // A system's error in a grep-like command is an error (2), not "nothing found" (1).
        if command is any ExitsLikeGrep, !(error is ExitCode), code != .success { code = ExitCode(2) }
        guard events == .json, code != .success, !message.isEmpty else {
            if command is any ExitsLikeGrep, !(error is ExitCode), code != .success {
                FileHandle.standardError.write(Data(("lectern: " + message + "\n").utf8))
                exit(code.rawValue)
            }
            LecternCommand.exit(withError: error)
        }
        Terminal(events: events).stop(LecternError(.corrupt, nil, message))
        exit(code.rawValue)
    }
} catch {
    let code = LecternCommand.exitCode(for: error)
    if code == .success {
        LecternCommand.exit(withError: error)
    }
    if code == .validationFailure || code.rawValue == 64 {
        if let unknown = CommandSuggestion.unknownSubcommand(Array(CommandLine.arguments.dropFirst())) {
            FileHandle.standardError.write(Data((unknown.message + "\n").utf8))
            exit(2)
        }
        let message = LecternCommand.fullMessage(for: error)
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
    LecternCommand.exit(withError: error)
}
