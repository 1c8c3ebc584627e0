import FormaMotion

/// Leave-one-participant-out cross-validation of the one tuned parameter of the inertial counter on the barbell data.
///
/// Every other parameter is fixed before looking at the data (see docs/motion-inertial.md). The active-stretch
/// threshold (``InertialAnalyzer/Configuration/activeEnvelopeFraction``) is chosen from ``candidates`` on the sets of
/// three participants (most exact counts, then the lowest mean absolute error, then the smaller value) and scored on
/// the fourth; the pooled held-out errors are the cross-validated figure. Only the 57 distinct sets of `MetaMotion/`
/// take part.
struct BarbellCrossValidation {
    static let candidates: [Double] = [0.1, 0.15, 0.2, 0.25, 0.3]

    struct Fold: Sendable {
        /// The participant held out.
        let participant: String
        /// The threshold chosen on the other participants.
        let chosen: Double
        let heldOut: EvaluationRow
    }

    let folds: [Fold]
    /// Every set scored by the fold that held its participant out.
    let pooled: EvaluationRow

    init(sets: [BarbellEvaluation.LoadedSet], useHint: Bool) {
        // Analyse every set once per candidate; the folds then only choose among these results.
        let results = Self.candidates.map { candidate -> [BarbellEvaluation.SetResult] in
            var configuration = InertialAnalyzer.Configuration.standard
            configuration.activeEnvelopeFraction = candidate
            return BarbellEvaluation(sets: sets, skippedDuplicates: 0, useHint: useHint, configuration: configuration).main
        }
        let participants = Array(Set(results.first?.map(\.participant) ?? [])).sorted()
        var folds: [Fold] = []
        var heldOutResults: [BarbellEvaluation.SetResult] = []
        for participant in participants {
            let scored = results.indices.map { index in
                let others = results[index].filter { $0.participant != participant }
                return (index, EvaluationRow(name: "without \(participant)", others))
            }
            let best = scored.min { left, right in
                (left.1.exact, -left.1.meanAbsoluteError, -Self.candidates[left.0])
                    > (right.1.exact, -right.1.meanAbsoluteError, -Self.candidates[right.0])
            }
            let choice = best?.0 ?? 0
            let heldOut = results[choice].filter { $0.participant == participant }
            heldOutResults += heldOut
            folds.append(Fold(participant: participant, chosen: Self.candidates[choice],
                              heldOut: EvaluationRow(name: participant, heldOut)))
        }
        self.folds = folds
        self.pooled = EvaluationRow(name: "cross-validated", heldOutResults)
    }
}
