import Foundation
import Testing

@testable import FormaLive

/// The server writes its events by hand (``LiveEvent/jsonText``) instead of through `JSONEncoder`: for every kind of
/// event, with awkward strings and numbers, the text is the one the `Codable` encoding through `JSONEncoder`
/// (``LiveJSON/text(_:)``) writes, and it decodes to what that text decodes to.
@Suite("Live events written by hand, as JSONEncoder writes them")
struct LiveJSONWriterTests {
    /// Quotes, backslashes, slashes, every C0 control character, DEL, non-ASCII (accents, an emoji, U+2028, NEL).
    static let awkward =
        "a \"quoted\" \\back\\ /slash/ " + String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        + " \u{7F} é ü 😀 \u{2028} \u{85} end"

    static func events(text: String) -> [LiveEvent] {
        let sets = [
            LiveEvent.SetResult(LiveSetSummary(
                exercise: text, exerciseId: text, reps: 12, partials: 3, seconds: 61.04,
                mistakes: [text: 2, "knees-caving": 1, "B": 3, "a10": 4, "a9": 5, "é": 6], quality: 0.5)),
            LiveEvent.SetResult(LiveSetSummary(
                exercise: "squat", exerciseId: nil, reps: 0, partials: 0, seconds: 0, mistakes: [:], quality: nil)),
        ]
        return [
            .ready(.init(session: UUID(), limits: LiveLimits())),
            .repetition(.init(
                exercise: text, count: 7, start: 4.2, end: 6.05, duration: 1.85, tempo: text, rangeOfMotion: 92.5,
                unit: text, quality: 0.85, mistakes: [text, "knees-caving"])),
            .repetition(.init(
                exercise: "squat", count: -3, start: -0.0, end: 1e21, duration: 1e-7, tempo: "", rangeOfMotion: 100,
                unit: "degrees", quality: 0.30000000000000004, mistakes: [])),
            .partial(.init(
                exercise: text, start: 1.5, end: 2.25, rangeOfMotion: 40.1, requiredRange: 60, code: text,
                message: text)),
            .mistake(.init(exercise: text, code: text, message: text, t: 5.1, repetition: 3)),
            .mistake(.init(exercise: "squat", code: "c", message: "m", t: 0, repetition: nil)),
            .leftFrame(at: 9.4),
            .returnedToFrame(at: 123456789012345),
            .set(sets[0]),
            .set(sets[1]),
            .summary(sets: sets),
            .summary(sets: []),
            .challenge(.init(exercise: text, seconds: 60, reps: 27, completed: true, ranked: false)),
            .challenge(.init(exercise: "squat", seconds: Int.max, reps: Int.min, completed: false, ranked: true)),
            .progress(.init(
                exercise: text, t: 1.23, fraction: 0.47, value: 134.5, unit: text, landmarks: [23, 25, 27])),
            .progress(.init(exercise: "plank", t: 0.1, fraction: -0.02, value: 1e16, unit: "", landmarks: [])),
            .unknown(type: text),
        ]
    }

    @Test(arguments: [awkward, "", "squat", "Push your knees out"])
    func everyEvent_isTheTextJSONEncoderWrites_andDecodesTheSame(text: String) throws {
        for event in Self.events(text: text) {
            let handWritten = event.jsonText
            let encoded = LiveJSON.text(event)
            #expect(handWritten == encoded, "\(event.type)")
            let decoder = JSONDecoder()
            let decodedHandWritten = try decoder.decode(LiveEvent.self, from: Data(handWritten.utf8))
            let decodedEncoded = try decoder.decode(LiveEvent.self, from: Data(encoded.utf8))
            #expect(decodedHandWritten == decodedEncoded, "\(event.type)")
        }
    }

    @Test func numbers_areWrittenAsJSONEncoderWritesThem() throws {
        // setup: the values events carry (hundredths and tenths), integral values up to and past 10^15, extremes,
        // and a spread of arbitrary finite doubles from a fixed seed
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.01, 0.05, 1.5, 92.5, 1e15 - 1, 1e15, 1e15 + 1, 2e15, 9_007_199_254_740_992, 1e16,
            1e21, 1e22, 1e-5, 1e-7, 5e-324, .leastNormalMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude,
        ]
        values += (-3000...3000).map { Double($0) / 100 }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while values.count < 20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(bitPattern: state)
            if value.isFinite { values.append(value) }
        }

        for value in values {
            // act
            let event = LiveEvent.leftFrame(at: value)

            // verify
            #expect(event.jsonText == LiveJSON.text(event), "\(value)")
            let decoded = try LiveEvent.parse(event.jsonText)
            guard case .leftFrame(let at) = decoded else {
                Issue.record("\(value) decoded as \(decoded)")
                continue
            }
            #expect(at.bitPattern == value.bitPattern, "\(value)")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteNumber_isTheErrorEventJSONEncoderFallsBackTo(value: Double) throws {
        let events: [LiveEvent] = [
            .leftFrame(at: value),
            .progress(.init(exercise: "squat", t: 1, fraction: value, value: 3, unit: "degrees", landmarks: [1])),
            .set(.init(LiveSetSummary(
                exercise: "squat", exerciseId: nil, reps: 1, partials: 0, seconds: value, mistakes: [:],
                quality: nil))),
        ]
        for event in events {
            #expect(event.jsonText == #"{"type":"error"}"#)
            #expect(event.jsonText == LiveJSON.text(event))
            #expect(try LiveEvent.parse(event.jsonText) == .unknown(type: "error"))
        }
    }
}
