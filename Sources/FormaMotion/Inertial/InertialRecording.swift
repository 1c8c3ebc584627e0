/// A validated recording from one wrist-worn inertial sensor: accelerometer samples, and optionally gyroscope samples
/// taken at the same instants.
///
/// Every value is finite, timestamps strictly increase, and the nominal rate is within
/// ``InertialRecording/supportedRatesHertz``; the parsers and ``init(timesSeconds:acceleration:rotation:)`` check
/// this, so analysis code never sees NaN, a zero-length recording or time running backwards. Gaps (a sensor that
/// dropped samples) are allowed and kept: the analyzer resamples onto a uniform grid.
public struct InertialRecording: Sendable, Hashable {
    /// The sample rates the analyzer accepts, in hertz. Wrist sensors for strength training run at 12.5–200 Hz; a
    /// rate outside this range means a unit mistake (milliseconds read as seconds, for instance).
    public static let supportedRatesHertz: ClosedRange<Double> = 5...1000

    /// The shortest recording worth analysing, in seconds: two slow repetitions.
    public static let minimumDurationSeconds: Double = 2

    /// Sample times in seconds, strictly increasing. The origin is arbitrary (the first sample need not be at 0).
    public let timesSeconds: [Double]
    /// Acceleration in g, gravity included, one per time.
    public let acceleration: [Vector3]
    /// Rotation rate in degrees per second, one per time, or `nil` when the recording has no gyroscope.
    public let rotation: [Vector3]?

    /// The nominal sample rate in hertz: the reciprocal of the median spacing between samples, so that a few gaps do
    /// not change it.
    public let sampleRateHertz: Double

    /// Creates a recording after checking it.
    ///
    /// - Throws: ``InertialInputError`` when the arrays are empty or of different lengths, a value is not finite,
    ///   time does not strictly increase, the rate is outside ``supportedRatesHertz``, or the recording is shorter
    ///   than ``minimumDurationSeconds``. Sample indices in the error are zero-based.
    public init(timesSeconds: [Double], acceleration: [Vector3], rotation: [Vector3]? = nil) throws(InertialInputError) {
        guard !timesSeconds.isEmpty else { throw .empty(source: "recording") }
        guard acceleration.count == timesSeconds.count else {
            throw .lengthMismatch(what: "acceleration", expected: timesSeconds.count, found: acceleration.count)
        }
        if let rotation, rotation.count != timesSeconds.count {
            throw .lengthMismatch(what: "rotation", expected: timesSeconds.count, found: rotation.count)
        }
        for index in timesSeconds.indices {
            guard timesSeconds[index].isFinite else { throw .notFinite(field: "t", location: .sample(index)) }
            guard acceleration[index].isFinite else {
                throw .notFinite(field: "acceleration", location: .sample(index))
            }
            if let rotation, !rotation[index].isFinite {
                throw .notFinite(field: "rotation", location: .sample(index))
            }
            if index > 0, timesSeconds[index] <= timesSeconds[index - 1] {
                throw .timeNotIncreasing(
                    location: .sample(index), previousSeconds: timesSeconds[index - 1], seconds: timesSeconds[index])
            }
        }
        let durationSeconds = (timesSeconds.last ?? 0) - (timesSeconds.first ?? 0)
        guard timesSeconds.count >= 2, durationSeconds >= Self.minimumDurationSeconds else {
            throw .tooShort(durationSeconds: durationSeconds, minimumSeconds: Self.minimumDurationSeconds)
        }
        let rate = 1 / Self.medianSpacing(timesSeconds)
        guard Self.supportedRatesHertz.contains(rate) else {
            throw .unsupportedRate(hertz: rate, supported: Self.supportedRatesHertz)
        }
        self.timesSeconds = timesSeconds
        self.acceleration = acceleration
        self.rotation = rotation
        self.sampleRateHertz = rate
    }

    /// Creates a recording sampled at a constant rate, starting at time 0.
    ///
    /// - Throws: ``InertialInputError`` as ``init(timesSeconds:acceleration:rotation:)`` does, and
    ///   ``InertialInputError/unsupportedRate(hertz:supported:)`` before anything else when `sampleRateHertz` is
    ///   outside ``supportedRatesHertz`` or not finite.
    public init(sampleRateHertz: Double, acceleration: [Vector3], rotation: [Vector3]? = nil) throws(InertialInputError) {
        guard sampleRateHertz.isFinite, Self.supportedRatesHertz.contains(sampleRateHertz) else {
            throw .unsupportedRate(hertz: sampleRateHertz, supported: Self.supportedRatesHertz)
        }
        let times = acceleration.indices.map { Double($0) / sampleRateHertz }
        try self.init(timesSeconds: times, acceleration: acceleration, rotation: rotation)
    }

    /// The number of samples.
    public var count: Int { timesSeconds.count }

    /// The time from the first to the last sample, in seconds.
    public var durationSeconds: Double { (timesSeconds.last ?? 0) - (timesSeconds.first ?? 0) }

    /// Whether gyroscope samples are present.
    public var hasRotation: Bool { rotation != nil }

    /// The median spacing of strictly increasing times; O(n log n).
    static func medianSpacing(_ times: [Double]) -> Double {
        var spacings = zip(times.dropFirst(), times).map { $0 - $1 }
        spacings.sort()
        return spacings[spacings.count / 2]
    }
}
