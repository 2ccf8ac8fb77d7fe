import Foundation

/// Long output on a terminal goes through the user's pager (`$PAGER`, else `less -FRX`: it
/// quits at once when the text fits, keeps colours and leaves the text on the screen). Standard
/// output is handed to the pager's input, so everything written after `start` goes through it.
/// Never when stdout is a file or a pipe: a script reads the text as it is.
final class Pager {
    private let process: Process

    private init(process: Process) {
        self.process = process
    }

    /// Starts the pager; nil (output stays as it is) when stdout is not a terminal, the pager is
    /// turned off (`PAGER=` or `cat`) or cannot start.
    static func start(_ terminal: Terminal) -> Pager? {
        guard terminal.stdoutIsTTY else { return nil }
        let command = ProcessInfo.processInfo.environment["PAGER"] ?? "less -FRX"
        guard !command.trimmingCharacters(in: .whitespaces).isEmpty, command != "cat" else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        process.environment = environment
        let pipe = Pipe()
        process.standardInput = pipe
        do { try process.run() } catch { return nil }
        dup2(pipe.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        try? pipe.fileHandleForWriting.close()
        return Pager(process: process)
    }

    /// Ends the text (the pager sees the end of its input) and waits until the user quits it.
    func finish() {
        close(STDOUT_FILENO)
        process.waitUntilExit()
    }
}
