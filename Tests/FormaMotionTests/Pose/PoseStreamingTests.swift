import Testing

@testable import FormaMotion
import FormaMotionLab

@Suite struct PoseStreamingTests {
    /// Replays the events into an analysis, as a live session's client would.
    static func collect(_ events: [PoseEvent]) -> (repetitions: Int, partials: Int, cues: [String], presence: Int) {
        var repetitions = 0
        var partials = 0
        var cues: [String] = []
        var presence = 0
        for event in events {
            switch event {
            case .repetition: repetitions += 1
            case .partialRepetition: partials += 1
            case let .mistake(cue): cues.append(cue.code)
            case .leftFrame, .returnedToFrame: presence += 1
            }
        }
        return (repetitions, partials, cues, presence)
    }

    @Test(arguments: ["squat", "lunge", "flank-stretch", "push-up"])
    func streaming_givesTheSameResultAsBatch(exerciseID: String) throws {
        // setup
        let exercise = try #require(PoseExercises.named(exerciseID))
        var (_, recording) = PoseScenarios.set(exerciseID, seed: 42)
        recording.frames.insert(PoseFrame(timeSeconds: 0.5, landmarks: nil), at: min(20, recording.frames.count))
        // act
        let batch = PoseAnalyzer.analyze(recording, exercise: exercise)
        var streaming = PoseAnalyzer(exercise: exercise, aspectRatio: recording.aspectRatio)
        var events: [PoseEvent] = []
        for frame in recording.frames { events += streaming.process(frame) }
        events += streaming.finish()
        // verify
        #expect(streaming.analysis == batch)
        let replayed = Self.collect(events)
        #expect(replayed.repetitions == batch.count)
        #expect(replayed.partials == batch.partialRepetitions.count)
        #expect(replayed.cues == batch.mistakes.map(\.code))
        #expect(batch.count > 0)
    }

    @Test func repetitionEvent_comesAsSoonAsThePersonIsBackAtTheStart() throws {
        // setup
        let exercise = try #require(PoseExercises.named("squat"))
        var synthesizer = PoseSynthesizer(exerciseID: "squat", repetitions: [.init()])
        synthesizer.leadSeconds = 2
        var rng = SeededGenerator(seed: 9)
        let recording = try #require(synthesizer.recording(using: &rng))
        var analyzer = PoseAnalyzer(exercise: exercise)
        // act
        var reportedAt: Double?
        for frame in recording.frames {
            for case let .repetition(repetition) in analyzer.process(frame) {
                reportedAt = frame.timeSeconds
                #expect(repetition.number == 1)
            }
        }
        // verify: the movement ends at 2 + 1 + 0.2 + 1 = 4.2 s; the event must not wait for the end of the file.
        let time = try #require(reportedAt)
        #expect(time > 3.4 && time < 4.3)
    }

    @Test func framesOutOfOrderOrMalformed_areIgnoredSafely() throws {
        // setup
        let exercise = try #require(PoseExercises.named("squat"))
        var analyzer = PoseAnalyzer(exercise: exercise)
        let good = PoseFrame(timeSeconds: 1, landmarks: Array(repeating: Landmark(x: 0.5, y: 0.5), count: 33))
        // act
        _ = analyzer.process(good)
        let backwards = analyzer.process(PoseFrame(timeSeconds: 0.5, landmarks: good.landmarks))
        let short = analyzer.process(PoseFrame(timeSeconds: 2, landmarks: [Landmark(x: 0, y: 0)]))
        let nan = analyzer.process(
            PoseFrame(timeSeconds: 3, landmarks: Array(repeating: Landmark(x: .nan, y: 0.5), count: 33)))
        // verify: malformed frames count as frames without a person, so after a second the person has left.
        #expect(backwards.isEmpty && short.isEmpty)
        #expect(nan == [.leftFrame(sinceSeconds: 1)])
        #expect(analyzer.analysis.framesAnalysed == 3)
        #expect(analyzer.analysis.count == 0)
    }
}
