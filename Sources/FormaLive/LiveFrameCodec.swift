import FormaMotion
import Foundation

/// The binary pose frame of a live session (docs/live-protocol.md, "Pose frames"): little-endian, version 1.
///
/// The one implementation of the format in Swift: the server decodes with it, FormaKit and the tests encode with it,
/// and the golden frames that hold the embed page's `live.js` to the same bytes are written by it.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | version, `1` |
/// | 1 | 1 | flags: bit 0 set when a person is in the frame |
/// | 2 | 2 | landmark count, UInt16: 33 with a person, 0 without |
/// | 4 | 8 | timestamp, seconds, Float64 |
/// | 12 | 16 × count | x, y, z, visibility per landmark, Float32 |
///
/// Decoding is strict: anything that does not match the table byte for byte is refused with a ``LiveProblem`` that
/// names the field, because a client that sends garbage should learn which part is wrong, not have it counted as
/// "no person".
public enum LiveFrameCodec {
    public static let version: UInt8 = 1
    public static let headerBytes = 12
    public static let landmarkBytes = 16
    public static let landmarkCount = PoseLandmark.count

    /// Encodes `frame`; values are narrowed to Float32 as the format says (round to nearest, as JavaScript's
    /// `DataView.setFloat32` does). A frame whose landmark count is neither 0 nor 33 is encoded as it is, and the
    /// server refuses it: checking input is the caller's business (FormaKit's ``LiveFrameEncoder`` checks).
    public static func encode(_ frame: PoseFrame) -> [UInt8] {
        let landmarks = frame.landmarks ?? []
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerBytes + landmarkBytes * landmarks.count)
        bytes.append(version)
        bytes.append(landmarks.isEmpty ? 0 : 1)
        append(UInt16(truncatingIfNeeded: landmarks.count), to: &bytes)
        append(frame.timeSeconds.bitPattern, to: &bytes)
        for landmark in landmarks {
            append(Float(landmark.x).bitPattern, to: &bytes)
            append(Float(landmark.y).bitPattern, to: &bytes)
            append(Float(landmark.z).bitPattern, to: &bytes)
            append(Float(landmark.visibility).bitPattern, to: &bytes)
        }
        return bytes
    }

    /// Decodes one frame; `previousTime` is the timestamp of the session's last frame, which this one must follow.
    ///
    /// - Throws: ``LiveProblem`` naming `size`, `version`, `count`, `flags`, `timestamp` or `landmarks[i]`.
    public static func decode(_ bytes: some Collection<UInt8>, previousTime: Double?) throws(LiveProblem) -> PoseFrame {
        let bytes = Array(bytes)
        guard bytes.count >= headerBytes else {
            throw LiveProblem(field: "size", message: "\(bytes.count) bytes is shorter than the 12-byte header")
        }
        let frameVersion = bytes[0]
        guard frameVersion == version else {
            throw LiveProblem(field: "version", message: "\(frameVersion) is not supported; send version 1")
        }
        let flags = bytes[1]
        let count = Int(read(UInt16.self, from: bytes, at: 2))
        let time = Double(bitPattern: read(UInt64.self, from: bytes, at: 4))
        guard count == 0 || count == landmarkCount else {
            throw LiveProblem(field: "count", message: "\(count) landmarks; send 33 with a person or 0 without")
        }
        let expected = headerBytes + landmarkBytes * count
        guard bytes.count == expected else {
            throw LiveProblem(field: "size", message: "\(bytes.count) bytes, but \(count) landmarks take \(expected)")
        }
        guard (flags & 1 == 1) == (count == landmarkCount) else {
            throw LiveProblem(field: "flags", message: "the person bit must be set exactly when 33 landmarks follow")
        }
        guard flags & ~1 == 0 else {
            throw LiveProblem(field: "flags", message: "only bit 0 is defined")
        }
        guard time.isFinite, time >= 0 else {
            throw LiveProblem(field: "timestamp", message: "must be a finite number of seconds, not below 0")
        }
        if let previousTime, time <= previousTime {
            throw LiveProblem(field: "timestamp", message: "\(time) does not follow the previous frame's \(previousTime)")
        }
        guard count > 0 else { return PoseFrame(timeSeconds: time, landmarks: nil) }
        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(count)
        for index in 0..<count {
            let offset = headerBytes + index * landmarkBytes
            func value(_ position: Int) -> Double {
                Double(Float(bitPattern: read(UInt32.self, from: bytes, at: offset + 4 * position)))
            }
            let landmark = Landmark(x: value(0), y: value(1), z: value(2), visibility: value(3))
            guard landmark.isFinite else {
                throw LiveProblem(field: "landmarks[\(index)]", message: "values must be finite numbers")
            }
            landmarks.append(landmark)
        }
        return PoseFrame(timeSeconds: time, landmarks: landmarks)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The little-endian integer at `offset`; the caller has checked that the bytes are there.
    private static func read<T: FixedWidthInteger>(_: T.Type, from bytes: [UInt8], at offset: Int) -> T {
        precondition(offset >= 0 && offset + MemoryLayout<T>.size <= bytes.count)
        return T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) })
    }
}
