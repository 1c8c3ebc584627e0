/// Rescaling a workout's dose by a load factor: how a rehabilitation plan steps a session's load up or back
/// (``RehabProgression``).
///
/// The dose of an exercise is sets × repetitions, or sets × hold seconds. Forma scales it **per set** and keeps the
/// sets, the rest and the set-up as they are: a stepped-up session asks for more repetitions or longer holds in each
/// set, the way a physiotherapist progresses a home programme (12 → 13 repetitions, a 20 s hold → 22 s), and a
/// stepped-back one for fewer. Only the main block is scaled: the warm-up and cool-down prepare for the load and
/// settle after it, they are not the load.
///
/// **Time.** A scaled workout keeps the session's `minutes` (its request's ``WorkoutRequest/durationMinutes``, the
/// length the plan gave it) and recomputes every estimate from the new dose with ``Prescription/estimatedSeconds``,
/// so the estimate follows the load: a stepped-up session may run past its minutes, a stepped-back one end early.
/// The ±10 % rule of the generator holds for the session as generated (factor 1); a scaled one differs from it by
/// the change in work time alone, at most (factor − 1) × the main block's work seconds, plus half a repetition or
/// half a second of rounding per set. Trading sets for repetitions to hold the time was rejected: it would change
/// the rest pattern a person is used to and hide the progression behind a different shape of session.
///
/// **Bounds.** The factor is clamped to ``factorRange`` (half to twice the plan's dose), so doses stay sane however
/// many steps a person takes: at most twice the prescription's repetitions or hold per set, and at least one
/// repetition and ``minimumHoldSeconds`` of hold.
public enum DoseScaling {
    /// The load factors a workout may be scaled by; others are clamped into it.
    public static let factorRange: ClosedRange<Double> = 0.5...2.0
    /// The shortest hold a scaled exercise asks for.
    public static let minimumHoldSeconds = 5

    /// `factor` clamped to ``factorRange``; a non-finite factor means no change (1).
    public static func clamped(_ factor: Double) -> Double {
        guard factor.isFinite else { return 1 }
        return min(max(factor, factorRange.lowerBound), factorRange.upperBound)
    }
}

extension WorkoutItem {
    /// Seconds one repetition takes in this item, read back from its estimate (the estimate is
    /// `setup + sets × reps × secondsPerRep + (sets − 1) × rest`); 0 for a timed item.
    public var secondsPerRep: Int {
        guard let reps, reps > 0, sets > 0 else { return 0 }
        let work = estimatedSeconds - setupSeconds - max(0, sets - 1) * restSeconds
        return max(0, Int((Double(work) / Double(sets * reps)).rounded()))
    }

    /// The item with its repetitions or hold per set multiplied by `factor` (clamped by ``DoseScaling``), sets and
    /// rest unchanged, and its estimate recomputed.
    public func scalingDose(by factor: Double) -> WorkoutItem {
        let factor = DoseScaling.clamped(factor)
        guard factor != 1 else { return self }
        var scaled = self
        if let reps {
            scaled.reps = max(1, Int((Double(reps) * factor).rounded()))
        }
        if let holdSeconds {
            scaled.holdSeconds = max(DoseScaling.minimumHoldSeconds, Int((Double(holdSeconds) * factor).rounded()))
        }
        let prescription = Prescription(
            reps: scaled.reps, holdSeconds: scaled.holdSeconds, defaultSets: sets, minimumSets: sets,
            maximumSets: sets, restSeconds: restSeconds, secondsPerRep: secondsPerRep)
        scaled.estimatedSeconds = prescription.estimatedSeconds(sets: sets, setupSeconds: setupSeconds)
        return scaled
    }
}

extension Workout {
    /// The workout with its main block's dose multiplied by `factor` (see ``DoseScaling``) and its estimate
    /// recomputed; the request, and so the session's minutes, unchanged. A factor of 1 returns the workout as it is.
    public func scalingDoses(by factor: Double) -> Workout {
        guard DoseScaling.clamped(factor) != 1 else { return self }
        return Workout(
            request: request, warmUp: warmUp, main: main.map { $0.scalingDose(by: factor) }, coolDown: coolDown)
    }

    /// Seconds of work (repetitions or holds, without set-up and rest) in the main block.
    public var mainWorkSeconds: Int {
        main.reduce(0) { $0 + $1.sets * ($1.holdSeconds ?? ($1.reps ?? 0) * $1.secondsPerRep) }
    }
}
