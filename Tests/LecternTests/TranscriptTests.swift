import XCTest
@testable import Lectern

/// Lecture transcripts: SRT, WebVTT, JSON turns and stamped text become timed sentences that
/// search can point to, on the shared real subtitles and on files the project wrote.
final class TranscriptTests: XCTestCase {
    let registry = ReaderRegistry.standard

    func read(_ url: URL) throws -> (reader: String, document: ExtractedDocument) {
        let input = SourceInput(uri: url.absoluteString, path: url.path, data: try Data(contentsOf: url))
        let reader = try registry.reader(for: input)
        return (reader.name, try reader.extract(input))
    }

    func read(_ text: String, name: String = "lecture") throws -> (reader: String, document: ExtractedDocument) {
        let input = SourceInput(uri: "file:///tmp/\(name)", path: "/tmp/\(name)", data: Data(text.utf8))
        let reader = try registry.reader(for: input)
        return (reader.name, try reader.extract(input))
    }

    /// The cues of an SRT file as a test reads them independently of Lectern: (start, end, text).
    func cues(ofSRT url: URL) throws -> [(Double, Double, String)] {
        var text = try String(contentsOf: url, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let blocks = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
        return blocks.compactMap { block in
            let lines = block.split(separator: "\n").map(String.init)
            guard let timing = lines.firstIndex(where: { $0.contains(" --> ") }) else { return nil }
            let sides = lines[timing].components(separatedBy: " --> ")
            func seconds(_ s: String) -> Double {
                let p = s.replacingOccurrences(of: ",", with: ".").split(separator: ":").compactMap { Double($0) }
                return p[0] * 3600 + p[1] * 60 + p[2]
            }
            return (seconds(sides[0]), seconds(sides[1]), lines[(timing + 1)...].joined(separator: " "))
        }
    }

    func sharedSRTs() throws -> [URL] {
        let folder = try TestPaths.sharedCorpus("transcripts")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "srt" }.sorted { $0.path < $1.path }
        XCTAssertEqual(files.count, 6)
        return files
    }

    func testSharedSRTFilesBecomeTimedSentencesWithoutSoundTags() throws {
        for url in try sharedSRTs() {
            let (reader, document) = try read(url)
            XCTAssertEqual(reader, "srt", url.lastPathComponent)
            XCTAssertTrue(document.warnings.isEmpty, "\(url.lastPathComponent): \(document.warnings)")
            let starts = document.blocks.compactMap(\.start)
            XCTAssertEqual(starts.count, document.blocks.count, "every sentence has a time")
            XCTAssertEqual(starts, starts.sorted(), "sentences come in time order")
            let text = document.blocks.map(\.text).joined(separator: " ")
            XCTAssertFalse(text.contains("whoosh"), "sound tags leave the text: \(url.lastPathComponent)")
            XCTAssertFalse(text.contains("("), url.lastPathComponent)
            // Every spoken word of the file survives, in order (sound tags aside).
            let spoken = try cues(ofSRT: url).map(\.2).filter { !$0.hasPrefix("(") }.joined(separator: " ")
            let words = { (s: String) in s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) }
            XCTAssertEqual(words(text), words(spoken).filter { _ in true }, url.lastPathComponent)
        }
        // The file that starts with a UTF-8 BOM reads from its first cue.
        let welcome = try read(try TestPaths.sharedCorpus("transcripts/hf-course-00_welcome-to-the-hugging-face-course.srt")).document
        XCTAssertEqual(welcome.blocks.first?.text, "Welcome to the Hugging Face Course.")
        XCTAssertEqual(welcome.blocks.first?.start, 5.85)
        let pipeline = try read(try TestPaths.sharedCorpus("transcripts/hf-course-01_the-pipeline-function.srt")).document
        XCTAssertTrue(pipeline.metadata["sounds"]?.contains("00:00:00 screen whooshes") ?? false, "\(pipeline.metadata)")
    }

    func testVTTMadeFromTheSharedSRTsReadsTheSameSentences() throws {
        for url in try sharedSRTs() {
            let srt = try read(url).document
            var vtt = "WEBVTT - \(url.deletingPathExtension().lastPathComponent)\n\nNOTE converted from SubRip by the test\n\nSTYLE\n::cue { color: yellow }\n\n"
            for (index, cue) in try cues(ofSRT: url).enumerated() {
                func stamp(_ s: Double) -> String {
                    String(format: "%02d:%02d:%06.3f", Int(s) / 3600, Int(s) / 60 % 60, s.truncatingRemainder(dividingBy: 60))
                }
                vtt += "cue-\(index + 1)\n\(stamp(cue.0)) --> \(stamp(cue.1)) align:start line:90%\n<v Instructor>\(cue.2)\n\n"
            }
            let (reader, document) = try read(vtt, name: "lecture.vtt")
            XCTAssertEqual(reader, "vtt")
            XCTAssertEqual(document.title, url.deletingPathExtension().lastPathComponent)
            XCTAssertEqual(document.blocks.map(\.text), srt.blocks.map(\.text), url.lastPathComponent)
            XCTAssertEqual(zip(document.blocks, srt.blocks).filter { abs(($0.start ?? -1) - ($1.start ?? -2)) > 0.001 }.count, 0)
            XCTAssertEqual(Set(document.blocks.compactMap(\.speaker)), ["Instructor"])
        }
    }

    func testRollingCaptionsAreReadOnceAndVoicesNameSpeakers() throws {
        let rolling = """
            WEBVTT

            00:00:01.000 --> 00:00:03.000
            the mitochondria is where

            00:00:03.000 --> 00:00:05.000
            the mitochondria is where
            most of the ATP is made

            00:00:05.000 --> 00:00:07.000
            most of the ATP is made
            during aerobic respiration.

            00:00:07.000 --> 00:00:09.000
            <v.loud Prof. Ada Lovelace>The engine weaves algebraic patterns.</v>

            00:00:09.000 --> 00:00:11.000
            <v Student><i>Can</i> it &amp; does it compose music?</v>
            """
        let document = try read(rolling, name: "captions").document
        XCTAssertEqual(document.blocks.map(\.text), [
            "the mitochondria is where most of the ATP is made during aerobic respiration.",
            "The engine weaves algebraic patterns.",
            "Can it & does it compose music?",
        ])
        XCTAssertEqual(document.blocks.map(\.speaker), [nil, "Prof. Ada Lovelace", "Student"])
        XCTAssertEqual(document.blocks[0].start, 1)
        XCTAssertEqual(document.blocks[0].end, 7)
        XCTAssertEqual(document.metadata["rolled_repeats_removed"], nil, "partial repeats are trimmed, not counted as whole cues")
    }

    func testEveryMalformedCaseNamesTheLine() throws {
        // Nothing usable: the error names the first bad line.
        XCTAssertThrowsError(try read("1\n00:00:01,000 -> 00:00:04,000\nHello\n\n2\n00:00:05,000 -> 00:00:06,000\nAgain\n", name: "bad.srt")) { error in
            XCTAssertEqual((error as? LecternError)?.reason, "malformed timing line '00:00:01,000 -> 00:00:04,000' (and 1 more bad cue)")
            XCTAssertEqual((error as? LecternError)?.line, 2)
        }
        // Some bad cues: the good ones are read, each bad one is a warning naming its line.
        let mixed = """
            1
            00:00:01,000 --> 00:00:03,000
            Enzymes lower the activation energy.

            2
            00:00:03,000 --> 00:00:0x,500
            This cue has a broken end time.

            3
            00:00:09,000 --> 00:00:07,000
            This cue ends before it starts.

            4

            5
            00:00:10,000 --> 00:00:12,000
            They are not used up by the reaction.
            """
        let document = try read(mixed, name: "mixed.srt").document
        XCTAssertEqual(document.blocks.map(\.text), ["Enzymes lower the activation energy.", "They are not used up by the reaction."])
        XCTAssertEqual(document.warnings, [
            ExtractionWarning("malformed timing line '00:00:03,000 --> 00:00:0x,500' (cue skipped)", line: 6),
            ExtractionWarning("cue ends before it starts ('00:00:09,000 --> 00:00:07,000') (cue skipped)", line: 10),
            ExtractionWarning("cue 4 has no timing line (cue skipped)", line: 13),
        ])
        // JSON turns without a start, and stamps that go backwards.
        let turns = try read(#"[{"speaker":"A","start":0,"text":"First point."},{"speaker":"B","text":"No time here."},{"speaker":"A","start":"00:00:04.5","end":7,"text":"Second point."}]"#, name: "turns.json").document
        XCTAssertEqual(turns.blocks.map(\.text), ["First point.", "Second point."])
        XCTAssertEqual(turns.blocks.last?.start, 4.5)
        XCTAssertEqual(turns.warnings, ["turn 2 has no valid start time (cue skipped)"])
        let stamped = try read("[00:00:01] One.\n[00:00:09] Two.\n[00:00:05] Three.\n[00:00:12] Four.\n", name: "notes.txt").document
        XCTAssertEqual(stamped.blocks.map(\.text), ["One.", "Two.", "Four."])
        XCTAssertEqual(stamped.warnings, [ExtractionWarning("time stamp goes backwards ('[00:00:05] T') (cue skipped)", line: 3)])
    }

    func testTimeCodes() {
        XCTAssertEqual(TimeCode.parse("01:02:03,456"), 3723.456)
        XCTAssertEqual(TimeCode.parse("02:03.5"), 123.5)
        XCTAssertEqual(TimeCode.parse("[00:12:34]"), 754)
        XCTAssertNil(TimeCode.parse("00:61:00"))
        XCTAssertNil(TimeCode.parse("1:2:3:4"))
        XCTAssertNil(TimeCode.parse("ab:cd"))
        XCTAssertEqual(TimeCode.parse(" 00:00:05,850\t"), 5.85)
        XCTAssertEqual(TimeCode.parse("1:02:03.7"), 3723.7)
        XCTAssertEqual(TimeCode.parse("123:00:00"), 442_800)
        for bad in ["", ":", "1:", ":30", "00:00:05,", "00:00:05,1234", "0000:00:05", "00:00:5x", "00::05", "-1:00", "05"] {
            XCTAssertNil(TimeCode.parse(bad), bad)
        }
    }

    /// The issue's test of done: a phrase spoken in a shared lecture is found in the right file,
    /// at a time within the cue where it is said.
    func testSearchingASpokenPhraseGivesTheFileAndTheCueTime() throws {
        let folder = try TemporaryFolder()
        let files = try sharedSRTs()
        let ingest = try runLectern(["ingest"] + files.map(\.path), in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        let phrases = [
            ("hf-course-00_welcome-to-the-hugging-face-course.srt", "Trinity College, Dublin"),
            ("hf-course-01_the-pipeline-function.srt", "filter the available models by task"),
            ("hf-course-02_the-carbon-footprint-of-transformers.srt", "as much carbon as five cars"),
            ("hf-course-05_transformer-models-encoders.srt", "mechanism relates to different positions"),
        ]
        for (file, phrase) in phrases {
            let url = files.first { $0.lastPathComponent == file }!
            // The cue where the phrase's first word is said, from the file itself.
            let cues = try cues(ofSRT: url)
            let first = phrase.split(separator: " ").prefix(2).joined(separator: " ")
            let said = try XCTUnwrap(cues.first { $0.2.contains(first) }, "\(first) in \(file)")
            let result = try runLectern(["search", phrase, "-k", "1", "--json"], in: folder.url)
            let hit = try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).first)
            XCTAssertEqual(hit.path.map { URL(fileURLWithPath: $0).lastPathComponent }, file, phrase)
            let time = try XCTUnwrap(hit.time)
            XCTAssertTrue(time >= said.0 - 0.001 && time <= said.1, "\(phrase): \(time) not within \(said.0)–\(said.1)")
            XCTAssertTrue(hit.location.hasSuffix("\(file) @ \(TimeFormat.clock(time))"), hit.location)
            let text = try runLectern(["search", phrase, "-k", "1"], in: folder.url).stdout
            XCTAssertTrue(text.contains("\(file) @ \(TimeFormat.clock(time))"), text)
        }
    }

    func testTheProjectsOwnTranscriptsIngestAndAnswerWithSpeakerAndTime() throws {
        let folder = try TemporaryFolder()
        let ingest = try runLectern(["ingest", TestPaths.corpora.appendingPathComponent("transcripts").path], in: folder.url,
                                    environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertTrue(ingest.stdout.hasPrefix("4 stored"), ingest.stdout)
        XCTAssertEqual(ingest.stderr, "")
        func top(_ query: String) throws -> SearchHit {
            let result = try runLectern(["search", query, "-k", "1", "--json"], in: folder.url)
            return try XCTUnwrap(try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8)).first)
        }
        var hit = try top("does glycolysis need oxygen")
        XCTAssertEqual(hit.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "cell-respiration-lecture.vtt")
        XCTAssertEqual(hit.title, "Biology 101, lecture 7: cellular respiration")
        XCTAssertEqual(hit.time, 33)
        XCTAssertEqual(hit.type, "vtt")
        XCTAssertTrue(hit.speaker?.contains("Student") ?? false)
        hit = try top("epsilon delta definition of a limit")
        XCTAssertEqual(hit.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "limits-lecture.srt")
        XCTAssertEqual(hit.time, 20)
        hit = try top("Tennis Court Oath")
        XCTAssertEqual(hit.time, 30)
        XCTAssertTrue(hit.speaker?.contains("Jonas") ?? false)
        hit = try top("median house prices")
        XCTAssertEqual(hit.path.map { URL(fileURLWithPath: $0).lastPathComponent }, "office-hours.txt")
        XCTAssertTrue([15, 19].contains(hit.time ?? -1), "\(hit.time ?? -1)")
    }

    func testABadTranscriptFailsAloneInABatch() throws {
        let folder = try TemporaryFolder()
        try folder.write("talks/broken.srt", "1\n00:00:01,000 => 00:00:02,000\nHello\n")
        try folder.write("talks/good.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nPhotosynthesis stores light as sugar.\n")
        let result = try runLectern(["ingest", "talks"], in: folder.url, environment: ["LECTERN_EMBEDDER": "hashing"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "lectern: talks/broken.srt:2: malformed timing line '00:00:01,000 => 00:00:02,000'\n")
        XCTAssertTrue(result.stdout.hasPrefix("1 stored (1 passage), 0 unchanged, 1 failed"), result.stdout)
    }

    func testMalformedCasesInEachFormat() throws {
        func failure(_ text: String, name: String) -> LecternError? {
            do {
                _ = try read(text, name: name)
                return nil
            } catch {
                return error as? LecternError
            }
        }
        // The issue's example: nothing good remains, so the file fails naming the line.
        var error = failure("1\n00:01:02 -> 00:01:05\nThe derivative is a limit.\n", name: "lecture.srt")
        XCTAssertEqual(error?.reason, "malformed timing line '00:01:02 -> 00:01:05'")
        XCTAssertEqual(error?.line, 2)
        XCTAssertEqual(error?.code, .corrupt)
        // Out-of-range times are malformed too.
        error = failure("1\n00:00:01,000 --> 00:00:61,000\nSixty-one seconds is not a time code.\n", name: "x.srt")
        XCTAssertEqual(error?.reason, "malformed timing line '00:00:01,000 --> 00:00:61,000'")
        // A caption file of sounds only has nothing to search.
        error = failure("1\n00:00:01,000 --> 00:00:03,000\n[MUSIC]\n\n2\n00:00:03,000 --> 00:00:05,000\n(applause)\n", name: "x.srt")
        XCTAssertEqual(error?.code, .empty)
        XCTAssertEqual(error?.reason, "no spoken text found (only sound tags)")
        error = failure("WEBVTT\n\nNOTE nothing but a note\n", name: "empty.vtt")
        XCTAssertEqual(error?.reason, "no cues found")

        // WebVTT: a bad cue among good ones (mm:ss.ttt times), named by its line.
        let vtt = try read("WEBVTT\n\n00:01.000 --> 00:0x.000\nLost words.\n\n00:02.000 --> 00:04.000\nKept words.\n", name: "a.vtt").document
        XCTAssertEqual(vtt.blocks.map(\.text), ["Kept words."])
        XCTAssertEqual(vtt.blocks.first?.start, 2)
        XCTAssertEqual(vtt.warnings, [ExtractionWarning("malformed timing line '00:01.000 --> 00:0x.000' (cue skipped)", line: 3)])

        // Stamped text: a bent stamp is reported, not glued to the line before.
        let stamped = try read("[00:00:01] Alpha decays.\n[00:0x:05] Beta decays.\n[00:00:09] Gamma rays.\n", name: "n.txt").document
        XCTAssertEqual(stamped.blocks.map(\.text), ["Alpha decays.", "Gamma rays."])
        XCTAssertEqual(stamped.warnings, [ExtractionWarning("malformed time stamp '[00:0x:05]' (cue skipped)", line: 2)])

        // JSON turns: a turn that ends before it starts; a file of bad turns fails.
        let turns = try read(#"[{"start":0,"end":3,"text":"Osmosis moves water."},{"start":9,"end":4,"text":"Backwards."}]"#, name: "t.json").document
        XCTAssertEqual(turns.blocks.map(\.text), ["Osmosis moves water."])
        XCTAssertEqual(turns.warnings, ["turn 2 ends before it starts (cue skipped)"])
        error = failure(#"[{"start":"soon","text":"When?"},{"start":true,"text":"Then."},{"start":-4,"text":"Before."},{"start":1e300,"text":"After."}]"#, name: "t.json")
        XCTAssertEqual(error?.reason, "turn 1 has no valid start time (and 3 more bad cues)")
        XCTAssertNil(error?.line)
    }

    func testCuesRunTogetherWithoutBlankLinesAreSplit() throws {
        let srt = "1\r\n00:00:01,000 --> 00:00:03,000\r\nNewton's first law is about inertia.\r\n2\r\n00:00:03,000 --> 00:00:06,000\r\n<font color=\"#ffff00\">A body at rest stays at rest.</font>\r\n"
        let document = try read(srt, name: "run.srt").document
        XCTAssertEqual(document.blocks.map(\.text), ["Newton's first law is about inertia.", "A body at rest stays at rest."])
        XCTAssertEqual(document.blocks.map(\.start), [1, 3])
        XCTAssertTrue(document.warnings.isEmpty, "\(document.warnings)")
    }

    func testSeveralVoicesInOneCueBecomeSeparateSpeakers() throws {
        let vtt = """
            WEBVTT

            00:00:10.000 --> 00:00:14.000
            <v Professor>Is ATP made in glycolysis?</v>
            <v.quiet Student>Yes, two molecules net.</v>
            """
        let blocks = try read(vtt, name: "v.vtt").document.blocks
        XCTAssertEqual(blocks.map(\.text), ["Is ATP made in glycolysis?", "Yes, two molecules net."])
        XCTAssertEqual(blocks.map(\.speaker), ["Professor", "Student"])
        XCTAssertEqual(blocks[0].start, 10)
        let answer = try XCTUnwrap(blocks[1].start)
        XCTAssertTrue(answer > 11 && answer < 13, "the answer starts part-way through the cue: \(answer)")
        XCTAssertEqual(blocks[0].end, blocks[1].start)
        XCTAssertEqual(blocks[1].end, 14)
    }

    /// YouTube's automatic captions: a line holding one space inside each cue, word-time tags,
    /// 10 ms cues that repeat the line before, and every line shown twice as it rolls up.
    func testYouTubeAutomaticCaptionsReadOnce() throws {
        let vtt = """
            WEBVTT
            Kind: captions
            Language: en

            00:00:00.000 --> 00:00:02.350 align:start position:0%
             
            so<00:00:00.320><c> today</c><00:00:00.640><c> we're</c><00:00:01.040><c> going</c><00:00:01.360><c> to</c><00:00:01.520><c> talk</c>

            00:00:02.350 --> 00:00:02.360 align:start position:0%
            so today we're going to talk
             

            00:00:02.360 --> 00:00:05.120 align:start position:0%
            so today we're going to talk
            about<00:00:02.800><c> the</c><00:00:03.120><c> krebs</c><00:00:03.600><c> cycle</c>

            00:00:05.120 --> 00:00:05.130 align:start position:0%
            about the krebs cycle
             

            00:00:05.130 --> 00:00:08.000 align:start position:0%
            about the krebs cycle
            [Music]
            """
        let document = try read(vtt, name: "auto.en.vtt").document
        XCTAssertEqual(document.blocks.map(\.text), ["so today we're going to talk about the krebs cycle"])
        XCTAssertEqual(document.blocks.first?.start, 0)
        XCTAssertEqual(document.blocks.first?.end, 8)
        XCTAssertEqual(document.blocks.first?.attributes["sounds"], "Music")
        XCTAssertEqual(document.metadata["rolled_repeats_removed"], "3")
        XCTAssertEqual(document.metadata["sounds"], "00:00:05 Music")
    }

    func testSoundTagsLeaveTheTextAndStayOnTheBlocks() throws {
        let limits = try read(TestPaths.corpora.appendingPathComponent("transcripts/limits-lecture.srt")).document
        XCTAssertEqual(limits.blocks.first?.text, "Today we make the idea of a limit precise.")
        XCTAssertEqual(limits.blocks.first?.attributes["sounds"], "chalk tapping")
        XCTAssertTrue(limits.metadata["sounds"]?.hasPrefix("00:00:01 chalk tapping") ?? false, "\(limits.metadata)")
        XCTAssertFalse(limits.blocks.contains { $0.text.contains("chalk") })
        let biology = try read(TestPaths.corpora.appendingPathComponent("transcripts/cell-respiration-lecture.vtt")).document
        XCTAssertEqual(biology.blocks.first?.attributes["sounds"], "MUSIC")
        XCTAssertFalse(biology.blocks.contains { $0.text.contains("♪") || $0.text.contains("MUSIC") })
    }

    /// Readers are chosen by what a file holds, not what it is called.
    func testTranscriptsAreRecognisedByContent() throws {
        let srt = "1\n00:00:01,000 --> 00:00:03,000\nMeiosis halves the chromosome number.\n"
        XCTAssertEqual(try read(srt, name: "notes.txt").reader, "srt")
        XCTAssertEqual(try read("WEBVTT\n\n00:01.000 --> 00:03.000\nHello.\n", name: "captions").reader, "vtt")
        XCTAssertEqual(try read(#"{"segments":[{"start":0.0,"end":2.5,"text":" Whisper writes segments."}]}"#, name: "out.json").reader,
                       "transcript-json")
        XCTAssertEqual(try read("[00:00:03] Ohm's law.\n[00:00:09] V equals I R.\n", name: "stamps.md").reader, "transcript-text")
        // Text that merely mentions times or arrows stays text.
        let markdown = "# Schedule\n\nWe meet weekly.\n\n- [09:30] coffee\n- Talks follow.\n\nThe pipeline runs a --> b --> c.\n\nBring notes.\n"
        XCTAssertEqual(try read(markdown, name: "plan.md").reader, "markdown")
        XCTAssertEqual(try read("Step 1 --> step 2.\nThen 10:30 is lunch.\n", name: "plain.txt").reader, "text")
        // JSON of another shape is no transcript, and not text either.
        XCTAssertThrowsError(try read(#"[{"name":"a","value":1},{"name":"b","value":2}]"#, name: "data.json")) { error in
            XCTAssertEqual((error as? LecternError)?.code, .unknownShape)
        }
    }

    func testAnOCWCourseJSONIsNotAJSONTurnsFile() throws {
        // An OCW course JSON (it has transcripts inside, as HTML) is not a JSON turns file.
        let ocw = try TestPaths.sharedCorpus("ocw/6-050j-information-and-entropy-spring-2008_parsed.json")
        let input = SourceInput(uri: ocw.absoluteString, path: ocw.path, data: try Data(contentsOf: ocw))
        XCTAssertEqual(TranscriptJSONExtractor().confidence(for: input), 0)
    }

    /// The API other timed readers (OCW's `<span m='…'>` transcripts) use: one cue per timed
    /// span in, sentences with the time of the span they start in out.
    func testTimedSpansBecomeSentencesThroughTheBuilder() {
        let cues = [
            Cue(start: 4.19, text: "so today we'll talk"),
            Cue(start: 6.0, text: "about momentum. It is"),
            Cue(start: 8.5, text: "conserved [LAUGHTER] in every collision."),
        ]
        let blocks = TranscriptBuilder.blocks(from: cues, sectionPath: ["Lecture 12"])
        XCTAssertEqual(blocks.map(\.text), ["so today we'll talk about momentum.", "It is conserved in every collision."])
        XCTAssertEqual(blocks.map(\.start), [4.19, 6.0])
        XCTAssertEqual(blocks.map(\.end), [8.5, 10.5])
        XCTAssertEqual(blocks.map(\.kind), [.cue, .cue])
        XCTAssertEqual(blocks[0].sectionPath, ["Lecture 12"])
        XCTAssertEqual(blocks[1].attributes["sounds"], "LAUGHTER")
    }

    /// Subtitle files from old tools are UTF-16 or Windows-1252, not UTF-8.
    func testUTF16AndWindows1252SubtitlesAreRead() throws {
        let srt = "1\r\n00:00:02,000 --> 00:00:05,000\r\nLe café est prêt; René explique l'entropie.\r\n"
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(srt.data(using: .utf16LittleEndian) ?? Data())
        let input = SourceInput(uri: "file:///tmp/cours.srt", path: "/tmp/cours.srt", data: utf16)
        let reader = try registry.reader(for: input)
        XCTAssertEqual(reader.name, "srt")
        let wide = try reader.extract(input)
        XCTAssertEqual(wide.blocks.map(\.text), ["Le café est prêt; René explique l'entropie."])
        XCTAssertEqual(wide.blocks.first?.start, 2)
        XCTAssertTrue(wide.warnings.isEmpty)

        let latin = try XCTUnwrap(srt.data(using: .windowsCP1252))
        XCTAssertNil(String(data: latin, encoding: .utf8), "the test file is not UTF-8")
        let old = SourceInput(uri: "file:///tmp/cours.srt", path: "/tmp/cours.srt", data: latin)
        let document = try registry.reader(for: old).extract(old)
        XCTAssertEqual(document.blocks.map(\.text), ["Le café est prêt; René explique l'entropie."])
        XCTAssertEqual(document.warnings, ["invalid UTF-8: read as Windows-1252 (pass --encoding to name another)"])
    }

    func testSoundTagsAreToldApartFromBracketsInSpeech() {
        let cases: [(String, String, [String])] = [
            ("(logo whooshing) Welcome back.", "Welcome back.", ["logo whooshing"]),
            ("[MUSIC] Today: integrals.", "Today: integrals.", ["MUSIC"]),
            ("So [inaudible] and that's it.", "So and that's it.", ["inaudible"]),
            ("[BLANK_AUDIO]", "", ["BLANK_AUDIO"]),
            ("♪ upbeat music ♪", "", ["upbeat music"]),
            ("on the closed interval [0, 1] f is continuous", "on the closed interval [0, 1] f is continuous", []),
            ("(x + 1) squared is x squared plus 2x plus 1", "(x + 1) squared is x squared plus 2x plus 1", []),
            ("the array a[i] holds part (b) of the answer", "the array a[i] holds part (b) of the answer", []),
            ("the enzyme (as we saw last week) is a protein", "the enzyme (as we saw last week) is a protein", []),
            ("and then (STUDENTS LAUGHING) we stop", "and then we stop", ["STUDENTS LAUGHING"]),
        ]
        for (text, kept, sounds) in cases {
            let (output, tags) = TranscriptBuilder.removeSoundTags(text)
            XCTAssertEqual(TextCleanup.collapseWhitespace(output).trimmingCharacters(in: .whitespaces), kept, text)
            XCTAssertEqual(tags, sounds, text)
        }
    }

    /// The builder on real timed text: MIT OCW's `<span m='4190'>` transcripts (8.01SC, 206 of
    /// them), one cue per span as an OCW reader would make them. Sentences come out whole,
    /// every word in order, each starting at the span its first word is in.
    func testOCWTimedSpansBecomeWholeSentencesAtTheRightTimes() throws {
        let url = try TestPaths.sharedCorpus("ocw/8-01sc-classical-mechanics-fall-2016_parsed.json")
        let course = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let media = try XCTUnwrap(course["course_embedded_media"] as? [String: [String: Any]])
        let span = try NSRegularExpression(pattern: "<span m='([0-9]+)'>([^<]*)</span>")
        var transcripts = 0
        var speakers: Set<String> = []
        for (_, item) in media {
            guard let html = item["transcript"] as? String, !html.isEmpty else { continue }
            let range = NSRange(html.startIndex..., in: html)
            let cues = span.matches(in: html, range: range).compactMap { match -> Cue? in
                guard let ms = Range(match.range(at: 1), in: html).flatMap({ Double(html[$0]) }),
                      let text = Range(match.range(at: 2), in: html).map({ String(html[$0]) }) else { return nil }
                return Cue(start: ms / 1000, text: text)
            }
            guard cues.count > 1 else { continue }
            transcripts += 1
            let blocks = TranscriptBuilder.blocks(from: cues)
            let words = { (s: String) in s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) }
            // Every spoken word survives, in order; "[INAUDIBLE]" and "PROFESSOR:" labels do not.
            let spoken = cues.map(\.text).joined(separator: " ")
                .replacingOccurrences(of: #"\[[A-Z ]+\]"#, with: " ", options: .regularExpression)
                .replacingOccurrences(of: #"(^|\s)[A-Z][A-Z. ]+:"#, with: " ", options: .regularExpression)
                .replacingOccurrences(of: "[?", with: " ").replacingOccurrences(of: "?]", with: " ")
            XCTAssertEqual(words(blocks.map(\.text).joined(separator: " ")), words(spoken))
            speakers.formUnion(blocks.compactMap(\.speaker))
            let starts = blocks.compactMap(\.start)
            XCTAssertEqual(starts.count, blocks.count)
            XCTAssertEqual(starts, starts.sorted())
            // Each sentence starts when the span holding its first word is said: walking the
            // spans in order, the sentence's start is a span's start and that span has the word.
            var cursor = 0
            for block in blocks {
                guard let index = cues[cursor...].firstIndex(where: { $0.start == block.start }) else {
                    XCTFail("\(block.start ?? -1) is no span's start: \(block.text)")
                    break
                }
                cursor = index
                let firstWord = words(block.text).first.map(String.init) ?? ""
                XCTAssertTrue(words(cues[index].text).contains { $0 == firstWord }, "\(block.text) / \(cues[index].text)")
            }
        }
        XCTAssertTrue(transcripts > 200, "\(transcripts) transcripts")
        XCTAssertTrue(speakers.isSuperset(of: ["Deepto Chakrabarty", "Professor"]), "\(speakers)")
        // The first transcript's opening, split over two spans, is one sentence.
        let first = try XCTUnwrap(media.values.compactMap { $0["transcript"] as? String }.first { $0.contains("m='4190'>We'd like to now calculate") })
        let cues = span.matches(in: first, range: NSRange(first.startIndex..., in: first)).compactMap { match in
            Range(match.range(at: 1), in: first).flatMap { Double(first[$0]) }.map { ms in
                Cue(start: ms / 1000, text: Range(match.range(at: 2), in: first).map { String(first[$0]) } ?? "")
            }
        }
        let opening = try XCTUnwrap(TranscriptBuilder.blocks(from: cues).first)
        XCTAssertEqual(opening.text, "We'd like to now calculate the angular momentum about an axis rotation of a symmetric object like a ring.")
        XCTAssertEqual(opening.start, 4.19)
        XCTAssertEqual(opening.end, 12.11)
    }

    func testCaptionMarkupAndEntitiesAreRemoved() throws {
        let vtt = """
            WEBVTT FILE

            00:00:01.000 --> 00:00:04.000
            <c.yellow><b>Entropy</b></c> isn&#8217;t <u>disorder</u> &amp; it&#x2019;s <lang fr>mesurable</lang>.
            <ruby>熵<rt>shāng</rt></ruby> &lt;S&gt; &#0; &#xZZ; stays.
            """
        let document = try read(vtt, name: "markup.vtt").document
        XCTAssertEqual(document.title, "")
        XCTAssertEqual(document.blocks.map(\.text), ["Entropy isn’t disorder & it’s mesurable. 熵 <S> &#0; &#xZZ; stays."])
        XCTAssertEqual(SubtitleParser.stripMarkup("{\\an8}Top line &amp;amp; more"), "Top line &amp; more")
    }

    /// A maths or programming lecture says `x < 5`, `a<b`, `{1, 2, 3}` and `<= n`: only the
    /// markup subtitles define is removed, the rest is what was said.
    func testComparisonsAndBracesInCaptionsAreText() throws {
        let srt = """
            1
            00:00:01,000 --> 00:00:04,000
            {\\an8}If x < 5 and y > 3, the point is inside.

            2
            00:00:04,000 --> 00:00:08,000
            <i>The set {1, 2, 3} has three elements</i> when a<b and b>c.

            3
            00:00:08,000 --> 00:00:11,000
            Loop while i <= n, then return <font color="#ffff00">the sum</font>.
            """
        let document = try read(srt, name: "maths.srt").document
        XCTAssertEqual(document.blocks.map(\.text).joined(separator: " "),
                       "If x < 5 and y > 3, the point is inside. The set {1, 2, 3} has three elements when a<b and b>c. Loop while i <= n, then return the sum.")
    }

    /// Damaged transcripts (lines lost, doubled or swapped, bytes changed, cut short) never
    /// crash a reader: each gives a document or one LecternError.
    func testDamagedTranscriptsGiveADocumentOrAnErrorNeverACrash() throws {
        let folder = TestPaths.corpora.appendingPathComponent("transcripts")
        let originals = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.path < $1.path }.map { try Data(contentsOf: $0) }
        XCTAssertEqual(originals.count, 4)
        var random = SplitMix(seed: 5)
        var documents = 0
        var errors = 0
        for round in 0..<400 {
            var lines = String(decoding: originals[round % originals.count], as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<(1 + random.next(3)) {
                guard !lines.isEmpty else { break }
                let at = random.next(lines.count)
                switch random.next(6) {
                case 0: lines.remove(at: at)
                case 1: lines.insert(lines[at], at: at)
                case 2: lines.swapAt(at, random.next(lines.count))
                case 3: lines[at] = String(lines[at].shuffled(using: &random))
                case 4: lines[at] = String(lines[at].prefix(random.next(lines[at].count + 1)))
                default: lines[at] = lines[at].replacingOccurrences(of: ["-->", ":", ",", ".", "[", "]", "\"", "<"][random.next(8)], with: "")
                }
            }
            var data = Data(lines.joined(separator: round % 3 == 0 ? "\r\n" : "\n").utf8)
            if round % 5 == 0, !data.isEmpty { data[random.next(data.count)] = UInt8(random.next(256)) }
            if round % 7 == 0 { data = data.prefix(random.next(data.count + 1)) }
            let input = SourceInput(uri: "file:///tmp/damaged-\(round)", path: "/tmp/damaged-\(round)", data: data)
            for reader in [WebVTTExtractor(), SRTExtractor(), TranscriptJSONExtractor(), StampedTranscriptExtractor()] as [any Extractor] {
                _ = reader.confidence(for: input)
                do {
                    let document = try reader.extract(input)
                    XCTAssertTrue(document.blocks.allSatisfy { $0.start != nil && !$0.text.isEmpty })
                    documents += 1
                } catch is LecternError {
                    errors += 1
                }
            }
        }
        XCTAssertTrue(documents > 100 && errors > 100, "\(documents) documents, \(errors) errors")
    }
}

extension TranscriptTests {
    /// Cue text that joins with its neighbours when written one after the other (a cue that
    /// starts with a combining accent or a zero-width joiner, emoji, right-to-left text,
    /// sentences without end) never breaks the builder, and no word is lost: every word of every
    /// cue is in the sentences, except what the builder takes out on purpose (sound tags and
    /// speaker labels, tested on their own above, and a cue that only repeats the one before it,
    /// as rolling captions do), and no word appears that no cue said.
    func testCuesWithAnyTextBuildWithoutLosingWords() {
        let pieces = ["\u{301}accent first", "\u{200D}joined", "👩‍🔬 scientist.", "مرحبا بالعالم", "熵增加。", "e\u{301}te\u{301}.",
                      "no end", "A.", "  ", "", "(sound)", "[x + 1]", "- turn", ">> next", "PROF:", "\u{FE0F}", "🇫🇷 flag!", "Ω?"]
        var random = SplitMix(seed: 11)
        var repeatsSeen = 0
        for round in 0..<300 {
            var time = 0.0
            let cues = (0..<(1 + random.next(30))).map { _ -> Cue in
                time += Double(random.next(4000)) / 1000
                let text = (0..<(1 + random.next(4))).map { _ in pieces[random.next(pieces.count)] }.joined(separator: random.next(2) == 0 ? " " : "")
                return Cue(start: time, end: random.next(3) == 0 ? nil : time + Double(random.next(3000)) / 1000, text: text,
                           speaker: random.next(4) == 0 ? "S\(random.next(2))" : nil)
            }
            var builder = TranscriptBuilder()
            builder.unpunctuatedWords = 1 + random.next(8)
            let blocks = builder.build(cues).blocks
            XCTAssertTrue(blocks.allSatisfy { ($0.start ?? -1) >= 0 && ($0.end ?? -1) >= ($0.start ?? 0) && !$0.text.isEmpty })

            var said: [String] = []  // every word the cues speak
            var kept: [String] = []  // the words of cues that do not repeat the cue before them
            var previous: String?
            for cue in cues {  // already in time order
                let spoken = TranscriptBuilder.takeSpeaker(TranscriptBuilder.removeSoundTags(cue.text).0, speaker: cue.speaker).0
                let words = Self.words(spoken)
                guard !words.isEmpty else { continue }
                said += words
                let shown = TranscriptBuilder.fold(TranscriptBuilder.dropOrphanMarks(TextCleanup.collapseWhitespace(spoken)))
                if shown == previous { repeatsSeen += 1 } else { kept += words }
                previous = shown
            }
            let written = Self.words(blocks.map(\.text).joined(separator: " "))
            XCTAssertTrue(Self.isSubmultiset(kept, of: written), "round \(round): lost \(Self.missing(kept, from: written)) of \(cues.map(\.text))")
            XCTAssertTrue(Self.isSubmultiset(written, of: said), "round \(round): invented \(Self.missing(written, from: said)) from \(cues.map(\.text))")
        }
        XCTAssertGreaterThan(repeatsSeen, 0, "the generator makes repeated cues too")
        // An orphan accent at a cue's start is dropped, and the cut pieces keep every word.
        var builder = TranscriptBuilder()
        builder.unpunctuatedWords = 2
        let blocks = builder.build([Cue(start: 1, text: "the first part"), Cue(start: 2, text: "\u{301}and the second part"),
                                    Cue(start: 3, end: 4, text: "and the third")]).blocks
        XCTAssertEqual(blocks.map(\.text), ["the first part", "and the second part", "and the third"])
        XCTAssertEqual(blocks.map(\.start), [1, 2, 3])
    }
}

extension TranscriptTests {
    /// Words as a reader sees them: runs of letters and digits, accents, joiners and variation
    /// selectors set aside (so an accent written apart and one composed read the same).
    static func words(_ text: String) -> [String] {
        let scalars = text.decomposedStringWithCanonicalMapping.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: return false
            default: return !scalar.properties.isVariationSelector
            }
        }
        return String(String.UnicodeScalarView(scalars)).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// The words of `part` that `whole` lacks, counting repeats.
    static func missing(_ part: [String], from whole: [String]) -> [String] {
        var counts = Dictionary(whole.map { ($0, 1) }, uniquingKeysWith: +)
        return part.filter { word in
            guard let count = counts[word], count > 0 else { return true }
            counts[word] = count - 1
            return false
        }
    }

    static func isSubmultiset(_ part: [String], of whole: [String]) -> Bool { missing(part, from: whole).isEmpty }
}

/// A small seeded generator, so a damaged file that fails can be made again (also what
/// `shuffled(using:)` draws from, so every draw of a round follows the seed).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next() % UInt64(bound))
    }
}
