import FormaAPI
import FormaCore
import Foundation

extension FormaAPIHandler {
    func recordNextMorningPain(_ input: Operations.RecordNextMorningPain.Input) async throws
        -> Operations.RecordNextMorningPain.Output
    {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let plan = try self.plan(input.path.id)
        let rating = try PlanLoadMapping.rating(body.nextMorning, field: "nextMorning")
        let row = try await planLoadStore(for: me).recordNextMorning(rating, of: input.path.painId, planID: plan.id)
        if let step = row.step {
            logger.info("plan load stepped", metadata: ["plan": .string(plan.id), "step": .string(step)])
        }
        return .ok(.init(body: .json(try PlanLoadMapping.record(row))))
    }

    func planLoadStore(for me: AuthenticatedUser) throws -> PlanLoadStore {
        PlanLoadStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    /// The person's load under `enrolment`, as plan progress answers it.
    func planLoad(for me: AuthenticatedUser, of enrolment: PlanEnrolmentModel) async throws
        -> Components.Schemas.PlanLoad
    {
        let (factor, last, pending) = try await planLoadStore(for: me).load(of: enrolment)
        return .init(
            factor: factor, lastDecision: try last.flatMap(PlanLoadMapping.decision),
            awaitingNextMorning: try pending.map(PlanLoadMapping.record))
    }
}

/// The pain around plan sessions and the load decisions, as the API's schemas.
enum PlanLoadMapping {
    /// A 0–10 rating; 422 naming `field` otherwise.
    static func rating(_ value: Int, field: String) throws(InputError) -> Int {
        guard PainMonitoring.scale.contains(value) else {
            throw .invalid(field: field, "must be a whole number from 0 (no pain) to 10 (worst imaginable), not \(value)")
        }
        return value
    }

    /// The pain given with a save, every out-of-range rating named (`sessionPain.during`, …).
    static func savedPain(_ body: Components.Schemas.SessionPainOnSave) throws(InputError) -> PlanLoadStore.SavedPain {
        var issues: [FieldIssue] = []
        func checked(_ value: Int, _ name: String) -> Int {
            do { return try rating(value, field: "sessionPain.\(name)") } catch {
                if case .invalid(let found) = error { issues += found }
                return 0
            }
        }
        let pain = PlanLoadStore.SavedPain(
            morningBefore: checked(body.morningBefore, "morningBefore"), during: checked(body.during, "during"),
            after: checked(body.after, "after"))
        guard issues.isEmpty else { throw .invalid(issues) }
        return pain
    }

    static func record(_ row: PlanSessionPainModel) throws -> Components.Schemas.PlanSessionPain {
        .init(
            id: try row.requireID().uuidString.lowercased(), planId: row.planID, sessionId: row.sessionID,
            runId: row.runID.uuidString.lowercased(), morningBefore: row.morningBefore, during: row.during,
            after: row.after, nextMorning: row.nextMorning, recordedAt: row.recordedAt,
            nextMorningAt: row.nextMorningAt, decision: try decision(row))
    }

    /// The decision a completed record led to; `nil` while it waits for its next morning.
    static func decision(_ row: PlanSessionPainModel) throws -> Components.Schemas.PlanLoadDecision? {
        guard let raw = row.step, let step = Components.Schemas.PlanLoadDecision.StepPayload(rawValue: raw),
            let before = row.loadFactorBefore, let after = row.loadFactorAfter, let at = row.nextMorningAt,
            let data = row.reasons
        else { return nil }
        let reasons = try WorkoutStore.codec.decoder.decode([ProgressionReason].self, from: data)
        return .init(
            sessionId: row.sessionID, step: step, loadFactorBefore: before, loadFactorAfter: after, decidedAt: at,
            reasons: reasons.map(reason))
    }

    static func reason(_ reason: ProgressionReason) -> Components.Schemas.ProgressionReason {
        let ceiling = RehabProgression.ceiling, safe = RehabProgression.safeCeiling
        let (code, detail): (String, String) = switch reason {
        case .allSafe:
            ("all-safe", "Pain stayed within 0–\(safe)/10, settled by the next morning and did not rise week on week")
        case .duringAboveCeiling(let pain):
            ("during-above-ceiling", "Pain during the session was \(pain)/10, above the acceptable \(ceiling)/10")
        case .afterAboveCeiling(let pain):
            ("after-above-ceiling", "Pain after the session was \(pain)/10, above the acceptable \(ceiling)/10")
        case .notSettledByMorning(let before, let next):
            ("not-settled-by-morning",
             "Pain the next morning (\(next)/10) was worse than the morning before the session (\(before)/10)")
        case .risingWeekOnWeek(let last, let this):
            ("rising-week-on-week",
             "Morning pain averaged \(tenths(this))/10 this week, up from \(tenths(last))/10 the week before")
        case .duringAcceptable(let pain):
            ("during-acceptable", "Pain during the session was \(pain)/10: acceptable, but above the safe \(safe)/10")
        case .afterAcceptable(let pain):
            ("after-acceptable", "Pain after the session was \(pain)/10: acceptable, but above the safe \(safe)/10")
        case .nextMorningUnknown:
            ("next-morning-unknown", "The next morning's pain is not known yet")
        }
        return .init(
            code: .init(rawValue: code) ?? .nextMorningUnknown,
            step: .init(rawValue: reason.step.rawValue) ?? .hold, detail: detail)
    }

    private static func tenths(_ value: Int) -> String { "\(value / 10).\(value % 10)" }
}
