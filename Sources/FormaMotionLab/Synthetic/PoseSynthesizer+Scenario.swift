import FormaMotion

extension PoseSynthesizer {
    /// The seeded evaluation set used by the tests and by `forma eval pose synthetic`: 5–8 full repetitions of
    /// `exerciseID` plus one 40 % repetition (never the first), filmed within ±25° of the usual camera direction (one
    /// working side for side-on exercises, alternating sides otherwise), at 2–5 m, by a person 0.85–1.15 × average
    /// size, at varied tempo and frame rate, with landmark noise, 5 % occluded joints and 5 % dropped frames.
    public static func scenario(exerciseID: String, seed: UInt64) -> (synthesizer: PoseSynthesizer, recording: PoseRecording)? {
        let salt = UInt64(exerciseID.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF)
        var rng = SeededGenerator(seed: seed &* 7919 &+ salt)
        let count = Int.random(in: 5...8, using: &rng)
        var repetitions = Array(repeating: Repetition(), count: count)
        repetitions.insert(Repetition(depth: 0.4), at: Int.random(in: 2...count, using: &rng))
        var synthesizer = PoseSynthesizer(exerciseID: exerciseID, repetitions: repetitions)
        let usualYaw = SyntheticMotion.usualCameraYaw(exerciseID)
        synthesizer.cameraYawDegrees = usualYaw + Double.random(in: -25...25, using: &rng)
        synthesizer.cameraDistanceMetres = Double.random(in: 2...5, using: &rng)
        synthesizer.bodyScale = Double.random(in: 0.85...1.15, using: &rng)
        synthesizer.noise = Double.random(in: 0.001...0.005, using: &rng)
        let tempo = Double.random(in: 0.6...1.6, using: &rng)
        synthesizer.outwardSeconds = tempo
        synthesizer.returnSeconds = tempo * Double.random(in: 0.7...1.3, using: &rng)
        synthesizer.pauseSeconds = Double.random(in: 0.2...1.2, using: &rng)
        if usualYaw > 0 { synthesizer.workingSide = .right }
        synthesizer.occlusionProbability = 0.05
        synthesizer.dropProbability = 0.05
        synthesizer.framesPerSecond = [24.0, 30, 60].randomElement(using: &rng) ?? 30
        guard let recording = synthesizer.recording(using: &rng) else { return nil }
        return (synthesizer, recording)
    }
}
