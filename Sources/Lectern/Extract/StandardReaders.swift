extension ReaderRegistry {
    /// Every reader built into Lectern. Later readers register here, most specific first.
    public static var standard: ReaderRegistry {
        ReaderRegistry([
            PDFExtractor(),
            OpenStaxExtractor(),
            OCWExtractor(),
            WikipediaExtractor(),
            TimedHTMLExtractor(),
            HTMLExtractor(),
            WebVTTExtractor(),
            SRTExtractor(),
            TranscriptJSONExtractor(),
            UnknownJSONExtractor(),
            StampedTranscriptExtractor(),
            MarkdownExtractor(),
            PlainTextExtractor(),
        ])
    }
}
