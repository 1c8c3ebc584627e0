import Testing

@testable import FormaMotion
import FormaMotionLab

@Suite struct PoseCountingTests {
    static let seeds: Range<UInt64> = 0..<12

    @Test func catalogue_hasEveryRequiredExerciseAndTheSynthesiserMovesThemAll() {
        // setup
        let required = [
            "squat", "push-up", "pull-up", "dip", "lunge", "biceps-curl", "shoulder-press", "sit-up", "jumping-jack",
            "glute-bridge", "shoulder-abduction", "straight-leg-raise", "sit-to-stand", "deep-squat", "hurdle-step",
            "shoulder-extension",
        ]
        // act
        let missing = required.filter { PoseExercises.named($0) == nil }
        let unmoved = PoseExercises.all.filter { !SyntheticMotion.supports($0.id) }.map(\.id)
        // verify
        #expect(missing.isEmpty)
        #expect(unmoved.isEmpty)
        #expect(Set(PoseExercises.all.map(\.id)).count == PoseExercises.all.count, "identifiers are unique")
        #expect(PoseExercises.named("Biceps Curl")?.id == "biceps-curl")
        #expect(PoseExercises.named("pushups") == nil)
        #expect(PoseExercises.named("push_up")?.id == "push-up")
    }

    /// Every exercise over 12 seeded sets (varied camera angle, distance, body size, tempo, noise, occlusion and
    /// dropped frames, with one half repetition each): the counts the docs report.
    @Test(arguments: PoseExercises.all.map(\.id))
    func count_matchesPlanOnSyntheticSets(exerciseID: String) throws {
        // setup
        let exercise = try #require(PoseExercises.named(exerciseID))
        var exact = 0
        var absoluteError = 0
        var expectedTotal = 0
        var partialsSeen = 0
        // act
        for seed in Self.seeds {
            let (synthesizer, recording) = PoseScenarios.set(exerciseID, seed: seed)
            let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
            let error = analysis.count - synthesizer.expectedCount
            if error == 0 { exact += 1 } else { print("\(exerciseID) seed \(seed): off by \(error)") }
            absoluteError += abs(error)
            expectedTotal += synthesizer.expectedCount
            if !analysis.partialRepetitions.isEmpty { partialsSeen += 1 }
        }
        // verify
        #expect(Double(exact) >= Double(Self.seeds.count) * 0.85)
        #expect(Double(absoluteError) <= Double(expectedTotal) * 0.05)
        #expect(Double(partialsSeen) >= Double(Self.seeds.count) * 0.6, "half repetitions are reported")
    }

    @Test func cleanSet_isCountedExactlyWithTimesRangeAndTempo() throws {
        // setup
        let exercise = try #require(PoseExercises.named("squat"))
        var synthesizer = PoseSynthesizer(exerciseID: "squat", repetitions: Array(repeating: .init(), count: 5))
        synthesizer.outwardSeconds = 1.5
        synthesizer.returnSeconds = 1.0
        var rng = SeededGenerator(seed: 3)
        let recording = try #require(synthesizer.recording(using: &rng))
        // act
        let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
        // verify
        #expect(analysis.count == 5)
        #expect(analysis.partialRepetitions.isEmpty)
        for repetition in analysis.repetitions {
            #expect(repetition.turningValue < 100 && repetition.startValue > 160)
            #expect(abs(repetition.rangeOfMotion - (repetition.startValue - repetition.turningValue)) < 1e-9)
            #expect(repetition.outwardSeconds > repetition.returnSeconds, "1.5 s down, 1.0 s up")
            // From leaving the start (within 10 % of the range) to coming back within 30 % of it: about 2.0 of 2.7 s.
            #expect(repetition.durationSeconds > 1.7 && repetition.durationSeconds < 2.7)
            #expect(repetition.cues.isEmpty, "a clean squat gets no cue, got \(repetition.cues.map(\.code))")
        }
        #expect(zip(analysis.repetitions, analysis.repetitions.dropFirst()).allSatisfy { $0.endSeconds <= $1.startSeconds })
    }

    @Test func halfRepetition_isReportedAndNotCounted() throws {
        // setup
        let exercise = try #require(PoseExercises.named("push-up"))
        var synthesizer = PoseSynthesizer(
            exerciseID: "push-up", repetitions: [.init(), .init(), .init(depth: 0.4), .init()])
        synthesizer.cameraYawDegrees = 80
        var rng = SeededGenerator(seed: 11)
        let recording = try #require(synthesizer.recording(using: &rng))
        // act
        let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
        // verify
        #expect(analysis.count == 3)
        #expect(analysis.partialRepetitions.count == 1)
        let partial = try #require(analysis.partialRepetitions.first)
        #expect(partial.rangeOfMotion < partial.requiredRange)
        #expect(partial.cue.code == "not-deep-enough")
        #expect(analysis.mistakes.contains(partial.cue))
    }

    @Test(arguments: [
        ("squat", SyntheticMotion.Defect.kneesCaving, "knees-caving", 0.0),
        ("push-up", .hipsSagging, "hips-sagging", 80),
        ("biceps-curl", .elbowsDrifting, "elbows-drifting", 0),
        ("shoulder-abduction", .bentArm, "arm-bent", 0),
        ("straight-leg-raise", .bentArm, "leg-bent", 0),
    ])
    func formDefect_raisesItsCueAndCleanFormDoesNot(
        exerciseID: String, defect: SyntheticMotion.Defect, code: String, yaw: Double
    ) throws {
        // setup
        let exercise = try #require(PoseExercises.named(exerciseID))
        func run(_ defect: SyntheticMotion.Defect?) throws -> PoseAnalysis {
            var synthesizer = PoseSynthesizer(
                exerciseID: exerciseID, repetitions: Array(repeating: .init(defect: defect), count: 4))
            synthesizer.cameraYawDegrees = yaw
            var rng = SeededGenerator(seed: 5)
            return PoseAnalyzer.analyze(try #require(synthesizer.recording(using: &rng)), exercise: exercise)
        }
        // act
        let faulty = try run(defect)
        let clean = try run(nil)
        // verify
        #expect(faulty.count == 4 && clean.count == 4)
        let flagged = faulty.repetitions.filter { $0.cues.contains { $0.code == code } }.count
        #expect(flagged >= 3, "\(code) should fire on most faulty repetitions, fired on \(flagged)")
        #expect(!clean.mistakes.contains { $0.code == code })
        #expect(faulty.repetitions.map(\.quality).reduce(0, +) < clean.repetitions.map(\.quality).reduce(0, +))
    }

    @Test func leavingTheFrame_raisesLeftAndReturnedAndDropsTheRepetitionInProgress() throws {
        // setup: 4 squats; the person vanishes in the middle of the third.
        let exercise = try #require(PoseExercises.named("squat"))
        var synthesizer = PoseSynthesizer(exerciseID: "squat", repetitions: Array(repeating: .init(), count: 4))
        synthesizer.absences = [6.6...9.0]
        var rng = SeededGenerator(seed: 2)
        let recording = try #require(synthesizer.recording(using: &rng))
        // act
        let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
        // verify
        #expect(analysis.presenceChanges.map(\.kind) == [.left, .returned])
        let left = try #require(analysis.presenceChanges.first)
        let returned = try #require(analysis.presenceChanges.last)
        #expect(abs(left.timeSeconds - 6.57) < 0.1, "left reports when the person was last seen")
        #expect(abs(returned.timeSeconds - 9.0) < 0.1)
        #expect(analysis.count == 3, "the interrupted squat does not count")
    }

    /// Short clips often begin with the person already moving: the first repetition must count, not become the start.
    @Test(arguments: ["squat", "push-up", "pull-up", "shoulder-press"])
    func setStartedBeforeTheCamera_countsTheFirstRepetition(exerciseID: String) throws {
        for seed in 0..<10 as Range<UInt64> {
            // setup: no still lead-in; the first repetition starts on the first frame and is near its turning point
            // when the half-second warm-up ends
            let exercise = try #require(PoseExercises.named(exerciseID))
            var synthesizer = PoseSynthesizer(exerciseID: exerciseID, repetitions: Array(repeating: .init(), count: 3))
            synthesizer.leadSeconds = 0
            synthesizer.outwardSeconds = 0.6
            synthesizer.cameraYawDegrees = SyntheticMotion.usualCameraYaw(exerciseID)
            var rng = SeededGenerator(seed: seed)
            let recording = try #require(synthesizer.recording(using: &rng))

            // act
            let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)

            // verify
            #expect(analysis.count == 3, "seed \(seed): \(exerciseID) counted \(analysis.count) of 3")
        }
    }

    /// A person whose range is short (arms never read straight at the hang) and who starts at once with a steady
    /// pull: when the half-second warm-up ends they have moved as far as a movement needs to start but less than a
    /// counting threshold, and what is left of the first repetition is short of one too. The warm-up began on the
    /// start side of the exercise's expected range, so that is where the person started: the first repetition
    /// counts (issue 17, workouttracker's pull-up_6; the counter before counted 2 of 3 on all ten seeds). The squat
    /// is the same situation where the old counter already managed; it must stay right.
    @Test(arguments: ["pull-up", "squat"])
    func shortRangeSetStartedAtOnce_countsTheFirstRepetition(exerciseID: String) throws {
        for seed in 0..<10 as Range<UInt64> {
            // setup: three repetitions at 60 % of the nominal range, the first starting on the first frame
            let exercise = try #require(PoseExercises.named(exerciseID))
            var synthesizer = PoseSynthesizer(
                exerciseID: exerciseID, repetitions: Array(repeating: .init(depth: 0.6), count: 3))
            synthesizer.leadSeconds = 0
            synthesizer.outwardSeconds = 0.85
            synthesizer.cameraYawDegrees = SyntheticMotion.usualCameraYaw(exerciseID)
            var rng = SeededGenerator(seed: seed)
            let recording = try #require(synthesizer.recording(using: &rng))

            // act
            let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)

            // verify
            #expect(analysis.count == 3, "seed \(seed): \(exerciseID) counted \(analysis.count) of 3")
        }
    }

    /// A pull-up filmed close up at the bar: the hips leave the bottom of the picture at every hang. The wrists and
    /// shoulders the count reads stay in it, so the person has not left and every pull-up counts (the analyser
    /// before said the person left at each hang and lost the repetitions).
    @Test func pullUpFilmedAtTheBar_hipsOutOfThePicture_countsEveryRepetition() throws {
        for seed in 0..<10 as Range<UInt64> {
            // setup: a synthetic set, zoomed in twice about the wrists (the bar)
            let exercise = try #require(PoseExercises.named("pull-up"))
            var synthesizer = PoseSynthesizer(exerciseID: "pull-up", repetitions: Array(repeating: .init(), count: 4))
            synthesizer.cameraYawDegrees = SyntheticMotion.usualCameraYaw("pull-up")
            var rng = SeededGenerator(seed: seed)
            let recording = try #require(synthesizer.recording(using: &rng))
            let closeUp = Self.zoomed(recording, by: 2, about: [PoseLandmark.leftWrist, .rightWrist])
            let hips = closeUp.frames.compactMap { $0.landmarks?[PoseLandmark.leftHip.rawValue].y }
            let shoulders = closeUp.frames.compactMap { $0.landmarks?[PoseLandmark.leftShoulder.rawValue].y }
            try #require(hips.filter { $0 > 1.1 }.count > closeUp.frames.count / 2, "the hips are mostly out of the picture")
            try #require(shoulders.allSatisfy { $0 < 1.05 }, "the shoulders stay in it")

            // act
            let analysis = PoseAnalyzer.analyze(closeUp, exercise: exercise)

            // verify
            #expect(analysis.count == 4, "seed \(seed): counted \(analysis.count) of 4")
            #expect(analysis.presenceChanges.isEmpty, "seed \(seed): the person never left")
        }
    }

    /// The recording as a camera zoomed `factor` times about the first frame's mean of `centre` landmarks would see it.
    static func zoomed(_ recording: PoseRecording, by factor: Double, about centre: [PoseLandmark]) -> PoseRecording {
        guard let first = recording.frames.lazy.compactMap(\.landmarks).first else { return recording }
        let cx = centre.map { first[$0.rawValue].x }.reduce(0, +) / Double(centre.count)
        let cy = centre.map { first[$0.rawValue].y }.reduce(0, +) / Double(centre.count)
        var result = recording
        for index in result.frames.indices {
            guard let landmarks = result.frames[index].landmarks else { continue }
            result.frames[index].landmarks = landmarks.map {
                Landmark(x: cx + factor * ($0.x - cx), y: cy + factor * ($0.y - cy), z: factor * $0.z,
                         visibility: $0.visibility)
            }
        }
        return result
    }
}
