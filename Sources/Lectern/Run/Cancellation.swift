import Foundation

/// A request to stop a workflow early (the CLI sets it on SIGINT or SIGTERM). Workflows check
/// it at document boundaries and between embedding batches, so what they stored is whole.
public final class Cancellation: Sendable {
    private let requested = Locked<Int32?>(nil)

    public init() {}

    /// Asks the workflow to stop; the first signal is the one reported.
    public func cancel(signal: Int32 = SIGINT) {
        requested.withLock { if $0 == nil { $0 = signal } }
    }

    public var isCancelled: Bool { requested.current != nil }

    /// The signal that asked to stop, when one did.
    public var signal: Int32? { requested.current }

    /// `interrupted (SIGINT)`: what a summary line says.
    public var reason: String {
        switch signal {
        case SIGTERM?: return "interrupted (SIGTERM)"
        case SIGINT?: return "interrupted (SIGINT)"
        case let other?: return "interrupted (signal \(other))"
        case nil: return "interrupted"
        }
    }

    /// Throws when a stop was asked for: the work in hand is abandoned (nothing of it written).
    func check(_ subject: String? = nil) throws {
        if isCancelled { throw LecternError(.interrupted, subject, reason) }
    }
}

/// Why a batch ended before its last input.
public enum BatchStop: String, Codable, Sendable, Equatable {
    /// A signal asked to stop (`Cancellation`).
    case interrupted
    /// The library file cannot be written (a full disk): no later input could be stored either.
    case libraryUnwritable = "library_unwritable"

    /// The stop an error means for the whole batch, when it means one.
    static func of(_ error: any Error) -> BatchStop? {
        switch (error as? LecternError)?.code {
        case .interrupted?: return .interrupted
        case .writeFailed?: return .libraryUnwritable
        default: return nil
        }
    }

    /// The status a run that ended this way records.
    var runStatus: RunStatus {
        switch self {
        case .interrupted: return .interrupted
        case .libraryUnwritable: return .failed
        }
    }
}
