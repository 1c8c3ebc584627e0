import Foundation
import Testing

@testable import FormaMotion

@Suite struct PoseRecordingParserTests {
    static func frameJSON(t: Double, count: Int = 33, value: String = "[0.5, 0.5, 0, 0.9]") -> String {
        "{\"t\": \(t), \"landmarks\": [\(Array(repeating: value, count: count).joined(separator: ","))]}"
    }

    static func parse(_ text: String) -> Result<PoseRecording, PoseRecordingError> {
        Result { () throws(PoseRecordingError) in try PoseRecordingParser.parse(Data(text.utf8)) }
    }

    @Test func parse_readsFramesNullFramesAndIgnoresUnknownKeys() throws {
        // setup
        let text = """
            {"fps": 30, "device": "iPhone", "frames": [\(Self.frameJSON(t: 0)), {"t": 0.033, "landmarks": null},
            {"t": 0.066, "extra": 1}, \(Self.frameJSON(t: 0.1))]}
            """
        // act
        let recording = try Self.parse(text).get()
        // verify
        #expect(recording.framesPerSecond == 30)
        #expect(recording.frames.count == 4)
        #expect(recording.frames[1].landmarks == nil)
        #expect(recording.frames[2].landmarks == nil)
        #expect(recording.frames[3][.leftKnee] == Landmark(x: 0.5, y: 0.5, z: 0, visibility: 0.9))
    }

    @Test func parse_acceptsMediaPipeObjectsAndThreeValueLandmarks() throws {
        // setup
        let objects = Self.frameJSON(t: 0, value: "{\"x\": 0.1, \"y\": 0.2, \"z\": 0.3, \"visibility\": 0.4}")
        let triples = Self.frameJSON(t: 0.1, value: "[0.1, 0.2, 0.3]")
        // act
        let recording = try Self.parse("{\"fps\": 25, \"frames\": [\(objects), \(triples)]}").get()
        // verify
        #expect(recording.frames[0][.nose] == Landmark(x: 0.1, y: 0.2, z: 0.3, visibility: 0.4))
        #expect(recording.frames[1][.nose].visibility == 1)
    }

    @Test func parse_readsAspectRatioFromImageSize() throws {
        // act
        let recording = try Self.parse(
            "{\"fps\": 30, \"imageWidth\": 1280, \"imageHeight\": 720, \"frames\": [\(Self.frameJSON(t: 0))]}").get()
        // verify
        #expect(abs((recording.aspectRatio ?? 0) - 16.0 / 9.0) < 1e-12)
    }

    @Test(arguments: [
        ("{\"frames\": []}", PoseRecordingError.missingKey("fps")),
        ("{\"fps\": 30}", .missingKey("frames")),
        ("{\"fps\": 30, \"frames\": []}", .empty),
        ("{\"fps\": 0, \"frames\": []}", .implausibleFrameRate(0)),
        ("{\"fps\": 100000, \"frames\": []}", .implausibleFrameRate(100_000)),
        ("{\"fps\": 30, \"frames\": [\(frameJSON(t: 0, count: 17))]}", .wrongLandmarkCount(frame: 0, found: 17)),
        ("{\"fps\": 30, \"frames\": [\(frameJSON(t: 0)), \(frameJSON(t: 0.1, value: "[1, 2]"))]}",
         .wrongLandmarkArity(frame: 1, landmark: 0, found: 2)),
        ("{\"fps\": 30, \"frames\": [\(frameJSON(t: 0, value: "[0.5, 0.5, 0, 1.5]"))]}",
         .visibilityOutOfRange(frame: 0, landmark: 0, value: 1.5)),
        ("{\"fps\": 30, \"frames\": [\(frameJSON(t: 0.2)), \(frameJSON(t: 0.1))]}",
         .timeNotIncreasing(frame: 1, previous: 0.2, current: 0.1)),
        ("{\"fps\": 30, \"frames\": [\(frameJSON(t: 0.2)), \(frameJSON(t: 0.2))]}",
         .timeNotIncreasing(frame: 1, previous: 0.2, current: 0.2)),
        ("{\"fps\": 30, \"frames\": [\(frameJSON(t: -1))]}", .invalidTime(frame: 0, value: -1)),
        ("{\"fps\": 30, \"imageWidth\": 0, \"imageHeight\": 720, \"frames\": [\(frameJSON(t: 0))]}",
         .implausibleImageSize(width: 0, height: 720)),
    ])
    func parse_rejectsBadInputNamingWhere(text: String, expected: PoseRecordingError) {
        // act
        let result = Self.parse(text)
        // verify
        #expect(throws: expected) { try result.get() }
    }

    @Test func parse_reportsNonFiniteAndSyntaxErrorsWithLocation() {
        // act
        let infinite = Self.parse("{\"fps\": 30, \"frames\": [\(Self.frameJSON(t: 0, value: "[1e999, 0, 0, 1]"))]}")
        let nan = Self.parse("{\"fps\": 30, \"frames\": [\(Self.frameJSON(t: 0, value: "[NaN, 0, 0, 1]"))]}")
        let wrongType = Self.parse("{\"fps\": 30, \"frames\": [\(Self.frameJSON(t: 0, value: "[\"a\", 0, 0, 1]"))]}")
        // verify
        for result in [infinite, nan] {
            guard case let .failure(.malformedJSON(_, detail)) = result else {
                Issue.record("expected malformed JSON, got \(result)")
                continue
            }
            #expect(detail.contains("NaN or Infinity"))
            #expect(detail.contains("character") || detail.contains("1e999"))
        }
        guard case let .failure(.malformedJSON(path, _)) = wrongType else {
            Issue.record("expected malformed JSON, got \(wrongType)")
            return
        }
        #expect(path == "frames[0].landmarks[0][0]")
    }

    @Test func validate_rejectsNaNBuiltInCode() {
        // setup
        var values = Array(repeating: [0.5, 0.5, 0.0, 1.0], count: 33)
        values[12][1] = .nan
        // act, verify
        #expect(throws: PoseRecordingError.nonFiniteValue(frame: 4, landmark: 12, component: "y")) {
            try PoseRecordingParser.validate(values, frame: 4)
        }
    }

    @Test func errorDescriptions_nameFrameAndLandmark() {
        // act
        let message = PoseRecordingError.wrongLandmarkArity(frame: 7, landmark: 3, found: 2).description
        // verify
        #expect(message.contains("frame 7") && message.contains("landmark 3"))
    }
}
