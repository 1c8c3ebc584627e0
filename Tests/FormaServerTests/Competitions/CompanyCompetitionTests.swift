import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// What a company sends to define a competition (fields left `nil` are left out).
struct CompetitionRequestBody: Encodable {
    var name: String? = "December squat-off"
    var description: String? = nil
    var metric: String? = "total_reps"
    var exerciseId: String? = "Bodyweight_Squat"
    var challengeSeconds: Int? = nil
    // The test clock reads 2027-01-15 08:00 UTC.
    var start: String? = "2027-01-15T00:00"
    var end: String? = "2027-02-01T00:00"
}

/// The company's own competitions through the company API (docs/competitions.md).
@Suite("Company competitions API")
struct CompanyCompetitionTests {
    private func create(_ api: APIClient, _ key: String, _ body: CompetitionRequestBody) async throws
        -> APIClient.Reply
    {
        try await api.send(.POST, "/v1/company/competitions", headers: Auth.key(key), json: body)
    }

    @Test func everyBrokenRuleIsA422NamingItsField() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let cases: [(String, CompetitionRequestBody)] = [
                ("name", CompetitionRequestBody(name: "  ")),
                ("name", CompetitionRequestBody(name: String(repeating: "n", count: 101))),
                ("description", CompetitionRequestBody(description: String(repeating: "d", count: 1001))),
                ("metric", CompetitionRequestBody(metric: "most_sweat")),
                ("exerciseId", CompetitionRequestBody(exerciseId: nil)),
                ("exerciseId", CompetitionRequestBody(exerciseId: "Unicorn_Ride")),
                ("exerciseId", CompetitionRequestBody(exerciseId: "Barbell_Bench_Press_-_Medium_Grip")),
                ("exerciseId", CompetitionRequestBody(metric: "workouts_completed")),
                ("challengeSeconds", CompetitionRequestBody(challengeSeconds: 60)),
                ("challengeSeconds", CompetitionRequestBody(metric: "best_challenge")),
                ("challengeSeconds", CompetitionRequestBody(metric: "best_challenge", challengeSeconds: 601)),
                ("start", CompetitionRequestBody(start: "2027-01-15 00:00")),
                ("end", CompetitionRequestBody(end: "2027-02-30T00:00")),
                ("end", CompetitionRequestBody(end: "2027-01-14T00:00")),
                ("end", CompetitionRequestBody(start: "2027-01-01T00:00", end: "2027-01-15T07:00")),
                ("end", CompetitionRequestBody(start: "2027-01-15T00:00", end: "2028-01-17T00:00")),
                ("start", CompetitionRequestBody(start: "2028-02-01T00:00", end: "2028-03-01T00:00")),
            ]

            // act and verify
            for (field, body) in cases {
                let reply = try await create(api, key, body)
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().errors?.map(\.field) == [field], "\(field): \(reply.text)")
            }
            let missing = try await create(api, key, CompetitionRequestBody(metric: nil))
            #expect(missing.status == .unprocessableEntity && missing.text.contains("metric"), "\(missing.text)")
            let listed = try await api.get("/v1/company/competitions", headers: Auth.key(key))
            #expect(try listed.json(CompetitionListBody.self).items.allSatisfy { $0.builtIn != nil })
        }
    }

    @Test func aCompanyDefinesListsReadsChangesAndDeletesItsCompetitions() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let other = try await api.createCompany("Rival")

            // act
            let created = try await create(api, key, CompetitionRequestBody(
                name: " Push-up sprint ", metric: "best_challenge", exerciseId: "Pushups", challengeSeconds: 60,
                start: "2027-01-20T18:00", end: "2027-01-27T18:00"))
            let competition: CompetitionBody = try created.json()
            let path = "/v1/company/competitions/\(competition.id)"
            let read = try await api.get(path, headers: Auth.key(key))
            let foreign = try await api.get(path, headers: Auth.key(other))
            let changed = try await api.send(
                .PATCH, path, headers: Auth.key(key), json: ["metric": "workouts_completed", "name": "Week of work"])
            let null = try await api.send(
                .PATCH, path, headers: Auth.key(key), raw: Data(#"{"end": null}"#.utf8), contentType: "application/json")
            let asUser = try await Competitor.of(api, key: key, user: "ada").list()
            let deleted = try await api.send(.DELETE, path, headers: Auth.key(key))
            let gone = try await api.get(path, headers: Auth.key(key))

            // verify
            #expect(created.status == .created, "\(created.text)")
            #expect(competition.name == "Push-up sprint" && competition.poseExercise == "push-up")
            #expect(competition.status == "upcoming" && competition.builtIn == nil && competition.joined == nil)
            #expect(competition.startsAt == ISO8601DateFormatter().date(from: "2027-01-20T18:00:00Z"))
            #expect(try read.json(CompetitionBody.self) == competition)
            #expect(foreign.status == .notFound)
            let afterChange: CompetitionBody = try changed.json()
            #expect(changed.status == .ok && afterChange.metric == "workouts_completed")
            #expect(afterChange.exerciseId == nil && afterChange.challengeSeconds == nil && afterChange.name == "Week of work")
            #expect(null.status == .unprocessableEntity)
            #expect(asUser.last?.id == competition.id && asUser.last?.status == "upcoming")
            #expect(deleted.status == .noContent && gone.status == .notFound)
        }
    }

    @Test func builtInsEndedOnesAndWhatAStartedOneCountsCannotChange() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: one open since midnight
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let open: CompetitionBody = try await create(api, key, CompetitionRequestBody()).json()
            let builtIn = try #require(try await api.get("/v1/company/competitions", headers: Auth.key(key))
                .json(CompetitionListBody.self).items.first { $0.builtIn != nil })
            let path = "/v1/company/competitions/\(open.id)"

            // act
            let builtInChange = try await api.send(
                .PATCH, "/v1/company/competitions/\(builtIn.id)", headers: Auth.key(key), json: ["name": "Mine"])
            let builtInDelete = try await api.send(
                .DELETE, "/v1/company/competitions/\(builtIn.id)", headers: Auth.key(key))
            let metricChange = try await api.send(.PATCH, path, headers: Auth.key(key), json: ["metric": "workouts_completed"])
            let startChange = try await api.send(.PATCH, path, headers: Auth.key(key), json: ["start": "2027-01-15T06:00"])
            let extended = try await api.send(.PATCH, path, headers: Auth.key(key), json: ["end": "2027-02-08T00:00"])
            clock.advance(seconds: 30 * 86_400)
            let endedChange = try await api.send(.PATCH, path, headers: Auth.key(key), json: ["name": "Late"])

            // verify
            #expect(builtInChange.status == .conflict && builtInDelete.status == .conflict)
            #expect(metricChange.status == .conflict)
            #expect(try metricChange.problem().field == "metric")
            #expect(startChange.status == .conflict)
            #expect(try startChange.problem().field == "start")
            #expect(extended.status == .ok)
            #expect(try extended.json(CompetitionBody.self).end == "2027-02-08T00:00")
            #expect(endedChange.status == .conflict)
        }
    }

    @Test func theCompanysTimeZoneSetsWhereCompetitionsStartAndEnd() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")

            // act
            let bad = try await api.send(.PUT, "/v1/company/time-zone", headers: Auth.key(key), json: ["timeZone": "CEST"])
            let set = try await api.send(
                .PUT, "/v1/company/time-zone", headers: Auth.key(key), json: ["timeZone": "Asia/Tokyo"])
            let read = try await api.get("/v1/company/time-zone", headers: Auth.key(key))
            let created: CompetitionBody = try await create(api, key, CompetitionRequestBody(
                start: "2027-01-16T00:00", end: "2027-01-17T00:00")).json()
            let listed = try await Competitor.of(api, key: key, user: "ada").list()

            // verify: midnight in Tokyo is 15:00 UTC the day before
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().field == "timeZone")
            #expect(set.status == .ok)
            #expect(try read.json([String: String].self) == ["timeZone": "Asia/Tokyo"])
            #expect(created.timeZone == "Asia/Tokyo")
            #expect(created.startsAt == ISO8601DateFormatter().date(from: "2027-01-15T15:00:00Z"))
            let month = try #require(listed.first { $0.builtIn == "workouts-month" })
            #expect(month.timeZone == "Asia/Tokyo" && month.start == "2027-01-01T00:00")
            #expect(month.endsAt == ISO8601DateFormatter().date(from: "2027-01-31T15:00:00Z"))
        }
    }

    @Test func aCompanyHoldsAtMostAHundredRunningCompetitions() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            for index in 0..<CompetitionRules.maximumOpenPerCompany {
                let reply = try await create(api, key, CompetitionRequestBody(name: "C\(index)"))
                #expect(reply.status == .created)
            }

            // act
            let beyond = try await create(api, key, CompetitionRequestBody(name: "One more"))

            // verify
            #expect(beyond.status == .conflict, "\(beyond.text)")
        }
    }
}
