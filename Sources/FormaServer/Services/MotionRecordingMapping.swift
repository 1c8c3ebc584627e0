import FormaAPI
import FormaCore
import FormaMotion
import Foundation

/// Turns a `MotionRecording` body into FormaMotion's checked `InertialRecording`, with every problem reported
/// against the JSON field at fault (`accel[12]`, `t[40]`, `sampleRate`).
enum MotionRecordingMapping {
    /// The longest recording accepted: ten minutes is far beyond any single exercise of a fitness test.
    static let maximumDurationSeconds = 600.0
    /// Ten minutes at 200 Hz.
    static let maximumSamples = 120_000

    static func recording(from body: Components.Schemas.MotionRecording) throws -> InertialRecording {
        let accel = body.accel
        guard !accel.isEmpty else {
            throw InputError.invalid(field: "accel", "has no samples")
        }
        guard accel.count <= maximumSamples else {
            throw InputError.invalid(
                field: "accel", "has \(accel.count) samples; at most \(maximumSamples) are accepted")
        }
        let acceleration = try vectors(accel, field: "accel")
        let rotation = try body.gyro.map { try vectors($0, field: "gyro") }
        let recording: InertialRecording
        do {
            switch (body.sampleRate, body.t) {
            case (nil, nil):
                throw InputError.invalid(
                    field: "sampleRate", "give sampleRate (Hz) or t (one time in seconds per sample)")
            case (.some, .some):
                throw InputError.invalid(field: "sampleRate", "give sampleRate or t, not both")
            case (let rate?, nil):
                recording = try InertialRecording(
                    sampleRateHertz: rate, acceleration: acceleration, rotation: rotation)
            case (nil, let times?):
                recording = try InertialRecording(
                    timesSeconds: times, acceleration: acceleration, rotation: rotation)
            }
        } catch let error as InertialInputError {
            throw InputError.invalid([issue(for: error, timed: body.t != nil)])
        }
        guard recording.durationSeconds <= maximumDurationSeconds else {
            throw InputError.invalid(
                field: body.t != nil ? "t" : "accel",
                "lasts \(Int(recording.durationSeconds)) s; at most \(Int(maximumDurationSeconds)) s "
                    + "(one exercise) is accepted")
        }
        return recording
    }

    private static func vectors(_ rows: [[Double]], field: String) throws -> [Vector3] {
        var vectors: [Vector3] = []
        vectors.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row.count == 3 else {
                throw InputError.invalid(
                    field: "\(field)[\(index)]", "expected 3 values [x, y, z], found \(row.count)")
            }
            vectors.append(Vector3(x: row[0], y: row[1], z: row[2]))
        }
        return vectors
    }

    /// The field an inertial input error points at, with FormaMotion's own words.
    static func issue(for error: InertialInputError, timed: Bool) -> FieldIssue {
        let field: String
        switch error {
        case .notFinite(let name, .sample(let index)), .notANumber(let name, .sample(let index), _):
            field = "\(jsonName(name))[\(index)]"
        case .timeNotIncreasing(.sample(let index), _, _):
            field = "t[\(index)]"
        case .lengthMismatch(let what, _, _):
            field = what == "rotation" ? "gyro" : (timed ? "t" : "accel")
        case .unsupportedRate:
            field = timed ? "t" : "sampleRate"
        default:
            field = "accel"
        }
        return FieldIssue(field: field, message: error.description)
    }

    private static func jsonName(_ engineName: String) -> String {
        switch engineName {
        case "acceleration": "accel"
        case "rotation": "gyro"
        default: engineName
        }
    }
}
