/// How far a counted repetition got against the exercise's range of motion: what its depth cue and its quality
/// are judged by (``PoseAnalyzer``).
extension PoseExercise {
    /// Whether the turning point reached the exercise's range-of-motion target.
    func reachedTarget(_ span: RepetitionCounter.Span) -> Bool {
        switch signal.cycle {
        case .outAndBack: return signal.direction * (span.turningValue - signal.targetValue) >= 0
        case .bothWays: return span.excursion >= signal.nominalRange
        }
    }

    /// The share of the range the repetition covered, 0…1: from its own rest value to the target for an out-and-back
    /// movement, the nominal range for one that swings both ways.
    func reachedFraction(_ span: RepetitionCounter.Span) -> Double {
        let neededRange = abs(signal.targetValue - span.restValue)
        return neededRange > 1e-9 && signal.cycle == .outAndBack
            ? min(1, span.excursion / neededRange) : min(1, span.excursion / signal.nominalRange)
    }

    /// The cue for a repetition that fell short of the range (`repetition` nil: a partial one, not counted).
    func shortRangeCue(_ span: RepetitionCounter.Span, repetition: Int?) -> FormCue {
        let measured = signal.cycle == .bothWays ? span.excursion : span.turningValue
        let limit = signal.cycle == .bothWays ? signal.nominalRange : signal.targetValue
        return FormCue(
            code: depthCue.code, message: depthCue.message, timeSeconds: span.turningTime,
            repetition: repetition, measuredValue: measured, limit: limit)
    }
}
