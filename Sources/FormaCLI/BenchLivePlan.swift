import ArgumentParser
import FormaMotion
import FormaServer
import Foundation
import NIOCore

/// When each session of `forma bench live` sends each frame, in nanoseconds of a monotonic clock.
///
/// Every session sends frame k at `start + offset + k · period`: deadlines are absolute, so a late wake-up does not
/// push every later frame back (the next frame is still due on time), and the sessions' offsets spread them evenly
/// over one period, as independent cameras would be, rather than all at once.
struct BenchLiveSchedule: Equatable {
    /// When the first session sends its first frame.
    var startNanoseconds: UInt64
    /// Time between two frames of one session (1/30 s).
    var periodNanoseconds: UInt64
    /// Sessions sharing the period.
    var sessions: Int

    init(startNanoseconds: UInt64, framesPerSecond: Int, sessions: Int) {
        self.startNanoseconds = startNanoseconds
        periodNanoseconds = 1_000_000_000 / UInt64(max(framesPerSecond, 1))
        self.sessions = max(sessions, 1)
    }

    /// Session `index`'s offset within the period: `index · period / sessions`.
    func offset(ofSession index: Int) -> UInt64 {
        periodNanoseconds * UInt64(index) / UInt64(sessions)
    }

    /// When session `index` sends frame `frame` (frame `frameCount` is its `end`).
    func deadline(session index: Int, frame: Int) -> UInt64 {
        startNanoseconds + offset(ofSession: index) + UInt64(frame) * periodNanoseconds
    }

    /// The first frame of session `index` not yet due at `now`: a session that woke late sends every frame up to
    /// this one at once (the server's bucket allows a burst of 60).
    func framesDue(session index: Int, at now: UInt64) -> Int {
        let first = deadline(session: index, frame: 0)
        guard now >= first else { return 0 }
        return Int((now - first) / periodNanoseconds) + 1
    }
}

/// The session counts of `--sessions`: a comma-separated list of positive whole numbers, increasing.
struct BenchLiveSessionCounts: ExpressibleByArgument, Equatable {
    var counts: [Int]

    init(_ counts: [Int]) { self.counts = counts }

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let counts = parts.compactMap { Int($0) }
        guard !counts.isEmpty, counts.count == parts.count, counts.allSatisfy({ $0 >= 1 }),
            zip(counts, counts.dropFirst()).allSatisfy({ $0 < $1 })
        else { return nil }
        self.counts = counts
    }

    var defaultValueDescription: String { counts.map(String.init).joined(separator: ",") }
}

/// What every session of a step sends and expects, computed once and shared: the frames encoded once (each session
/// sends the same bytes; only the WebSocket mask differs), the control messages, and the events the server's
/// machine produces from those frames, with the frame that produced each.
struct BenchLivePlan: Sendable {
    /// One event the frames produce: the index of the frame whose analysis sent it, and its `type`.
    struct ExpectedEvent: Sendable, Equatable {
        var frame: Int
        var type: String
    }

    let frames: [ByteBuffer]
    /// Each frame as the bytes of a whole client message on the wire (RFC 6455 §5.2: a final binary frame, its
    /// length, a masking key and the masked payload), encoded and masked once: every session writes these same bytes
    /// straight to its socket, so sending a frame copies, masks and draws nothing. (Each frame has its own key, drawn
    /// once; a server unmasks any key the same way.)
    let wireFrames: [ByteBuffer]
    let startText: String
    let keepAliveText = #"{"type":"resume"}"#
    let endText = #"{"type":"end"}"#
    let expected: [ExpectedEvent]
    /// `expected` as the bytes of each type, for a comparison without building strings.
    let expectedTypeBytes: [[UInt8]]

    /// `count` frames from `recording`, looped, at `framesPerSecond`: frame k carries the landmarks of the
    /// recording's frame `k mod recording.count` and the timestamp `k / framesPerSecond`, so that the timestamps
    /// keep increasing across the loops.
    init(recording: PoseRecording, exercise: String, progress: Bool, count: Int, framesPerSecond: Int) throws {
        guard !recording.frames.isEmpty else { throw ValidationError("the recording has no frames") }
        let encoded = (0..<count).map { index in
            let source = recording.frames[index % recording.frames.count]
            let frame = PoseFrame(timeSeconds: Double(index) / Double(framesPerSecond), landmarks: source.landmarks)
            return ByteBuffer(bytes: LiveFrameCodec.encode(frame))
        }
        frames = encoded
        var generator = SystemRandomNumberGenerator()
        wireFrames = encoded.map { frame in
            Self.maskedBinaryMessage(
                Array(frame.readableBytesView), maskKey: (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        startText = LiveControl.start(exercise: exercise, source: .replay, progress: progress ? true : nil).jsonText
        expected = try Self.expectedEvents(
            frames: encoded.map { Array($0.readableBytesView) }, startText: startText, framesPerSecond: framesPerSecond)
        expectedTypeBytes = expected.map { Array($0.type.utf8) }
    }

    /// `payload` as one final, masked binary WebSocket frame (RFC 6455 §5.2), header included.
    static func maskedBinaryMessage(_ payload: [UInt8], maskKey: [UInt8]) -> ByteBuffer {
        precondition(maskKey.count == 4)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(payload.count + 14)
        buffer.writeInteger(UInt8(0x82))  // FIN, opcode 2 (binary)
        switch payload.count {
        case ..<126:
            buffer.writeInteger(UInt8(0x80 | payload.count))
        case ...Int(UInt16.max):
            buffer.writeInteger(UInt8(0x80 | 126))
            buffer.writeInteger(UInt16(payload.count))
        default:
            buffer.writeInteger(UInt8(0x80 | 127))
            buffer.writeInteger(UInt64(payload.count))
        }
        buffer.writeBytes(maskKey)
        buffer.writeBytes(payload.enumerated().map { $0.element ^ maskKey[$0.offset % 4] })
        return buffer
    }

    /// Runs the server's own session machine (``LiveSessionMachine``, which holds no IO and no wall clock) over the
    /// messages a session sends, and lists the events each frame produces, in order.
    static func expectedEvents(frames: [[UInt8]], startText: String, framesPerSecond: Int) throws -> [ExpectedEvent] {
        var machine = LiveSessionMachine(limits: LiveLimits(), openedAt: .zero)
        _ = machine.handle(.authentication(.success(LivePerson(companyID: UUID(), userID: UUID()))), at: .zero)
        for output in machine.handle(.text(startText), at: .zero) {
            if case .close(let close) = output { throw ValidationError("start refused: \(close.reason)") }
        }
        var expected: [ExpectedEvent] = []
        for (index, bytes) in frames.enumerated() {
            let at = Duration.nanoseconds(Int64(index) * 1_000_000_000 / Int64(framesPerSecond))
            for output in machine.handle(.frame(bytes), at: at) {
                switch output {
                case .send(let event): expected.append(ExpectedEvent(frame: index, type: event.type))
                case .close(let close): throw ValidationError("frame \(index) refused: \(close.reason)")
                default: break
                }
            }
        }
        return expected
    }
}
