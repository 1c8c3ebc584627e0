/// Why an inertial recording was rejected, with where the problem is so the user can fix the file.
public enum InertialInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A place in the input: a 1-based text line, or a 0-based sample index for arrays.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        case line(Int)
        case sample(Int)
        case jsonPath(String)

        public var description: String {
            switch self {
            case .line(let line): "line \(line)"
            case .sample(let index): "sample \(index)"
            case .jsonPath(let path): path
            }
        }
    }

    /// The input had no data (`source` names which input: "CSV", "JSON", "gyroscope file", ...).
    case empty(source: String)
    /// The input is not in any format the parser knows.
    case unrecognisedFormat(String)
    /// A header lacks a required column, or names one twice.
    case badHeader(detail: String)
    /// A row or array has the wrong number of values.
    case wrongArity(location: Location, expected: String, found: Int)
    /// A value could not be read as a number.
    case notANumber(field: String, location: Location, text: String)
    /// A value is NaN or infinite.
    case notFinite(field: String, location: Location)
    /// Time stands still or runs backwards.
    case timeNotIncreasing(location: Location, previousSeconds: Double, seconds: Double)
    /// Two parallel arrays differ in length.
    case lengthMismatch(what: String, expected: Int, found: Int)
    /// The sample rate is implausible for a wrist sensor.
    case unsupportedRate(hertz: Double, supported: ClosedRange<Double>)
    /// The recording is too short to contain repetitions.
    case tooShort(durationSeconds: Double, minimumSeconds: Double)
    /// The JSON text is malformed or has a field of the wrong type.
    case invalidJSON(detail: String)
    /// Accelerometer and gyroscope files do not overlap in time.
    case noOverlap(detail: String)

    public var description: String {
        switch self {
        case .empty(let source):
            "The \(source) has no samples."
        case .unrecognisedFormat(let detail):
            "Unrecognised inertial format: \(detail)."
        case .badHeader(let detail):
            "Bad CSV header: \(detail)."
        case .wrongArity(let location, let expected, let found):
            "\(location.description.capitalisedFirst): expected \(expected) values, found \(found)."
        case .notANumber(let field, let location, let text):
            "\(location.description.capitalisedFirst): \(field) is not a number: \"\(text.prefix(40))\"."
        case .notFinite(let field, let location):
            "\(location.description.capitalisedFirst): \(field) is NaN or infinite."
        case .timeNotIncreasing(let location, let previous, let seconds):
            "\(location.description.capitalisedFirst): time \(seconds) s does not increase (previous sample at "
                + "\(previous) s); samples must be in time order without repeats."
        case .lengthMismatch(let what, let expected, let found):
            "\(what) has \(found) samples, but there are \(expected) times."
        case .unsupportedRate(let hertz, let supported):
            "Sample rate \(hertz) Hz is outside the supported \(supported.lowerBound)–\(supported.upperBound) Hz; "
                + "check that t is in seconds."
        case .tooShort(let duration, let minimum):
            "The recording lasts \(duration) s; at least \(minimum) s is needed to find repetitions."
        case .invalidJSON(let detail):
            "Invalid inertial JSON: \(detail)."
        case .noOverlap(let detail):
            "The accelerometer and gyroscope recordings do not overlap in time: \(detail)."
        }
    }
}

extension String {
    fileprivate var capitalisedFirst: String { prefix(1).uppercased() + dropFirst() }
}
