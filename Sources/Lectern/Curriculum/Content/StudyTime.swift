/// A topic's estimated study time from the words of its passages.
enum StudyTime {
    /// Words a minute for study text. Silent reading of English non-fiction averages ~238
    /// words a minute (Brysbaert 2019, "How many words do we read per minute?", J. Memory and
    /// Language 109); reading to learn is slower, so 200.
    static let wordsPerMinute = 200

    /// Whole minutes, rounded up, at least 1.
    static func minutes(words: Int) -> Int {
        max(1, (max(words, 0) + wordsPerMinute - 1) / wordsPerMinute)
    }
}
