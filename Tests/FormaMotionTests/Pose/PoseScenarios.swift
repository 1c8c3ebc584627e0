@testable import FormaMotion
import FormaMotionLab

/// Randomised but reproducible synthetic sets, shared by the counting and streaming tests.
enum PoseScenarios {
    /// `PoseSynthesizer.scenario`, which the docs' synthetic accuracy table also uses.
    static func set(_ exerciseID: String, seed: UInt64) -> (synthesizer: PoseSynthesizer, recording: PoseRecording) {
        guard let scenario = PoseSynthesizer.scenario(exerciseID: exerciseID, seed: seed) else {
            preconditionFailure("no synthetic motion for \(exerciseID)")
        }
        return scenario
    }
}
