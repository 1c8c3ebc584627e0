import FormaMotion
import FormaMotionLab

/// Synthetic shoulder abductions for the form-quality tests: each subject has their own full range (90…160°), and
/// every feature but the fault's is noise.
enum SyntheticAbductions {
    static let elevation = FormFeature.all.firstIndex(of: .summary(.activeShoulderElevation, .high))!
    static let lean = FormFeature.all.firstIndex(of: .summary(.trunkLateralLean, .high))!

    enum Faults {
        /// Every incorrect repetition stops 25° short of the subject's full range.
        case short
        /// An incorrect repetition stops 25° short (even episodes) or leans 12° sideways (odd episodes).
        case shortOrLeaning
    }

    static func make(subjects: ClosedRange<Int>, seed: UInt64, faults: Faults) -> [LabelledRepetition] {
        var generator = SeededGenerator(seed: seed)
        var repetitions: [LabelledRepetition] = []
        for subject in subjects {
            let fullRange = 90 + Double(subject % 8) * 10
            for episode in 1...10 {
                for isCorrect in [true, false] {
                    var values = FormFeature.all.map { _ in Double.random(in: -1...1, using: &generator) }
                    let short = !isCorrect && (faults == .short || episode % 2 == 0)
                    values[elevation] = fullRange - (short ? 25 : 0) + .random(in: -3...3, using: &generator)
                    if faults == .shortOrLeaning {
                        let leaning = !isCorrect && episode % 2 == 1
                        values[lean] = (leaning ? 12 : 0) + .random(in: -3...3, using: &generator)
                    }
                    repetitions.append(LabelledRepetition(
                        movement: .standingShoulderAbduction, subject: subject, episode: episode,
                        isCorrect: isCorrect, features: try! RepetitionFeatures(values: values, activeSide: .right)))
                }
            }
        }
        return repetitions
    }
}
