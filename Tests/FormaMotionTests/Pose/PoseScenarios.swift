@testable import FormaMotion

/// Randomised but reproducible synthetic sets, shared by the counting and property tests.
enum PoseScenarios {
    /// A set of 5–8 repetitions of `exerciseID` with one half repetition (never first), filmed from a camera
    /// direction near the usual one, at 2–5 m, by a person of varied size and tempo, with noise, occluded joints and
    /// dropped frames.
    static func set(_ exerciseID: String, seed: UInt64) -> (synthesizer: PoseSynthesizer, recording: PoseRecording) {
        var rng = SeededGenerator(seed: seed &* 7919 &+ UInt64(exerciseID.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF))
        let count = Int.random(in: 5...8, using: &rng)
        var repetitions = Array(repeating: PoseSynthesizer.Repetition(), count: count)
        repetitions.insert(PoseSynthesizer.Repetition(depth: 0.4), at: Int.random(in: 2...count, using: &rng))
        var synthesizer = PoseSynthesizer(exerciseID: exerciseID, repetitions: repetitions)
        synthesizer.cameraYawDegrees = SyntheticMotion.usualCameraYaw(exerciseID) + Double.random(in: -25...25, using: &rng)
        synthesizer.cameraDistanceMetres = Double.random(in: 2...5, using: &rng)
        synthesizer.bodyScale = Double.random(in: 0.85...1.15, using: &rng)
        synthesizer.noise = Double.random(in: 0.001...0.005, using: &rng)
        let tempo = Double.random(in: 0.6...1.6, using: &rng)
        synthesizer.outwardSeconds = tempo
        synthesizer.returnSeconds = tempo * Double.random(in: 0.7...1.3, using: &rng)
        synthesizer.pauseSeconds = Double.random(in: 0.2...1.2, using: &rng)
        if SyntheticMotion.usualCameraYaw(exerciseID) > 0 { synthesizer.workingSide = .right }
        synthesizer.occlusionProbability = 0.05
        synthesizer.dropProbability = 0.05
        synthesizer.framesPerSecond = [24.0, 30, 60].randomElement(using: &rng) ?? 30
        guard let recording = synthesizer.recording(using: &rng) else {
            preconditionFailure("no synthetic motion for \(exerciseID)")
        }
        return (synthesizer, recording)
    }
}
