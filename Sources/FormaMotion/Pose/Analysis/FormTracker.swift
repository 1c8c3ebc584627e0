/// Follows one form rule through a repetition: its value at the turning point and its longest violation.
struct FormTracker: Sendable {
    let rule: FormRule
    /// `rule.moment` and `rule.limit`, stored so a frame's observation does not read through the rule.
    private let moment: FormRule.Moment
    private let limit: FormRule.Limit
    private var filter: OneEuroFilter
    private(set) var turningValue: Double?
    private(set) var worstValue: Double?
    private var worstExcess = -Double.infinity
    private var violationStart: Double?
    private var longestViolation = 0.0

    init(rule: FormRule) {
        self.rule = rule
        moment = rule.moment
        limit = rule.limit
        filter = OneEuroFilter(minimumCutoffHertz: 2, beta: 1.5 / rule.measure.typicalSpan)
    }

    mutating func startRepetition() {
        filter.reset()
        turningValue = nil
        worstValue = nil
        worstExcess = -.infinity
        violationStart = nil
        longestViolation = 0
    }

    /// Records the rule's measure at `time`; `isTurningPoint` marks the deepest frame so far.
    mutating func observe(_ raw: Double?, time: Double, isTurningPoint: Bool) {
        guard let raw else {
            violationStart = nil
            return
        }
        let value = filter.filter(raw, at: time)
        if isTurningPoint { turningValue = value }
        guard moment == .throughout else { return }
        let excess = limit.excess(value)
        guard excess > 0 else {
            violationStart = nil
            return
        }
        let start = violationStart ?? time
        violationStart = start
        longestViolation = max(longestViolation, time - start)
        if excess > worstExcess {
            worstExcess = excess
            worstValue = value
        }
    }

    /// The value that breaks the rule in this repetition, or `nil` when the rule held (or could not be judged).
    var violation: Double? {
        switch rule.moment {
        case .turningPoint:
            guard let turningValue, rule.limit.excess(turningValue) > 0 else { return nil }
            return turningValue
        case .throughout:
            guard longestViolation >= FormRule.minimumViolationSeconds else { return nil }
            return worstValue
        }
    }
}
