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
        let reps = events.compactMap { if case .repetition(let rep) = $0 { rep.count } else { nil } }
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

    @Test func theFrameEncoderRefusesWhatTheFormatCannotCarry() throws {
        let point = PoseLandmarkPoint(x: 0.5, y: 0.5)
        #expect(throws: FormaError.invalidArgument(field: "landmarks", message: "32 points; send 33 or none")) {
            try LiveFrameEncoder.encode(timeSeconds: 1, landmarks: Array(repeating: point, count: 32))
        }
        var points = Array(repeating: point, count: 33)
        points[7].visibility = .nan
        #expect(throws: FormaError.invalidArgument(field: "landmarks", message: "values must be finite numbers")) {
            try LiveFrameEncoder.encode(timeSeconds: 1, landmarks: points)
        }
        #expect(throws: FormaError.invalidArgument(field: "timeSeconds", message: "must be finite")) {
            try LiveFrameEncoder.encode(timeSeconds: .infinity, landmarks: nil)
        }
        #expect(try LiveFrameEncoder.encode(timeSeconds: 1, landmarks: Array(repeating: point, count: 33)).count == 540)
    }

    @Test func liveEventsFromTheServer_decodeToTheSameCases() throws {
        // setup: the documented examples (docs/live-protocol.md, "Events")
        let rep = #"{"type":"rep","exercise":"squat","count":3,"start":4.2,"end":6.05,"duration":1.85,"tempo":"1.0-0.9","rangeOfMotion":92.5,"unit":"degrees","quality":0.85,"mistakes":["knees-caving"]}"#
        let mistake = #"{"type":"mistake","exercise":"squat","code":"knees-caving","message":"Push your knees out","t":5.1,"repetition":3}"#

        // act
        let decodedRep = try LiveEvent(json: rep)
        let decodedMistake = try LiveEvent(json: mistake)

        // verify: every field read, and the events are the ones on-device counting makes
        guard case .repetition(let repetition) = decodedRep, case .mistake(let cue) = decodedMistake else {
            Issue.record("decoded \(decodedRep), \(decodedMistake)")
            return
        }
        #expect(repetition.count == 3 && repetition.start == 4.2 && repetition.end == 6.05)
        #expect(repetition.quality == 0.85 && repetition.mistakes == ["knees-caving"] && repetition.tempo == "1.0-0.9")
        #expect(cue.code == "knees-caving" && cue.message == "Push your knees out" && cue.repetition == 3)
        #expect(try LiveEvent(json: #"{"type":"left_frame","t":9.4}"#) == .leftFrame(at: 9.4))
        #expect(try LiveEvent(json: #"{"type":"cheer"}"#) == .unknown(type: "cheer"))
    }

    @Test func aLiveEventWithAMissingField_isRefused_notReadAsZero() {
        // A rep without its quality once decoded as quality 0; now the host hears that the message is wrong.
        let noQuality = #"{"type":"rep","exercise":"squat","count":3,"start":4.2,"end":6.05,"duration":1.85,"tempo":"1.0-0.9","rangeOfMotion":92.5,"unit":"degrees","mistakes":[]}"#
        #expect(throws: FormaError.self) { try LiveEvent(json: noQuality) }
        #expect(throws: FormaError.self) { try LiveEvent(json: #"{"type":"left_frame"}"#) }
        #expect(throws: FormaError.self) { try LiveEvent(json: "[]") }
    }

    @Test func onDeviceEvents_areWrittenAndReadAsTheServersAre() throws {
        // setup
        var counter = try OnDeviceCounter(exercise: "squat")
        var events: [LiveEvent] = []
        for frame in try squats(3).frames {
            let points = frame.landmarks?.map { PoseLandmarkPoint(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility) }
            events += try counter.process(timeSeconds: frame.timeSeconds, landmarks: points)
        }

        // act: through the wire format and back
        let decoded = try events.map { try LiveEvent(json: $0.jsonText) }

        // verify
        #expect(decoded == events)
        #expect(events.filter { $0.type == "rep" }.count == 3)
    }
}
