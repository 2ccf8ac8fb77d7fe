import Foundation

extension LecternError {
    /// Codes that say the model could not be asked at all: the server refused the connection
    /// or timed out (`network`), refused the key or the rate (`languageModel` after HTTP 401,
    /// 429 past the retries), failed or answered outside its API (`languageModel`, `http`).
    /// Every later call would fail alike, so such an error stops the stage (or, where falling
    /// back is the documented behaviour, is said once), never counted as one answer's rejection.
    static let modelUnavailableCodes: Set<Code> = [.network, .http, .languageModel]

    /// `error` when it says the model could not be asked; nil for an answer off its schema
    /// (`modelAnswer`), a stop, or anything else.
    static func modelUnavailable(_ error: any Error) -> LecternError? {
        guard let lectern = error as? LecternError, modelUnavailableCodes.contains(lectern.code) else { return nil }
        return lectern
    }
}
