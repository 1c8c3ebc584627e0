#if canImport(CoreMotion)
import CoreMotion
import Foundation

extension MotionSample {
    /// One `CMDeviceMotion` update: its timestamp, user acceleration plus gravity (g) and rotation rate (rad/s).
    public init(_ motion: CMDeviceMotion) {
        self.init(
            timestamp: motion.timestamp,
            userAcceleration: .init(x: motion.userAcceleration.x, y: motion.userAcceleration.y, z: motion.userAcceleration.z),
            gravity: .init(x: motion.gravity.x, y: motion.gravity.y, z: motion.gravity.z),
            rotationRate: .init(x: motion.rotationRate.x, y: motion.rotationRate.y, z: motion.rotationRate.z))
    }
}

/// Records the device's motion with Core Motion for one fitness-test exercise, as the embed page does with
/// `devicemotion` (docs/fitness-tests.md): ``start(onSample:)``, the person does the exercise, ``stop(exerciseId:)``
/// gives the ``MotionRecording`` for ``FormaKit/recordFitnessTestExercise(testId:exerciseId:recording:)``.
/// Device motion needs no permission prompt (unlike motion activity); it is unavailable in the simulator.
///
/// ```swift
/// let recorder = MotionRecorder()
/// try recorder.start { seconds in timerLabel.text = "\(30 - Int(seconds))" }
/// // … 30 seconds later, or when the person taps Skip:
/// let recording = try recorder.stop(exerciseId: "Pushups")
/// let test = try await forma.recordFitnessTestExercise(testId: test.id, exerciseId: "Pushups", recording: recording)
/// ```
public final class MotionRecorder: @unchecked Sendable {
    private let manager = CMMotionManager()
    private let queue: OperationQueue
    private let lock = NSLock()
    private var samples: [MotionSample] = []
    private var startedAt = Date()

    /// `sampleRate` in Hz (50 by default, as the server's tests and the motion evaluation use).
    public init(sampleRate: Double = 50) {
        manager.deviceMotionUpdateInterval = 1 / sampleRate
        queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "FormaKit.MotionRecorder"
    }

    public var isAvailable: Bool { manager.isDeviceMotionAvailable }

    /// Starts recording; `onSample` is called on a background queue with the seconds recorded so far.
    public func start(onSample: (@Sendable (TimeInterval) -> Void)? = nil) throws(FormaError) {
        guard manager.isDeviceMotionAvailable else {
            throw FormaError.invalidArgument(field: "motion", message: "this device has no motion sensors")
        }
        lock.withLock {
            samples = []
            startedAt = Date()
        }
        manager.startDeviceMotionUpdates(to: queue) { [weak self] motion, _ in
            guard let self, let motion else { return }
            let sample = MotionSample(motion)
            let seconds = self.lock.withLock { () -> TimeInterval in
                self.samples.append(sample)
                return sample.timestamp - (self.samples.first?.timestamp ?? sample.timestamp)
            }
            onSample?(seconds)
        }
    }

    /// Stops recording and converts what was recorded (``MotionRecording/init(samples:exerciseId:recordedAt:)``).
    public func stop(exerciseId: String? = nil) throws(FormaError) -> MotionRecording {
        manager.stopDeviceMotionUpdates()
        let (recorded, began) = lock.withLock { (samples, startedAt) }
        return try MotionRecording(samples: recorded, exerciseId: exerciseId, recordedAt: began)
    }
}
#endif
