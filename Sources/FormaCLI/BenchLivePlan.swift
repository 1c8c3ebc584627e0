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
        startText = LiveControl.start(exercise: exercise, source: .replay, progress: progress ? true : nil).jsonText
        expected = try Self.expectedEvents(
            frames: encoded.map { Array($0.readableBytesView) }, startText: startText, framesPerSecond: framesPerSecond)
        expectedTypeBytes = expected.map { Array($0.type.utf8) }
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
