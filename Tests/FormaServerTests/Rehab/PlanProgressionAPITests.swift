import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Wire shapes of the rehab progression in plans.
struct SessionPainBody: Decodable {
    struct Decision: Decodable {
        struct Reason: Decodable {
            let code: String
            let step: String
            let detail: String
        }

        let sessionId: String
        let step: String
        let loadFactorBefore: Double
        let loadFactorAfter: Double
        let decidedAt: Date
        let reasons: [Reason]
    }

    let id: String
    let planId: String
    let sessionId: String
    let runId: String
    let morningBefore: Int
    let during: Int
    let after: Int
    let nextMorning: Int?
    let decision: Decision?
}

struct PlanLoadProgressBody: Decodable {
    struct Load: Decodable {
        let factor: Double
        let lastDecision: SessionPainBody.Decision?
        let awaitingNextMorning: [SessionPainBody]
    }

    let planId: String
    let load: Load
}

struct SavedRunBody: Decodable {
    let id: String
    let status: String
    let sessionPain: SessionPainBody?
}

/// A person in the gentle-mobility rehabilitation plan, doing its sessions and reporting the pain around them.
struct RehabPatient {
    static let planID = "rehabilitation-mobility"
    let api: APIClient
    let headers: [(String, String)]
    let clock: TestClock

    static func enrolled(_ api: APIClient, key: String, user: String, clock: TestClock) async throws -> RehabPatient {
        let patient = RehabPatient(api: api, headers: Auth.key(key, user: user), clock: clock)
        let enrolled = try await api.send(.POST, "/v1/plans/\(planID)/enrolment", headers: patient.headers)
        #expect(enrolled.status == .created, "\(enrolled.text)")
        return patient
    }

    func plan() async throws -> PlanAPITests.PlanBody {
        try await api.get("/v1/plans/\(Self.planID)", headers: headers).json()
    }

    func sessionWorkout(_ sessionID: String) async throws -> WorkoutBody {
        let reply = try await api.send(
            .POST, "/v1/plans/\(Self.planID)/workouts", headers: headers, json: ["sessionId": sessionID])
        #expect(reply.status == .created, "\(reply.text)")
        return try reply.json()
    }

    /// Starts the workout and saves it with `pain` (morning before, during, after).
    func save(_ workoutID: String, pain: [String: Int]) async throws -> APIClient.Reply {
        let started = try await api.send(.POST, "/v1/workouts/\(workoutID)/start", headers: headers)
        #expect(started.status == .created, "\(started.text)")
        clock.advance(seconds: 1_200)
        return try await api.send(
            .POST, "/v1/workouts/\(workoutID)/save", headers: headers, json: ["sessionPain": pain])
    }

    /// Does `sessionID` with the pain given on save, and returns the record it made.
    func doSession(_ sessionID: String, morningBefore: Int, during: Int, after: Int) async throws -> SessionPainBody {
        let workout = try await sessionWorkout(sessionID)
        let reply = try await save(
            workout.id, pain: ["morningBefore": morningBefore, "during": during, "after": after])
        #expect(reply.status == .ok, "\(reply.text)")
        let run = try reply.json(SavedRunBody.self)
        #expect(run.status == "completed")
        return try #require(run.sessionPain)
    }

    func nextMorning(_ rating: Int, of painID: String) async throws -> APIClient.Reply {
        try await api.send(
            .POST, "/v1/plans/\(Self.planID)/session-pain/\(painID)/next-morning", headers: headers,
            json: ["nextMorning": rating])
    }

    func progress() async throws -> PlanLoadProgressBody {
        let reply = try await api.get("/v1/plans/\(Self.planID)/progress", headers: headers)
        #expect(reply.status == .ok, "\(reply.text)")
        return try reply.json()
    }
}

@Suite("Rehabilitation progression in plans")
struct PlanProgressionAPITests {
    /// The main block's dose per set (repetitions or hold seconds) of a session's workout.
    static func doses(_ items: [WorkoutBody.Item]) -> [Int] {
        items.filter { $0.block == "main" }.map { $0.reps ?? $0.holdSeconds ?? 0 }
    }

    @Test func safeSettledPainStepsTheNextSessionUp() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada does the first session with little pain; the next morning is as good as the one before
            let api = APIClient(app: app)
            let ada = try await RehabPatient.enrolled(api, key: try await api.createCompany("Physio"), user: "ada", clock: clock)
            let sessions = try #require(try await ada.plan().levels.first).sessions
            let before = try await ada.sessionWorkout(sessions[1].id)
            let record = try await ada.doSession(sessions[0].id, morningBefore: 1, during: 2, after: 1)
            #expect(record.decision == nil && record.nextMorning == nil)
            #expect(try await ada.progress().load.awaitingNextMorning.map(\.id) == [record.id])
            clock.advance(seconds: 16 * 3_600)

            // act
            let reply = try await ada.nextMorning(1, of: record.id)
            let next = try await ada.sessionWorkout(sessions[1].id)
            let progress = try await ada.progress()

            // verify: a step up by 10 %, with its reason; the next session asks for 10 % more per set
            #expect(reply.status == .ok, "\(reply.text)")
            let decision = try #require(try reply.json(SessionPainBody.self).decision)
            #expect(decision.step == "step up" && decision.reasons.map(\.code) == ["all-safe"])
            #expect(decision.loadFactorBefore == 1 && decision.loadFactorAfter == 1.1)
            #expect(progress.load.factor == 1.1 && progress.load.lastDecision?.step == "step up")
            #expect(progress.load.awaitingNextMorning.isEmpty)
            let base = Self.doses(sessions[1].items)
            #expect(!base.isEmpty && Self.doses(before.items) == base)
            #expect(Self.doses(next.items) == base.map { Int((Double($0) * 1.1).rounded()) })
            // the session keeps its minutes and its sets; the estimate follows the larger dose
            #expect(next.minutes == before.minutes && next.items.map(\.sets) == before.items.map(\.sets))
            #expect(next.estimatedSeconds > before.estimatedSeconds)
        }
    }

    @Test func acceptablePainHoldsTheLoad() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: pain during the session reached 4/10, within the acceptable band but above the safe one
            let api = APIClient(app: app)
            let bo = try await RehabPatient.enrolled(api, key: try await api.createCompany("Physio"), user: "bo", clock: clock)
            let sessions = try #require(try await bo.plan().levels.first).sessions
            let record = try await bo.doSession(sessions[0].id, morningBefore: 2, during: 4, after: 2)
            clock.advance(seconds: 16 * 3_600)

            // act
            let decision = try #require(try await bo.nextMorning(2, of: record.id).json(SessionPainBody.self).decision)
            let next = try await bo.sessionWorkout(sessions[1].id)

            // verify: the load holds, and the next session is the plan's as it is
            #expect(decision.step == "hold" && decision.reasons.map(\.code) == ["during-acceptable"])
            #expect(decision.reasons.first?.detail == "Pain during the session was 4/10: acceptable, but above the safe 2/10")
            let factor = try await bo.progress().load.factor
            #expect(decision.loadFactorAfter == 1 && factor == 1)
            #expect(Self.doses(next.items) == Self.doses(sessions[1].items))
        }
    }

    @Test func painAboveTheCeilingOrUnsettledStepsBack() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Cy's first session hurt 7/10 afterwards; the second left the next morning worse than before
            let api = APIClient(app: app)
            let cy = try await RehabPatient.enrolled(api, key: try await api.createCompany("Physio"), user: "cy", clock: clock)
            let sessions = try #require(try await cy.plan().levels.first).sessions
            let first = try await cy.doSession(sessions[0].id, morningBefore: 2, during: 3, after: 7)
            clock.advance(seconds: 16 * 3_600)

            // act
            let back = try #require(try await cy.nextMorning(2, of: first.id).json(SessionPainBody.self).decision)
            let stepped = try await cy.sessionWorkout(sessions[1].id)
            let second = try await cy.save(
                stepped.id, pain: ["morningBefore": 1, "during": 2, "after": 2]).json(SavedRunBody.self)
            clock.advance(seconds: 16 * 3_600)
            let secondRecord = try #require(second.sessionPain)
            let unsettledReply = try await cy.nextMorning(3, of: secondRecord.id)
            let unsettled = try #require(try unsettledReply.json(SessionPainBody.self).decision)

            // verify: both step back by 20 %, most cautious finding first
            #expect(back.step == "step back" && back.reasons.map(\.code) == ["after-above-ceiling", "during-acceptable"])
            #expect(back.loadFactorAfter == 0.8)
            #expect(Self.doses(stepped.items) == Self.doses(sessions[1].items).map { Int((Double($0) * 0.8).rounded()) })
            #expect(unsettled.step == "step back" && unsettled.reasons.first?.code == "not-settled-by-morning")
            #expect(unsettled.loadFactorBefore == 0.8 && unsettled.loadFactorAfter == 0.64)
            let factor = try await cy.progress().load.factor
            #expect(factor == 0.64)
        }
    }

    @Test func morningPainRisingWeekOnWeekStepsBack() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: a calm first week (mornings 1/10) steps the load up; eight days later the mornings are at 3/10,
            // each session settles to its own morning, but the week is worse than the last
            let api = APIClient(app: app)
            let di = try await RehabPatient.enrolled(api, key: try await api.createCompany("Physio"), user: "di", clock: clock)
            let sessions = try #require(try await di.plan().levels.first).sessions
            let first = try await di.doSession(sessions[0].id, morningBefore: 1, during: 1, after: 1)
            clock.advance(seconds: 16 * 3_600)
            let up = try #require(try await di.nextMorning(1, of: first.id).json(SessionPainBody.self).decision)
            clock.advance(seconds: 7 * 86_400)
            let second = try await di.doSession(sessions[1].id, morningBefore: 3, during: 1, after: 1)
            clock.advance(seconds: 16 * 3_600)

            // act
            let reply = try await di.nextMorning(3, of: second.id)

            // verify: last week's mornings averaged 1.0, this week's 3.0: a step back from the stepped-up load
            #expect(up.step == "step up")
            let decision = try #require(try reply.json(SessionPainBody.self).decision)
            #expect(decision.step == "step back" && decision.reasons.map(\.code) == ["rising-week-on-week"])
            #expect(decision.reasons.first?.detail == "Morning pain averaged 3.0/10 this week, up from 1.0/10 the week before")
            #expect(decision.loadFactorBefore == 1.1 && decision.loadFactorAfter == 0.88)
        }
    }

    @Test func painIsValidatedAndScopedToItsPerson() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let ada = try await RehabPatient.enrolled(api, key: key, user: "ada", clock: clock)
            let bo = try await RehabPatient.enrolled(api, key: key, user: "bo", clock: clock)
            let sessions = try #require(try await ada.plan().levels.first).sessions
            let workout = try await ada.sessionWorkout(sessions[0].id)

            // act + verify: a rating off the scale is a 422 naming it, and the run is not saved
            let bad = try await ada.save(workout.id, pain: ["morningBefore": 1, "during": 11, "after": -1])
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().errors?.map(\.field) == ["sessionPain.during", "sessionPain.after"])
            let missing = try await api.send(
                .POST, "/v1/workouts/\(workout.id)/save", headers: ada.headers, json: ["sessionPain": ["during": 1]])
            #expect(missing.status == .unprocessableEntity, "\(missing.text)")
            let stillActive = try await api.get("/v1/workouts/\(workout.id)", headers: ada.headers).json(WorkoutBody.self)
            #expect(stillActive.activeRun?.status == "in_progress" && !stillActive.saved)

            // a workout that is no plan session records no session pain
            let own = try await api.send(
                .POST, "/v1/workouts/generate", headers: ada.headers,
                json: GenerateBody(categories: ["stretching"], level: "beginner", minutes: 10, seed: 1))
            let ownID = try own.json(WorkoutBody.self).id
            let _ = try await api.send(.POST, "/v1/workouts/\(workout.id)/quit", headers: ada.headers)
            let notPlan = try await ada.save(ownID, pain: ["morningBefore": 1, "during": 1, "after": 1])
            #expect(notPlan.status == .unprocessableEntity)
            #expect(try notPlan.problem().field == "sessionPain")
            let _ = try await api.send(.POST, "/v1/workouts/\(ownID)/quit", headers: ada.headers)

            let record = try await ada.doSession(sessions[0].id, morningBefore: 1, during: 1, after: 1)
            let offScale = try await ada.nextMorning(12, of: record.id)
            #expect(offScale.status == .unprocessableEntity)
            #expect(try offScale.problem().field == "nextMorning")
            // Bo cannot complete Ada's record, nor can anyone complete one that does not exist
            #expect(try await bo.nextMorning(1, of: record.id).status == .notFound)
            #expect(try await ada.nextMorning(1, of: UUID().uuidString).status == .notFound)
            #expect(try await ada.nextMorning(1, of: "nonsense").status == .notFound)
            let noPlan = try await api.send(
                .POST, "/v1/plans/no-such-plan/session-pain/\(record.id)/next-morning", headers: ada.headers,
                json: ["nextMorning": 1])
            #expect(noPlan.status == .notFound, "\(noPlan.text)")
            let otherPlan = try await api.send(
                .POST, "/v1/plans/strength-bodyweight/session-pain/\(record.id)/next-morning", headers: ada.headers,
                json: ["nextMorning": 1])
            #expect(otherPlan.status == .notFound, "\(otherPlan.text)")
            #expect(try await ada.nextMorning(1, of: record.id).status == .ok)
            let again = try await ada.nextMorning(0, of: record.id)
            #expect(again.status == .conflict, "\(again.text)")
            let adaFactor = try await ada.progress().load.factor, boFactor = try await bo.progress().load.factor
            #expect(adaFactor == 1.1 && boFactor == 1)
        }
    }

    /// Eight recordings of one next morning at once: exactly one completes the record and steps the load.
    @Test func concurrentRecordingsStepTheLoadOnce() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await RehabPatient.enrolled(api, key: try await api.createCompany("Physio"), user: "ada", clock: clock)
            let sessions = try #require(try await ada.plan().levels.first).sessions
            let record = try await ada.doSession(sessions[0].id, morningBefore: 0, during: 1, after: 0)
            clock.advance(seconds: 16 * 3_600)

            // act
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<8 { group.addTask { try await ada.nextMorning(0, of: record.id).status } }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 7, "\(statuses)")
            let progress = try await ada.progress()
            #expect(progress.load.factor == 1.1 && progress.load.lastDecision?.loadFactorBefore == 1)
        }
    }
}
