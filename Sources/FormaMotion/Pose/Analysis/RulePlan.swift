/// A form rule's per-frame settings and reader, without its cue texts (which only events need).
struct RulePlan: Sendable {
    let reader: MeasureReader
    let side: RuleSide
    let limit: FormRule.Limit
    let view: CameraView?
    let moment: FormRule.Moment

    init(rule: FormRule) {
        reader = MeasureReader(rule.measure)
        side = rule.side
        limit = rule.limit
        view = rule.view
        moment = rule.moment
    }
}
