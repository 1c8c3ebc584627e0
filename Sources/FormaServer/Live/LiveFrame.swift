import FormaMotion
import NIOCore

/// A binary pose frame of a live session (docs/live-protocol.md, "Pose frames"): little-endian, version 1.
///
/// Parsing is strict: anything that does not match the table byte for byte is refused with a reason that names the
/// field, because a client that sends garbage should learn which part is wrong, not have it counted as "no person".
enum LiveFrame {
    static let version: UInt8 = 1
    static let headerBytes = 12
    static let landmarkBytes = 16
    static let landmarkCount = 33

    struct Problem: Error, Equatable, CustomStringConvertible {
        let field: String
        let message: String
        var description: String { "\(field): \(message)" }
    }

    /// Parses one frame; `previousTime` is the timestamp of the session's last frame, which this one must follow.
    static func parse(_ buffer: ByteBuffer, previousTime: Double?) throws(Problem) -> PoseFrame {
        var buffer = buffer
        guard buffer.readableBytes >= headerBytes else {
            throw Problem(field: "size", message: "\(buffer.readableBytes) bytes is shorter than the 12-byte header")
        }
        let frameVersion = buffer.readInteger(as: UInt8.self)!
        guard frameVersion == version else {
            throw Problem(field: "version", message: "\(frameVersion) is not supported; send version 1")
        }
        let flags = buffer.readInteger(as: UInt8.self)!
        let count = Int(buffer.readInteger(endianness: .little, as: UInt16.self)!)
        let time = Double(bitPattern: buffer.readInteger(endianness: .little, as: UInt64.self)!)
        guard count == 0 || count == landmarkCount else {
            throw Problem(field: "count", message: "\(count) landmarks; send 33 with a person or 0 without")
        }
        let expected = headerBytes + landmarkBytes * count
        guard buffer.readableBytes == expected - headerBytes else {
            throw Problem(
                field: "size",
                message: "\(buffer.readableBytes + headerBytes) bytes, but \(count) landmarks take \(expected)")
        }
        let personFlag = flags & 1 == 1
        guard personFlag == (count == landmarkCount) else {
            throw Problem(field: "flags", message: "the person bit must be set exactly when 33 landmarks follow")
        }
        guard flags & ~1 == 0 else {
            throw Problem(field: "flags", message: "only bit 0 is defined")
        }
        guard time.isFinite, time >= 0 else {
            throw Problem(field: "timestamp", message: "must be a finite number of seconds, not below 0")
        }
        if let previousTime, time <= previousTime {
            throw Problem(field: "timestamp", message: "\(time) does not follow the previous frame's \(previousTime)")
        }
        guard count > 0 else { return PoseFrame(timeSeconds: time, landmarks: nil) }
        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(count)
        for index in 0..<count {
            var values: (Float, Float, Float, Float) = (0, 0, 0, 0)
            values.0 = Float(bitPattern: buffer.readInteger(endianness: .little, as: UInt32.self)!)
            values.1 = Float(bitPattern: buffer.readInteger(endianness: .little, as: UInt32.self)!)
            values.2 = Float(bitPattern: buffer.readInteger(endianness: .little, as: UInt32.self)!)
            values.3 = Float(bitPattern: buffer.readInteger(endianness: .little, as: UInt32.self)!)
            guard values.0.isFinite, values.1.isFinite, values.2.isFinite, values.3.isFinite else {
                throw Problem(field: "landmarks[\(index)]", message: "values must be finite numbers")
            }
            landmarks.append(
                Landmark(x: Double(values.0), y: Double(values.1), z: Double(values.2), visibility: Double(values.3)))
        }
        return PoseFrame(timeSeconds: time, landmarks: landmarks)
    }

    /// Encodes a frame in the same format; used by tests and by anyone replaying a recording to the server.
    static func encode(_ frame: PoseFrame) -> ByteBuffer {
        let landmarks = frame.landmarks ?? []
        var buffer = ByteBuffer()
        buffer.reserveCapacity(headerBytes + landmarkBytes * landmarks.count)
        buffer.writeInteger(version)
        buffer.writeInteger(UInt8(landmarks.isEmpty ? 0 : 1))
        buffer.writeInteger(UInt16(landmarks.count), endianness: .little)
        buffer.writeInteger(frame.timeSeconds.bitPattern, endianness: .little)
        for landmark in landmarks {
            for value in [landmark.x, landmark.y, landmark.z, landmark.visibility] {
                buffer.writeInteger(Float(value).bitPattern, endianness: .little)
            }
        }
        return buffer
    }
}
