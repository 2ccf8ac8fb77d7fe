import Foundation

/// Why OCR cannot run on this machine (no libtesseract, no pack for a language asked for): a
/// short reason in the warning of each document it leaves unread, and the whole story with what
/// to install as the warning's `advice`, which a run says once however many scans it meets.
struct OCRUnavailable: Error {
    /// What is missing, in a few words: "OCR language fra is not installed".
    var reason: String
    /// Where Lectern looked and the command that fixes it.
    var advice: String
}
