import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@testable import FormaKit

/// The conversion from Core Motion-like samples to the fitness-test API's motion format, on every platform: a
/// synthetic wrist set (FormaMotionLab) split into Core Motion's terms — a boot-time clock, user acceleration beside
/// gravity, rotation in rad/s — comes back as the API's recording, which the server's counter counts the same.
@Suite struct MotionRecordingTests {
    private static let bootOffset = 51_234.5  // CMLogItem.timestamp counts from boot
    private static let gravity = MotionSample.Vector(x: 0.1, y: -0.97, z: 0.2)

    /// The synthetic set and the same motion as Core Motion would deliver it.
    private func squatSet(reps: Int) throws -> (original: InertialRecording, samples: [MotionSample]) {
        var rng = SeededGenerator(seed: 11)
        let set = InertialSyntheticSet(
            repetitions: reps, sampleRateHertz: 50, periodSeconds: 2.2, restBeforeSeconds: 3, restAfterSeconds: 3)
        let original = try set.generate(using: &rng).recording
        let rotation = try #require(original.rotation)
        let radiansPerDegree = Double.pi / 180
        let samples = original.timesSeconds.indices.map { index in
            let a = original.acceleration[index]
            let r = rotation[index]
            return MotionSample(
                timestamp: Self.bootOffset + original.timesSeconds[index],
                userAcceleration: .init(x: a.x - Self.gravity.x, y: a.y - Self.gravity.y, z: a.z - Self.gravity.z),
                gravity: Self.gravity,
                rotationRate: .init(x: r.x * radiansPerDegree, y: r.y * radiansPerDegree, z: r.z * radiansPerDegree))
        }
        return (original, samples)
    }

    @Test func coreMotionSamples_becomeTheAPIsRecording_countedAsTheOriginal() throws {
        // setup: a delivery repeated (same timestamp), as a queue that falls behind can give
        let (original, samples) = try squatSet(reps: 10)
        var delivered = samples
        delivered.insert(samples[100], at: 101)
        let started = Date(timeIntervalSince1970: 1_800_000_000)

        // act
        let recording = try MotionRecording(samples: delivered, exerciseId: "Pushups", recordedAt: started)

        // verify: one sample per original, time from 0, acceleration with gravity back in, deg/s
        #expect(recording.t.count == original.timesSeconds.count)
        #expect(recording.t.first == 0)
        let first = original.timesSeconds[0]
        #expect(zip(recording.t, original.timesSeconds).allSatisfy { abs($0 - ($1 - first)) < 1e-9 })
        #expect(maximumDifference(recording.accel, original.acceleration) < 1e-12)
        let gyro = try #require(recording.gyro)
        #expect(maximumDifference(gyro, try #require(original.rotation)) < 1e-9)
        // the API body carries times, not a sample rate
        let body = recording.api
        #expect(body.sampleRate == nil && body.t?.count == recording.t.count && body.exerciseId == "Pushups")
        #expect(body.recordedAt == started)

        // the server's counter sees the same set
        let converted = try InertialRecording(
            timesSeconds: recording.t, acceleration: recording.accel.map { Vector3(x: $0[0], y: $0[1], z: $0[2]) },
            rotation: gyro.map { Vector3(x: $0[0], y: $0[1], z: $0[2]) })
        let counted = InertialAnalyzer().analyze(converted).repetitionCount
        #expect(counted == InertialAnalyzer().analyze(original).repetitionCount)
        #expect(abs(counted - 10) <= 1)
    }

    /// The largest difference between triples and vectors, component by component.
    private func maximumDifference(_ triples: [[Double]], _ vectors: [Vector3]) -> Double {
        var largest = 0.0
        for (triple, vector) in zip(triples, vectors) {
            let differences: [Double] = [abs(triple[0] - vector.x), abs(triple[1] - vector.y), abs(triple[2] - vector.z)]
            largest = max(largest, differences.max() ?? 0)
        }
        return triples.count == vectors.count ? largest : .infinity
    }

    @Test func aSampleWithoutRotation_leavesTheGyroscopeOut() throws {
        var (_, samples) = try squatSet(reps: 3)
        samples[5].rotationRate = nil
        let recording = try MotionRecording(samples: samples, recordedAt: Date())
        #expect(recording.gyro == nil && recording.accel.count == samples.count)
    }

    @Test func recordingsTheServerWouldRefuse_areRefusedNamingTheSamples() throws {
        let (_, samples) = try squatSet(reps: 3)
        let oneSecond = samples.filter { $0.timestamp < samples[0].timestamp + 1 }
        #expect(throws: FormaError.invalidArgument(field: "samples", message: "at least 2 seconds of motion are needed")) {
            try MotionRecording(samples: oneSecond, recordedAt: Date())
        }
        #expect(throws: FormaError.self) { try MotionRecording(samples: [], recordedAt: Date()) }
        let tooLong = stride(from: 0.0, through: 601, by: 1).map {
            MotionSample(timestamp: $0, acceleration: .init(x: 0, y: -1, z: 0))
        }
        #expect(throws: FormaError.invalidArgument(field: "samples", message: "a recording may last at most 10 minutes")) {
            try MotionRecording(samples: tooLong, recordedAt: Date())
        }
    }
}
