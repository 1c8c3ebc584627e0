import Foundation

/// Reads Forma's inertial JSON: `{"sampleRate": 50, "accel": [[x, y, z], …], "gyro": [[x, y, z], …]}`.
///
/// `sampleRate` is in hertz, `accel` in g and the optional `gyro` in degrees per second, one triple per sample at a
/// constant rate starting at time 0. An optional `t` array of seconds may replace the constant rate for irregular
/// sampling. Unknown keys are ignored.
public enum InertialJSONParser {
    private struct Document: Decodable {
        let sampleRate: Double?
        let t: [Double]?
        let accel: [[Double]]
        let gyro: [[Double]]?
    }

    /// Parses the JSON text.
    ///
    /// - Throws: ``InertialInputError`` naming the JSON path of the first bad value (`accel[12]` for a triple with
    ///   two numbers, for instance), a missing `sampleRate` and `t`, arrays of different lengths, or an implausible
    ///   rate. JSON has no NaN or infinity literals, so such values are reported as invalid JSON.
    public static func parse(_ data: some Collection<UInt8>) throws(InertialInputError) -> InertialRecording {
        guard data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw .empty(source: "JSON")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(data))
        } catch let error as DecodingError {
            throw .invalidJSON(detail: describe(error))
        } catch {
            throw .invalidJSON(detail: "\(error)")
        }
        let acceleration = try vectors(document.accel, name: "accel")
        let rotation = try document.gyro.map { (rows) throws(InertialInputError) in try vectors(rows, name: "gyro") }
        if let rotation, rotation.count != acceleration.count {
            throw .lengthMismatch(what: "gyro", expected: acceleration.count, found: rotation.count)
        }
        do {
            if let times = document.t {
                return try InertialRecording(timesSeconds: times, acceleration: acceleration, rotation: rotation)
            }
            guard let rate = document.sampleRate else {
                throw InertialInputError.invalidJSON(detail: "needs \"sampleRate\" (Hz) or a \"t\" array of seconds")
            }
            return try InertialRecording(sampleRateHertz: rate, acceleration: acceleration, rotation: rotation)
        } catch let error as InertialInputError {
            throw error.relocated { index in .jsonPath("sample \(index)") }
        } catch {
            throw .invalidJSON(detail: "\(error)")
        }
    }

    private static func vectors(_ rows: [[Double]], name: String) throws(InertialInputError) -> [Vector3] {
        guard !rows.isEmpty else { throw .empty(source: "\"\(name)\" array") }
        var result: [Vector3] = []
        result.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row.count == 3 else { throw .wrongArity(location: .jsonPath("\(name)[\(index)]"), expected: "3", found: row.count) }
            result.append(Vector3(x: row[0], y: row[1], z: row[2]))
        }
        return result
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
                .trimmingPrefix(".").description
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath).isEmpty ? "the document" : path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return "missing \"\(key.stringValue)\"\(parent.isEmpty ? "" : " in \(parent)")"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(path(context.codingPath).isEmpty ? "" : path(context.codingPath) + ": ")\(underlying ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
