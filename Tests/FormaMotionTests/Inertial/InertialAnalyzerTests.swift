import Foundation
import Testing
@testable import FormaMotion
import FormaMotionLab

@Suite struct InertialAnalyzerTests {
    static let rates: [Double] = [12.5, 25, 50, 100]

    /// A random but plausible set: 3–12 reps, 1.5–3.5 s per rep over 0.4–0.7 m (bench to squat range of motion), ±10 % tempo drift, any rate, gyro or not.
    private func randomSet(seed: UInt64) throws -> (recording: InertialRecording, set: InertialSyntheticSet) {
        var generator = SeededGenerator(seed: seed)
        let set = InertialSyntheticSet(
            repetitions: Int.random(in: 3...12, using: &generator),
            sampleRateHertz: Self.rates[Int.random(in: 0..<Self.rates.count, using: &generator)],
            periodSeconds: Double.random(in: 1.5...3.5, using: &generator), tempoJitter: 0.1,
            excursionMetres: Double.random(in: 0.4...0.7, using: &generator), noiseG: 0.01,
            restBeforeSeconds: Double.random(in: 3...10, using: &generator),
            restAfterSeconds: Double.random(in: 3...10, using: &generator),
            includesRotation: Bool.random(using: &generator))
        return (try set.generate(using: &generator).recording, set)
    }

    /// The stated bound: exact on at least 95 % of seeds and within one rep on at least 98 %. The misses are slow,
    /// short reps on an axis far from vertical, whose small acceleration the rest detector splits or misses (see
    /// docs/motion-inertial.md, "Limits").
    @Test func countsSyntheticSets_exactOn95PercentOfSeeds() throws {
        // setup
        var misses: [String] = []
        var withinOne = 0
        for seed in UInt64(1)...300 {
            let (recording, set) = try randomSet(seed: seed)
            // act
            let analysis = InertialAnalyzer().analyze(recording)
            // verify
            if abs(analysis.repetitionCount - set.repetitions) <= 1 { withinOne += 1 }
            if analysis.repetitionCount != set.repetitions {
                misses.append("seed \(seed): \(set.repetitions) reps at \(set.sampleRateHertz) Hz, counted \(analysis.repetitionCount)")
            }
        }
        #expect(misses.count <= 15, "\(misses.count) of 300 seeds miscounted: \(misses)")
        #expect(withinOne >= 294, "only \(withinOne) of 300 within one rep: \(misses)")
    }

    @Test func reportsRateRegularityAndTheActiveSegment() throws {
        // setup: 8 reps of 2 s with no tempo drift after 6 s of rest.
        var generator = SeededGenerator(seed: 7)
        let set = InertialSyntheticSet(repetitions: 8, sampleRateHertz: 50, periodSeconds: 2, tempoJitter: 0)
        let (recording, starts) = try set.generate(using: &generator)
        // act
        let analysis = InertialAnalyzer().analyze(recording)
        // verify
        #expect(analysis.repetitionCount == 8)
        #expect(abs((analysis.repetitionsPerMinute ?? 0) - 30) < 3)
        #expect((analysis.cadenceVariation ?? 1) < 0.1)
        #expect(abs((analysis.estimatedPeriodSeconds ?? 0) - 2) < 0.15)
        let segment = try #require(analysis.activeSegment)
        #expect(abs(segment.startSeconds - starts[0]) < 1.0)
        #expect(abs(segment.endSeconds - (starts[7] + 2)) < 1.0)
        for (repetition, start) in zip(analysis.repetitions, starts) {
            #expect(abs(repetition.startSeconds - start) < 1.0)
        }
    }

    @Test func neverCountsRepsInStillOrDriftingRecordings() throws {
        // setup: sensor noise, a random orientation, and a slow drift of up to 0.1 g over tens of seconds.
        for seed in UInt64(1)...150 {
            var generator = SeededGenerator(seed: seed)
            let gravity = InertialSyntheticSet.randomUnitVector(using: &generator)
            let rate = Self.rates[Int(seed) % Self.rates.count]
            let driftPeriod = Double.random(in: 20...120, using: &generator)
            let count = Int(rate * Double.random(in: 10...60, using: &generator))
            let acceleration = (0..<count).map { index -> Vector3 in
                let drift = 0.1 * sin(2 * Double.pi * Double(index) / rate / driftPeriod)
                return Vector3(
                    x: gravity.x + drift + .random(in: -0.02...0.02, using: &generator),
                    y: gravity.y + .random(in: -0.02...0.02, using: &generator),
                    z: gravity.z - drift + .random(in: -0.02...0.02, using: &generator))
            }
            let recording = try InertialRecording(sampleRateHertz: rate, acceleration: acceleration)
            // act
            let analysis = InertialAnalyzer().analyze(recording)
            // verify
            #expect(analysis.repetitionCount == 0, "seed \(seed) counted \(analysis.repetitionCount) in a still recording")
        }
    }

    @Test func garbageNeverCrashes() throws {
        // setup: wild values (±50 g, ±5000 deg/s), irregular time steps, random lengths.
        for seed in UInt64(1)...100 {
            var generator = SeededGenerator(seed: seed)
            let count = Int.random(in: 30...3000, using: &generator)
            var time = 0.0
            var times: [Double] = []
            for _ in 0..<count {
                time += Double.random(in: 0.001...0.3, using: &generator)
                times.append(time)
            }
            let wild = { (g: inout SeededGenerator, scale: Double) in
                Vector3(x: .random(in: -scale...scale, using: &g), y: .random(in: -scale...scale, using: &g),
                               z: .random(in: -scale...scale, using: &g))
            }
            let acceleration = (0..<count).map { _ in wild(&generator, 50) }
            let rotation = (0..<count).map { _ in wild(&generator, 5000) }
            // act / verify: either a typed rejection or an analysis with consistent numbers.
            if let recording = try? InertialRecording(timesSeconds: times, acceleration: acceleration, rotation: rotation) {
                let analysis = InertialAnalyzer().analyze(recording)
                #expect(analysis.repetitions.allSatisfy { $0.endSeconds > $0.startSeconds }, "seed \(seed)")
                #expect(analysis.repetitionsPerMinute.map(\.isFinite) ?? true, "seed \(seed)")
            }
        }
    }

    @Test func streamingReportsExactlyTheBatchResult() throws {
        // setup: two sets separated by rest, so the stream reports reps before the end.
        for seed in UInt64(1)...60 {
            let (first, _) = try randomSet(seed: seed)
            let (second, _) = try randomSet(seed: seed + 1000)
            let acceleration = first.acceleration + Self.resampled(second, to: first.sampleRateHertz).acceleration
            let recording = try InertialRecording(sampleRateHertz: first.sampleRateHertz, acceleration: acceleration)
            // act
            let batch = InertialAnalyzer().analyze(recording)
            var stream = InertialStreamAnalyzer(sampleRateHertz: recording.sampleRateHertz, hasRotation: false)
            var events: [InertialAnalysis.Repetition] = []
            var reportedBeforeEnd = 0
            for index in recording.timesSeconds.indices {
                events += try stream.push(timeSeconds: recording.timesSeconds[index], acceleration: recording.acceleration[index])
            }
            reportedBeforeEnd = events.count
            events += stream.finish()
            // verify
            #expect(events == batch.repetitions, "seed \(seed)")
            #expect(stream.analysis == batch, "seed \(seed)")
            #expect(batch.bouts.count < 2 || reportedBeforeEnd > 0, "seed \(seed): nothing reported before the end")
        }
    }

    @Test func streamRejectsBadSamplesAndStaysUsable() throws {
        // setup
        var stream = InertialStreamAnalyzer(sampleRateHertz: 50, hasRotation: false)
        let still = Vector3(x: 0, y: 1, z: 0)
        // act
        _ = try stream.push(timeSeconds: 0, acceleration: still)
        let nan = #expect(throws: InertialInputError.self) {
            _ = try stream.push(timeSeconds: 0.02, acceleration: Vector3(x: .nan, y: 1, z: 0))
        }
        let backwards = #expect(throws: InertialInputError.self) { _ = try stream.push(timeSeconds: 0, acceleration: still) }
        _ = try stream.push(timeSeconds: 0.02, acceleration: still)
        // verify
        #expect(nan?.description == "Sample 1: acceleration is NaN or infinite.")
        #expect(backwards?.description.hasPrefix("Sample 1: time 0.0 s does not increase") == true)
        #expect(stream.finish().isEmpty)
    }

    private static func resampled(_ recording: InertialRecording, to rate: Double) -> (acceleration: [Vector3], Void) {
        let count = Int(recording.durationSeconds * rate)
        let step = recording.sampleRateHertz / rate
        return ((0..<count).map { recording.acceleration[min(recording.count - 1, Int(Double($0) * step))] }, ())
    }
}
