import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@testable import FormaKit

@Suite struct OnDeviceCounterTests {
    private func squats(_ count: Int) throws -> PoseRecording {
        var synthesizer = PoseSynthesizer(exerciseID: "squat", repetitions: Array(repeating: .init(), count: count))
        var rng = SeededGenerator(seed: 7)
        return try #require(synthesizer.recording(using: &rng))
    }

    @Test func countsLandmarkFrames_likeTheServerDoes() throws {
        // setup
        let recording = try squats(6)
        var counter = try OnDeviceCounter(exercise: "squat")

        // act
        var events: [LiveEvent] = []
        for frame in recording.frames {
            let points = frame.landmarks?.map { PoseLandmarkPoint(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility) }
            events += try counter.process(timeSeconds: frame.timeSeconds, landmarks: points)
        }
        events += counter.finish()

        // verify: the same count as FormaMotion's batch analysis, one repetition event each, numbered in order
        let reps = events.compactMap { if case .repetition(let count, _, _, _, _) = $0 { count } else { nil } }
        #expect(reps == Array(1...6))
        #expect(counter.count == PoseAnalyzer.analyze(recording, exercise: PoseExercises.named("squat")!).count)
    }

    @Test func countsAppleVisionJoints() throws {
        // setup: Vision's points have their origin at the bottom left
        let recording = try squats(4)
        var counter = try OnDeviceCounter(exercise: "squat")
        let joints: [(BodyJoint, PoseLandmark)] = [
            (.nose, .nose), (.leftShoulder, .leftShoulder), (.rightShoulder, .rightShoulder),
            (.leftElbow, .leftElbow), (.rightElbow, .rightElbow), (.leftWrist, .leftWrist), (.rightWrist, .rightWrist),
            (.leftHip, .leftHip), (.rightHip, .rightHip), (.leftKnee, .leftKnee), (.rightKnee, .rightKnee),
            (.leftAnkle, .leftAnkle), (.rightAnkle, .rightAnkle),
        ]

        // act
        var count = 0
        for frame in recording.frames {
            var vision: [BodyJoint: (x: Double, y: Double, confidence: Double)] = [:]
            if let landmarks = frame.landmarks {
                for (joint, landmark) in joints {
                    let point = landmarks[landmark.rawValue]
                    vision[joint] = (point.x, 1 - point.y, point.visibility)
                }
            }
            count += counter.process(timeSeconds: frame.timeSeconds, visionJoints: vision)
                .filter { if case .repetition = $0 { true } else { false } }.count
        }

        // verify
        #expect(count == 4)
    }

    @Test func refusesWhatItCannotCount() {
        #expect(throws: FormaError.invalidArgument(field: "exercise", message: "unknown exercise 'sqaut'")) {
            try OnDeviceCounter(exercise: "sqaut")
        }
        #expect(OnDeviceCounter.exercises.contains("push-up"))
        var counter = try? OnDeviceCounter(exercise: "squat")
        #expect(throws: FormaError.self) {
            try counter?.process(timeSeconds: 0, landmarks: [PoseLandmarkPoint(x: 0, y: 0)])
        }
    }

    @Test func liveEventsFromTheServer_decodeToTheSameCases() throws {
        #expect(try LiveEvent(json: #"{"type":"rep","exercise":"squat","count":3,"start":4.2,"end":6.05,"duration":1.85,"tempo":"1.0-0.9","rangeOfMotion":92.5,"unit":"degrees","quality":0.85,"mistakes":["knees-caving"]}"#)
            == .repetition(count: 3, start: 4.2, end: 6.05, quality: 0.85, mistakes: ["knees-caving"]))
        #expect(try LiveEvent(json: #"{"type":"mistake","exercise":"squat","code":"knees-caving","message":"Push your knees out","t":5.1,"repetition":3}"#)
            == .mistake(code: "knees-caving", message: "Push your knees out"))
        #expect(try LiveEvent(json: #"{"type":"left_frame","t":9.4}"#) == .leftFrame(at: 9.4))
        guard case .other(let type, _) = try LiveEvent(json: #"{"type":"ready","session":"x"}"#) else {
            Issue.record("ready should be kept as other")
            return
        }
        #expect(type == "ready")
    }
}
