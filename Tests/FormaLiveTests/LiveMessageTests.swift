import Foundation
import Testing

@testable import FormaLive
@testable import FormaMotion

@Suite("Live control messages and events")
struct LiveMessageTests {
    // MARK: Control messages

    @Test(arguments: [
        (#"{"type": "start", "exercise": "squat"}"#, LiveControl.start(exercise: "squat")),
        (#"{"type": "start", "exercise": "squat", "workoutId": "w1", "exerciseId": "Squat", "aspectRatio": 1, "challengeSeconds": null}"#,
         .start(exercise: "squat", workoutID: "w1", exerciseID: "Squat", aspectRatio: 1)),
        (#"{"type": "start", "exercise": "squat", "challengeSeconds": 60.0}"#, .start(exercise: "squat", challengeSeconds: 60)),
        (#"{"type": "hello", "token": "ft_x"}"#, .hello(token: "ft_x")),
        (#"{"type": "exercise", "exercise": "lunge", "extra": [1]}"#, .exercise(exercise: "lunge")),
        (#"{"type": "pause"}"#, .pause), (#"{"type": "resume"}"#, .resume), (#"{"type": "end"}"#, .end),
        (#"{"type": "start", "exercise": "squat", "source": "replay"}"#, .start(exercise: "squat", source: .replay)),
        (#"{"type": "start", "exercise": "squat", "progress": true}"#, .start(exercise: "squat", progress: true)),
    ])
    func parse_readsEachControlMessage(text: String, expected: LiveControl) throws {
        #expect(try LiveControl.parse(text) == expected)
        #expect(try LiveControl.parse(expected.jsonText) == expected)
    }

    @Test(arguments: [(#"1"#, 1.0), (#"2"#, 2.0), (#"1.5"#, 1.5), (#"0.5625"#, 0.5625)])
    func aspectRatio_acceptsWholeAndFractionalNumbers(json: String, value: Double) throws {
        // A browser sends 1, not 1.0, for a square image; Linux Foundation once took that 1 for `true`.
        let control = try LiveControl.parse(#"{"type": "start", "exercise": "squat", "aspectRatio": \#(json)}"#)
        #expect(control == .start(exercise: "squat", aspectRatio: value))
    }

    @Test(arguments: [
        (#"not json"#, "message: must be a JSON object"),
        (#"[1, 2]"#, "message: must be a JSON object"),
        (#"{"type": "jump"}"#, "type: unknown message type 'jump'"),
        (#"{"kind": "start"}"#, "type: is required"),
        (#"{"type": 5}"#, "type: must be a non-empty string of at most 200 bytes"),
        (#"{"type": "start"}"#, "exercise: is required"),
        (#"{"type": "start", "exercise": ""}"#, "exercise: must be a non-empty string of at most 200 bytes"),
        (#"{"type": "hello"}"#, "token: is required"),
        (#"{"type": "start", "exercise": "squat", "aspectRatio": "wide"}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "start", "exercise": "squat", "aspectRatio": true}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "start", "exercise": "squat", "aspectRatio": 11}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "start", "exercise": "squat", "challengeSeconds": 5}"#, "challengeSeconds: must be a whole number of seconds from 10 to 600"),
        (#"{"type": "start", "exercise": "squat", "challengeSeconds": 30.5}"#, "challengeSeconds: must be a whole number of seconds from 10 to 600"),
        (#"{"type": "start", "exercise": "squat", "challengeSeconds": 1e300}"#, "challengeSeconds: must be a whole number of seconds from 10 to 600"),
        (#"{"type": "start", "aspectRatio": 20}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "start", "exercise": "squat", "source": "tape"}"#, "source: must be camera or replay"),
        (#"{"type": "start", "exercise": "squat", "progress": "yes"}"#, "progress: must be true or false"),
    ])
    func parse_refusesABadMessage_namingTheField(text: String, reason: String) {
        #expect(throws: LiveProblem.self) { try LiveControl.parse(text) }
        do {
            _ = try LiveControl.parse(text)
        } catch {
            #expect(error.description == reason)
        }
    }

    @Test func parse_refusesAStringOver200Bytes() {
        let long = String(repeating: "é", count: 101)
        #expect(throws: LiveProblem(field: "exercise", message: "must be a non-empty string of at most 200 bytes")) {
            try LiveControl.parse(#"{"type": "exercise", "exercise": "\#(long)"}"#)
        }
    }

    // MARK: Events

    /// The text the server sends for each event: keys sorted, the fields of docs/live-protocol.md.
    static let wire: [(LiveEvent, String)] = [
        (.ready(.init(session: UUID(uuidString: "8A0C0000-0000-4000-8000-000000000001")!, limits: LiveLimits())),
         #"{"limits":{"idleSeconds":30,"maxFrameBytes":4096,"maxFramesPerSecond":60},"session":"8a0c0000-0000-4000-8000-000000000001","type":"ready"}"#),
        (.leftFrame(at: 9.4), #"{"t":9.4,"type":"left_frame"}"#),
        (.returnedToFrame(at: 11.02), #"{"t":11.02,"type":"returned_frame"}"#),
        (.challenge(.init(exercise: "squat", seconds: 60, reps: 27, completed: true, ranked: true)),
         #"{"completed":true,"exercise":"squat","ranked":true,"reps":27,"seconds":60,"type":"challenge"}"#),
        (.set(.init(LiveSetSummary(
            exercise: "squat", exerciseId: nil, reps: 8, partials: 1, seconds: 31.46, mistakes: ["knees-caving": 2],
            quality: 0.8))),
         #"{"exercise":"squat","mistakes":{"knees-caving":2},"partials":1,"reps":8,"seconds":31.5,"type":"set"}"#),
        (.summary(sets: [.init(LiveSetSummary(
            exercise: "lunge", exerciseId: "Lunge_1", reps: 2, partials: 0, seconds: 5, mistakes: [:], quality: nil))]),
         #"{"sets":[{"exercise":"lunge","exerciseId":"Lunge_1","mistakes":{},"partials":0,"reps":2,"seconds":5}],"type":"summary"}"#),
    ]

    @Test(arguments: 0..<6)
    func event_isWrittenAsTheProtocolSays_andReadBack(index: Int) throws {
        let (event, text) = Self.wire[index]
        #expect(event.jsonText == text)
        #expect(try LiveEvent.parse(text) == event)
    }

    @Test func poseEvents_mapToRoundedLiveEvents_thatSurviveTheWire() throws {
        // setup: a repetition with a cue, a partial and a cue, as FormaMotion reports them
        let cue = FormCue(
            code: "knees-caving", message: "Push your knees out", timeSeconds: 5.1049, repetition: 3,
            measuredValue: 0.2, limit: 0.1)
        let rep = PoseRepetition(
            number: 3, startSeconds: 4.2049, endSeconds: 6.0512, outwardSeconds: 1.0, returnSeconds: 0.85,
            startValue: 170, turningValue: 77.46, rangeOfMotion: 92.54, unit: "degrees", side: nil, quality: 0.8512,
            cues: [cue])

        // act
        let repetition = LiveEvent(.repetition(rep), exercise: "squat")
        let mistake = LiveEvent(.mistake(cue), exercise: "squat")

        // verify: the documented example, to the hundredth
        #expect(repetition.jsonText
            == #"{"count":3,"duration":1.85,"end":6.05,"exercise":"squat","mistakes":["knees-caving"],"quality":0.85,"rangeOfMotion":92.5,"start":4.2,"tempo":"1.0-0.9","type":"rep","unit":"degrees"}"#)
        #expect(mistake.jsonText
            == #"{"code":"knees-caving","exercise":"squat","message":"Push your knees out","repetition":3,"t":5.1,"type":"mistake"}"#)
        #expect(try LiveEvent.parse(repetition.jsonText) == repetition)
        #expect(try LiveEvent.parse(mistake.jsonText) == mistake)
    }

    @Test(arguments: [
        #"{"type":"rep","exercise":"squat","count":3,"start":4.2,"end":6.05,"duration":1.85,"tempo":"1.0-0.9","rangeOfMotion":92.5,"unit":"degrees","mistakes":[]}"#,
        #"{"type":"left_frame"}"#,
        #"{"type":"mistake","exercise":"squat","code":"knees-caving","t":5.1}"#,
        #"{"type":"challenge","exercise":"squat","seconds":"60","reps":1,"completed":true}"#,
        #"{"exercise":"squat"}"#,
        #"not json"#,
    ])
    func parse_refusesAnEventWithAMissingOrMistypedField_ratherThanReadingZero(text: String) {
        #expect(throws: LiveProblem.self) { try LiveEvent.parse(text) }
    }

    @Test func parse_keepsAnEventTypeItDoesNotKnow() throws {
        #expect(try LiveEvent.parse(#"{"type":"cheer","loud":true}"#) == .unknown(type: "cheer"))
    }

    // MARK: Close codes

    @Test func closeCodes_andReasons_areTheDocumentedOnes() {
        let problem = LiveProblem(field: "exercise", message: "unknown exercise 'sqaut'")
        #expect(LiveClose.ended.code == 1000 && LiveClose.ended.reason == "session ended")
        #expect(LiveClose.badFrame(problem).code == 1007)
        #expect(LiveClose.badControl(problem).code == 4400)
        #expect(LiveClose.badControl(problem).reason == "exercise: unknown exercise 'sqaut'")
        #expect(LiveClose.framesTooFast(perSecond: 60).reason == "frames: more than 60 a second")
        #expect(LiveClose.idle(seconds: 0.5).reason == "idle: no message for 0.5 s")
        #expect(LiveClose.noHello(seconds: 10).reason == "token: no hello with a token within 10 s")
        #expect(LiveClose.noHello(seconds: 10).code == 4401)
        #expect(LiveClose.tooManySessions(limit: 3).code == 4429)
        #expect(LiveClose.workoutNotFound(id: String(repeating: "x", count: 100)).reason.utf8.count <= 60 + 24)
        #expect(LiveClose.serverFailed(what: "the set could not be saved").reason
            == "server: the set could not be saved; try again")
    }

    @Test func truncated_cutsOnACharacterBoundary() {
        let cut = LiveClose.truncated(String(repeating: "é", count: 100), toBytes: 123)
        #expect(cut.utf8.count <= 123)
        #expect(cut.hasSuffix("..."))
        #expect(LiveClose.truncated("short", toBytes: 123) == "short")
    }
}
