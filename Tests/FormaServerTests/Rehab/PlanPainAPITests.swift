import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Plan sessions around pain")
struct PlanPainAPITests {
    @Test func aSessionIsRegeneratedAroundPainAndUnchangedWithout() async throws {
        let catalog = try WorkoutEngine.bundled().catalog
        try await withFormaApp { app in
            // setup: Ada and Bo enrol in the body-weight strength plan; Ada's shoulders hurt 8/10
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let ada = PainPatient.of(api, key: key, user: "ada")
            let bo = PainPatient.of(api, key: key, user: "bo")
            for person in [ada, bo] {
                let enrolled = try await api.send(.POST, "/v1/plans/strength-bodyweight/enrolment", headers: person.headers)
                #expect(enrolled.status == .created)
            }
            let plan: PlanAPITests.PlanBody = try await api.get("/v1/plans/strength-bodyweight", headers: bo.headers)
                .json()
            let session = try #require(plan.levels.first?.sessions.first)
            // the session as everyone gets it loads the shoulder
            #expect(session.items.contains { catalog[$0.exerciseId]?.loadedRegions.contains(.shoulder) == true })
            #expect(try await ada.report("shoulder", side: "both", intensity: 8).status == .created)

            // act
            let forAda = try await api.send(
                .POST, "/v1/plans/strength-bodyweight/workouts", headers: ada.headers, json: ["sessionId": session.id])
            let forBo = try await api.send(
                .POST, "/v1/plans/strength-bodyweight/workouts", headers: bo.headers, json: ["sessionId": session.id])

            // verify: Bo gets the session unchanged; Ada's spares the shoulder and says what it left out
            #expect(forBo.status == .created)
            let boWorkout = try forBo.json(PainAwareWorkoutBody.self)
            #expect(boWorkout.items.map(\.exerciseId) == session.items.map(\.exerciseId) && boWorkout.pain == nil)
            #expect(forAda.status == .created, "\(forAda.text)")
            let adaWorkout = try forAda.json(PainAwareWorkoutBody.self)
            #expect(!adaWorkout.items.isEmpty)
            for item in adaWorkout.items {
                #expect(catalog[item.exerciseId]?.loadedRegions.contains(.shoulder) == false, "\(item.name)")
            }
            #expect(adaWorkout.pain?.restrictions.map(\.region) == ["shoulder"])
            #expect(adaWorkout.pain?.leftOut.isEmpty == false)
            #expect(adaWorkout.request.avoidRegions?.contains("shoulder") == true)
            // the regenerated workout still counts as the plan's session
            struct Linked: Decodable {
                struct PlanSession: Decodable { let planId: String; let sessionId: String }
                let planSession: PlanSession?
            }
            #expect(try forAda.json(Linked.self).planSession?.sessionId == session.id)
            // the pain section is stored with the session's workout
            let stored = try await api.get("/v1/workouts/\(adaWorkout.id)", headers: ada.headers)
            #expect(try stored.json(PainAwareWorkoutBody.self).pain == adaWorkout.pain)
        }
    }
}
