import ArgumentParser
import Dispatch
import Foundation
import Lectern

/// SIGINT and SIGTERM, for every command.
///
/// A command that works through a batch (`StopsAtDocumentBoundaries`) is asked to stop: its
/// workflow sees `cancellation` at the next document boundary, the document in hand is finished
/// or abandoned (never half-written), the command prints what it did, records its run as
/// `interrupted` and exits 130 (SIGINT) or 143 (SIGTERM). Any other command, or a second signal,
/// stops at once: runs it recorded end `interrupted`, temporary downloads and unpacked archives
/// are removed, and it exits with the same status.
enum StopSignals {
    static let cancellation = Cancellation()

    private struct State {
        var recorders: [RunRecorder] = []
        var stopsAtBoundaries = false
        var events = EventFormat.text
    }

    private static let state = Locked(State())
    /// Keeps the signal sources alive; only `install` writes it, while holding `state`'s lock,
    /// and nothing reads it (dispatch sources are not Sendable, so they cannot sit in `state`).
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let queue = DispatchQueue(label: "lectern.signals")

    /// Takes SIGINT and SIGTERM from their default (an immediate kill) for this process.
    static func install(stopsAtBoundaries: Bool, events: EventFormat) {
        state.withLock { state in
            state.stopsAtBoundaries = stopsAtBoundaries
            state.events = events
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { received(signalNumber) }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// A run to end `interrupted` if the process has to stop at once.
    static func track(_ recorder: RunRecorder) {
        state.withLock { $0.recorders.append(recorder) }
    }

    /// 130 after SIGINT, 143 after SIGTERM: the status a shell gives a process a signal ended.
    static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }

    /// The exit status of a command whose batch a signal stopped.
    static var interruptedExit: ExitCode? { cancellation.signal.map { ExitCode(exitStatus($0)) } }

    private static func received(_ signalNumber: Int32) {
        let first = !cancellation.isCancelled
        cancellation.cancel(signal: signalNumber)
        let (cooperative, recorders, events) = state.withLock { ($0.stopsAtBoundaries, $0.recorders, $0.events) }
        if first && cooperative {
            Terminal(events: events).note("\(cancellation.reason): stopping after the document in hand (a second signal stops at once)")
            return
        }
        // Stopping at once: what the process leaves behind is put in order first.
        for recorder in recorders { recorder.finish(status: .interrupted) }
        TemporaryFolders.removeAll()
        Terminal(events: events).note(cancellation.reason)
        _exit(exitStatus(signalNumber))
    }
}
