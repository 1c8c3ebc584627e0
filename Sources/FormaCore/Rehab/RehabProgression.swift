/// The pain a person reports around one rehabilitation session, on the 0–10 numeric rating scale.
public struct SessionPain: Sendable, Hashable, Codable {
    /// The worst pain during the session.
    public var during: Int
    /// Pain right after the session.
    public var after: Int
    /// Pain the next morning, `nil` until the person has said.
    public var nextMorning: Int?
    /// Pain on the morning of the session, before it: what the next morning is compared with.
    public var morningBefore: Int

    public init(during: Int, after: Int, nextMorning: Int?, morningBefore: Int) {
        self.during = during
        self.after = after
        self.nextMorning = nextMorning
        self.morningBefore = morningBefore
    }
}

/// What the next session's load does.
public enum LoadStep: String, Sendable, Hashable, Codable, Comparable {
    case stepUp = "step up"
    case hold
    case stepBack = "step back"

    private var caution: Int {
        switch self {
        case .stepUp: 0
        case .hold: 1
        case .stepBack: 2
        }
    }

    /// Ordered by caution: `stepUp < hold < stepBack`.
    public static func < (lhs: LoadStep, rhs: LoadStep) -> Bool { lhs.caution < rhs.caution }
}

/// Why the load steps as it does.
public enum ProgressionReason: Sendable, Hashable, Codable {
    /// Every rating in the safe zone (0–2), settled by the next morning, not rising week on week.
    case allSafe
    case duringAboveCeiling(Int)
    case afterAboveCeiling(Int)
    case notSettledByMorning(before: Int, nextMorning: Int)
    /// This week's average morning pain, in tenths, above last week's.
    case risingWeekOnWeek(lastWeekTenths: Int, thisWeekTenths: Int)
    case duringAcceptable(Int)
    case afterAcceptable(Int)
    case nextMorningUnknown

    /// The step this finding alone calls for.
    public var step: LoadStep {
        switch self {
        case .allSafe: .stepUp
        case .duringAboveCeiling, .afterAboveCeiling, .notSettledByMorning, .risingWeekOnWeek: .stepBack
        case .duringAcceptable, .afterAcceptable, .nextMorningUnknown: .hold
        }
    }
}

/// The next session's load and the findings behind it.
public struct ProgressionDecision: Sendable, Hashable, Codable {
    public var step: LoadStep
    /// Every finding, most cautious first.
    public var reasons: [ProgressionReason]
    /// What to multiply the last session's load (sets × repetitions, or hold time) by.
    public var loadFactor: Double
}

/// Progression of a rehabilitation plan by the pain-monitoring model.
///
/// The model (Thomeé, Scand. J. Med. Sci. Sports 7(2), 1997; Silbernagel et al., Am. J. Sports Med. 35(6), 2007):
/// pain during and after exercise may reach 5 on the 0–10 scale (0–2 "safe", 2–5 "acceptable", above 5 "high
/// risk"), must have settled to the previous level by the next morning, and must not rise from week to week.
/// Forma's rule:
/// - **Step back** (load × ``stepBackFactor``) when pain during or after went above ``ceiling``, when the next
///   morning is worse than the morning before the session, or when this week's average morning pain is higher
///   than last week's.
/// - **Hold** when nothing calls for a step back but pain during or after was in the acceptable band (3–5), or
///   the next morning is not known yet — the model cannot confirm the load was tolerated.
/// - **Step up** (load × ``stepUpFactor``) when every rating is in the safe zone (at most ``safeCeiling``), the next
///   morning has settled and the week is not worse than the last.
///
/// The step sizes (+10 %, −20 %) are Forma's choice, in line with the gradual loading of Silbernagel's protocol;
/// docs/rehab.md says so.
public enum RehabProgression {
    /// Pain above this during or after exercise is too much: the model's acceptable ceiling.
    public static let ceiling = PainMonitoring.acceptableCeiling
    /// Pain up to this is the model's safe zone.
    public static let safeCeiling = PainMonitoring.safeCeiling
    public static let stepUpFactor = 1.10
    public static let stepBackFactor = 0.80

    /// The next session's step from `pain` around the last session and the mornings of the last two weeks.
    ///
    /// - Parameters:
    ///   - lastWeekMornings: Morning pain ratings of the week before this one; empty when unknown.
    ///   - thisWeekMornings: Morning pain ratings of the current week; empty when unknown. The week-on-week rule
    ///     applies only when both weeks have ratings.
    public static func next(
        after pain: SessionPain, lastWeekMornings: [Int] = [], thisWeekMornings: [Int] = []
    ) -> ProgressionDecision {
        var reasons: [ProgressionReason] = []
        if pain.during > ceiling { reasons.append(.duringAboveCeiling(pain.during)) }
        if pain.after > ceiling { reasons.append(.afterAboveCeiling(pain.after)) }
        if let morning = pain.nextMorning, morning > pain.morningBefore {
            reasons.append(.notSettledByMorning(before: pain.morningBefore, nextMorning: morning))
        }
        if !lastWeekMornings.isEmpty, !thisWeekMornings.isEmpty {
            let last = averageTenths(lastWeekMornings), this = averageTenths(thisWeekMornings)
            if this > last { reasons.append(.risingWeekOnWeek(lastWeekTenths: last, thisWeekTenths: this)) }
        }
        if (safeCeiling + 1...ceiling).contains(pain.during) { reasons.append(.duringAcceptable(pain.during)) }
        if (safeCeiling + 1...ceiling).contains(pain.after) { reasons.append(.afterAcceptable(pain.after)) }
        if pain.nextMorning == nil { reasons.append(.nextMorningUnknown) }
        if reasons.isEmpty { reasons.append(.allSafe) }
        // Most cautious first; the standard library's sort is stable, so finding order stays within a step.
        let ranked = reasons.sorted { $0.step > $1.step }
        let step = ranked[0].step
        let factor = switch step {
        case .stepUp: stepUpFactor
        case .hold: 1.0
        case .stepBack: stepBackFactor
        }
        return ProgressionDecision(step: step, reasons: ranked, loadFactor: factor)
    }

    /// The mean of `ratings` in tenths, rounded half up, so that comparisons are exact.
    static func averageTenths(_ ratings: [Int]) -> Int {
        (ratings.reduce(0, +) * 20 + ratings.count) / (2 * ratings.count)
    }
}
