import FluentKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Tracked exercises")
struct TrackedExerciseTests {
    @Test func trackAskUntrack_isIdempotentAndPerPerson() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")

            let before: TrackingBody = try await api.get("/v1/me/tracked-exercises/Pushups", headers: ada.headers)
                .json()
            #expect(!before.tracked)
            try await ada.track("Pushups", "Pushups", "Rope_Jumping")
            let after: TrackingBody = try await api.get("/v1/me/tracked-exercises/Pushups", headers: ada.headers)
                .json()
            #expect(after.tracked)
            let bobs: TrackingBody = try await api.get("/v1/me/tracked-exercises/Pushups", headers: bob.headers)
                .json()
            #expect(!bobs.tracked)

            let all: TrackedListBody = try await api.get("/v1/me/tracked-exercises", headers: ada.headers).json()
            #expect(Set(all.items.map(\.exerciseId)) == ["Pushups", "Rope_Jumping"])
            let strength: TrackedListBody = try await api
                .get("/v1/me/tracked-exercises?category=strength", headers: ada.headers).json()
            #expect(strength.items.map(\.exerciseId) == ["Pushups"])
            #expect(strength.items.first?.name == "Pushups")

            let untracked = try await api.send(.DELETE, "/v1/me/tracked-exercises/Pushups", headers: ada.headers)
            #expect(try untracked.json(TrackingBody.self).tracked == false)
            let again = try await api.send(.DELETE, "/v1/me/tracked-exercises/Pushups", headers: ada.headers)
            #expect(again.status == .ok)
            let now: TrackedListBody = try await api.get("/v1/me/tracked-exercises", headers: ada.headers).json()
            #expect(now.items.map(\.exerciseId) == ["Rope_Jumping"])
        }
    }

    @Test func concurrentTracking_leavesOneRow() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await ada.api.send(.PUT, "/v1/me/tracked-exercises/Pushups", headers: ada.headers).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .ok, count: 10))
            #expect(try await TrackedExerciseModel.query(on: app.db).count() == 1)
        }
    }

    @Test func unknownExercisesAndCategories_areNamed() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let unknown = try await ada.api.send(.PUT, "/v1/me/tracked-exercises/Nope", headers: ada.headers)
            #expect(unknown.status == .notFound)
            let category = try await ada.api.get("/v1/me/tracked-exercises?category=yoga", headers: ada.headers)
            #expect(category.status == .unprocessableEntity)
            #expect(try category.problem().errors?.first?.field == "category")
        }
    }
}

@Suite("Full fitness test")
struct FitnessTestAPITests {
    @Test func aTestRunsToCompletion_thenTheNextComparesAndLevelsUp() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            try await ada.track("Pushups", "Bodyweight_Squat", "Sit-Up")

            // first test: two chosen exercises
            let created = try await ada.startTest(["category": "strength", "exerciseIds": ["Pushups", "Sit-Up"]])
            #expect(created.status == .created, "\(created.text)")
            let first: FitnessTestBody = try created.json()
            #expect(first.status == "in_progress")
            #expect(first.remaining == ["Pushups", "Sit-Up"])
            #expect(first.exercises.allSatisfy { $0.previous == nil && $0.result == nil })

            var reply = try await ada.record(first.id, "Pushups", try MotionBody.set(repetitions: 8, period: 2.5))
            var test: FitnessTestBody = try reply.json()
            #expect(test.status == "in_progress")
            #expect(test.remaining == ["Sit-Up"])
            #expect(test.exercises.first?.result?.reps == 8)
            reply = try await ada.record(first.id, "Sit-Up", try MotionBody.set(repetitions: 8, period: 2.5, seed: 2))
            test = try reply.json()
            #expect(test.status == "completed", "\(reply.text)")
            #expect(test.level?.before == 1 && test.level?.after == 1)
            #expect(test.level?.reason.contains("baseline") == true)

            // a week later, a second test, faster on both: each exercise shows the previous result, the level rises
            clock.advance(seconds: 7 * 86_400)
            let second: FitnessTestBody = try await ada.startTest(
                ["category": "strength", "exerciseIds": ["Sit-Up", "Pushups"]]).json()
            #expect(second.exercises.map { $0.previous?.reps } == [8, 8])
            _ = try await ada.record(second.id, "Sit-Up", try MotionBody.set(repetitions: 10, period: 2.0, seed: 3))
            let done: FitnessTestBody = try await ada.record(
                second.id, "Pushups", try MotionBody.set(repetitions: 10, period: 2.0, seed: 4)).json()
            #expect(done.status == "completed")
            let level = try #require(done.level)
            #expect(level.levelledUp && level.before == 1 && level.after == 2, "\(level)")
            #expect((level.improvement ?? 0) > 0.15)
            #expect(done.exercises.allSatisfy { ($0.change ?? 0) > 0.15 })

            let current: FitnessLevelBody = try await ada.api.get("/v1/me/fitness-level", headers: ada.headers).json()
            #expect(current.level == 2 && current.testsCompleted == 2 && current.name == "beginner")

            // a completed test takes no more recordings
            let late = try await ada.record(second.id, "Pushups", try MotionBody.set(repetitions: 5))
            #expect(late.status == .conflict)
            let listed: FitnessTestListBody = try await ada.api.get("/v1/fitness-tests", headers: ada.headers).json()
            #expect(listed.items.map(\.id) == [second.id, first.id])
        }
    }

    @Test func countPicksTrackedExercisesOfTheCategory_longestUntestedFirst() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            try await ada.track("Pushups", "Bodyweight_Squat", "Sit-Up", "Rope_Jumping")
            let tested = try await ada.api.send(
                .POST, "/v1/fitness-tests/motion", headers: ada.headers,
                json: try MotionBody.set(repetitions: 5, exerciseId: "Pushups"))
            #expect(tested.status == .created)

            let test: FitnessTestBody = try await ada.startTest(["category": "strength", "count": 2]).json()

            #expect(Set(test.remaining) == ["Bodyweight_Squat", "Sit-Up"])
            let tooMany = try await ada.startTest(["category": "strength", "count": 4])
            #expect(tooMany.status == .unprocessableEntity)
            #expect(try tooMany.problem().errors?.first?.field == "count")
        }
    }

    @Test func badRequests_nameTheField() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            try await ada.track("Pushups", "Rope_Jumping")
            let cases: [([String: any Encodable & Sendable], String)] = [
                (["category": "yoga", "exerciseIds": ["Pushups"]], "category"),
                (["category": "strength"], "exerciseIds"),
                (["category": "strength", "exerciseIds": [String]()], "exerciseIds"),
                (["category": "strength", "exerciseIds": ["Pushups", "Pushups"]], "exerciseIds[1]"),
                (["category": "strength", "exerciseIds": ["Pushups", "Bodyweight_Squat"]], "exerciseIds[1]"),
                (["category": "strength", "exerciseIds": ["Pushups", "Rope_Jumping"]], "exerciseIds[1]"),
                (["category": "strength", "exerciseIds": ["Nope"]], "exerciseIds[0]"),
                (["category": "strength", "exerciseIds": ["Pushups"], "count": 1], "count"),
                (["category": "strength", "count": 11], "count"),
            ]
            for (body, field) in cases {
                let reply = try await ada.startTest(body)
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().errors?.first?.field == field, "\(reply.text)")
            }
            #expect(try await FitnessTestModel.query(on: app.db).count() == 0)
        }
    }

    @Test func recordingsOutsideTheTest_orOfAnotherPerson_areRefused() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            try await ada.track("Pushups")
            let test: FitnessTestBody = try await ada.startTest(["category": "strength", "exerciseIds": ["Pushups"]])
                .json()
            let body = try MotionBody.set(repetitions: 5)

            #expect(try await ada.record(test.id, "Sit-Up", body).status == .notFound)
            #expect(try await bob.record(test.id, "Pushups", body).status == .notFound)
            #expect(try await api.get("/v1/fitness-tests/\(test.id)", headers: bob.headers).status == .notFound)
            var mismatched = body
            mismatched.exerciseId = "Sit-Up"
            let reply = try await ada.record(test.id, "Pushups", mismatched)
            #expect(try reply.problem().errors?.first?.field == "exerciseId")
        }
    }

    @Test func recordingAgainBeforeTheEnd_replacesTheResult() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            try await ada.track("Pushups", "Sit-Up")
            let test: FitnessTestBody = try await ada.startTest(
                ["category": "strength", "exerciseIds": ["Pushups", "Sit-Up"]]).json()
            _ = try await ada.record(test.id, "Pushups", try MotionBody.set(repetitions: 5))
            let again: FitnessTestBody = try await ada.record(test.id, "Pushups", try MotionBody.set(repetitions: 9))
                .json()
            #expect(again.exercises.first?.result?.reps == 9)
            #expect(try await MotionTestModel.query(on: app.db).count() == 1)
        }
    }

    @Test func concurrentRecordingsOfTheLastExercises_completeTheTestOnce() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let ids = ["Pushups", "Sit-Up", "Bodyweight_Squat", "Pullups", "Bench_Dips"]
            for id in ids { try await ada.track(id) }
            let test: FitnessTestBody = try await ada.startTest(["category": "strength", "exerciseIds": ids]).json()
            var bodies: [String: MotionBody] = [:]
            for (index, id) in ids.enumerated() {
                bodies[id] = try MotionBody.set(repetitions: 6, seed: UInt64(index + 10))
            }
            let prepared = bodies

            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for id in ids {
                    // each exercise twice at once: a retry racing its original; a 503 (no database connection free
                    // within the pool's timeout while the whole suite runs) is sent again, as a client does
                    for _ in 0..<2 {
                        group.addTask { try await retryingUnavailable { try await ada.record(test.id, id, prepared[id]!) } }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // every recording either landed or found the test already complete; the test completed once, with one
            // result per exercise
            #expect(replies.allSatisfy { $0.status == .ok || $0.status == .conflict }, "\(replies.map(\.status))")
            let final: FitnessTestBody = try await ada.api.get("/v1/fitness-tests/\(test.id)", headers: ada.headers)
                .json()
            #expect(final.status == "completed")
            #expect(final.remaining.isEmpty)
            #expect(try await MotionTestModel.query(on: app.db).count() == ids.count)
            let completed = try await FitnessTestModel.query(on: app.db).all()
            #expect(completed.count == 1)
            #expect(completed.first?.levelAfter == 1)
            // version: one bump per recording that landed
            #expect(completed.first?.version == replies.filter { $0.status == .ok }.count)
        }
    }

    @Test func deletingTheAccount_removesFitnessData() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            try await ada.track("Pushups")
            let test: FitnessTestBody = try await ada.startTest(["category": "strength", "exerciseIds": ["Pushups"]])
                .json()
            _ = try await ada.record(test.id, "Pushups", try MotionBody.set(repetitions: 5))

            let deleted = try await ada.api.send(.DELETE, "/v1/me", headers: ada.headers)

            #expect(deleted.status == .noContent)
            #expect(try await TrackedExerciseModel.query(on: app.db).count() == 0)
            #expect(try await FitnessTestModel.query(on: app.db).count() == 0)
            #expect(try await MotionTestModel.query(on: app.db).count() == 0)
        }
    }
}

struct FitnessTestListBody: Decodable {
    let items: [FitnessTestBody]
}
