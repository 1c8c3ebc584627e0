import FormaMotion
import Foundation
import Testing

@testable import FormaLive

@Suite("The live frame codec")
struct LiveFrameCodecTests {
    /// The golden frames: inputs and the bytes the codec writes for them, also read by the browser test that holds
    /// the embed page's `live.js` to the same bytes (Tests/Browser/run.py).
    struct Golden: Codable {
        struct Frame: Codable {
            var t: Double
            var landmarks: [[Double]]?
            var hex: String
        }
        var frames: [Frame]
    }

    static let goldenURL: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/live/frames.json")
    }()

    /// Inputs chosen to catch a different rounding, byte order or default: values that are not Float32 numbers,
    /// negative, tiny, large and out of the image.
    static func goldenInputs() -> [PoseFrame] {
        let person = (0..<33).map { index -> Landmark in
            let i = Double(index)
            return Landmark(
                x: 0.1 + i / 3, y: 1 - i * 0.0371, z: -0.5 + i * 1e-7 * 3.3, visibility: (i * 0.61).truncatingRemainder(dividingBy: 1))
        }
        var extremes = person
        extremes[0] = Landmark(x: -1.25, y: 123_456.789, z: 1e-8, visibility: 0.999_999_9)
        extremes[32] = Landmark(x: 0.1, y: 0.2, z: 0.3, visibility: 1)
        return [
            PoseFrame(timeSeconds: 0, landmarks: nil),
            PoseFrame(timeSeconds: 1.0 / 30, landmarks: person),
            PoseFrame(timeSeconds: 12.345_678_901_234, landmarks: extremes),
            PoseFrame(timeSeconds: 86_400.5, landmarks: nil),
        ]
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func encode_writesTheGoldenFramesByteForByte() throws {
        // setup
        let frames = Self.goldenInputs()
        let written = Golden(frames: frames.map { frame in
            Golden.Frame(
                t: frame.timeSeconds, landmarks: frame.landmarks?.map { [$0.x, $0.y, $0.z, $0.visibility] },
                hex: Self.hex(LiveFrameCodec.encode(frame)))
        })
        if ProcessInfo.processInfo.environment["FORMA_WRITE_GOLDEN_FRAMES"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try FileManager.default.createDirectory(
                at: Self.goldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(written).write(to: Self.goldenURL)
        }

        // act
        let golden = try JSONDecoder().decode(Golden.self, from: Data(contentsOf: Self.goldenURL))

        // verify: the same inputs, the same bytes
        #expect(golden.frames.count == frames.count)
        for (stored, fresh) in zip(golden.frames, written.frames) {
            #expect(stored.t == fresh.t)
            #expect(stored.landmarks == fresh.landmarks)
            #expect(stored.hex == fresh.hex)
        }
        #expect(golden.frames.map { $0.hex.count / 2 } == [12, 540, 540, 12])
    }

    @Test func decode_readsBackWhatEncodeWrote_asFloat32() throws {
        for frame in Self.goldenInputs() {
            let decoded = try LiveFrameCodec.decode(LiveFrameCodec.encode(frame), previousTime: nil)
            #expect(decoded.timeSeconds == frame.timeSeconds)
            #expect(decoded.landmarks?.map { Float($0.y) } == frame.landmarks?.map { Float($0.y) })
            #expect(decoded.landmarks?.count == frame.landmarks?.count)
        }
    }

    /// Each malformed frame, and the problem decoding must name.
    static let badFrames: [(String, @Sendable (inout [UInt8]) -> Void, LiveProblem)] = [
        ("version", { $0[0] = 2 }, .init(field: "version", message: "2 is not supported; send version 1")),
        ("count", { $0[2] = 17 }, .init(field: "count", message: "17 landmarks; send 33 with a person or 0 without")),
        ("size", { $0.removeLast(4) }, .init(field: "size", message: "536 bytes, but 33 landmarks take 540")),
        ("short", { $0.removeLast(530) }, .init(field: "size", message: "10 bytes is shorter than the 12-byte header")),
        ("nan", { bytes in
            withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { bytes.replaceSubrange(96..<100, with: $0) }
        }, .init(field: "landmarks[5]", message: "values must be finite numbers")),
        ("flags", { $0[1] = 0 }, .init(field: "flags", message: "the person bit must be set exactly when 33 landmarks follow")),
        ("flags2", { $0[1] = 3 }, .init(field: "flags", message: "only bit 0 is defined")),
        ("negative", { bytes in
            withUnsafeBytes(of: (-1.0).bitPattern.littleEndian) { bytes.replaceSubrange(4..<12, with: $0) }
        }, .init(field: "timestamp", message: "must be a finite number of seconds, not below 0")),
    ]

    @Test(arguments: 0..<8)
    func decode_refusesAMalformedFrame_namingTheField(index: Int) throws {
        // setup
        let (_, corrupt, problem) = Self.badFrames[index]
        var bytes = LiveFrameCodec.encode(Self.goldenInputs()[1])
        corrupt(&bytes)

        // act, verify
        #expect(throws: problem) { try LiveFrameCodec.decode(bytes, previousTime: nil) }
    }

    @Test func decode_refusesATimestampThatDoesNotFollowThePreviousFrame() {
        let bytes = LiveFrameCodec.encode(PoseFrame(timeSeconds: 0.5, landmarks: nil))
        #expect(throws: LiveProblem(field: "timestamp", message: "0.5 does not follow the previous frame's 1.0")) {
            try LiveFrameCodec.decode(bytes, previousTime: 1.0)
        }
    }
}
