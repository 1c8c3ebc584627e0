import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's progress series against a running server")
struct FormaKitProgressTests {
    @Test func aHostAppReadsThePersonsSeriesThroughFormaKit() async throws {
        let clock = TestClock()  // Friday 2027-01-15, 08:00Z
        try await withLiveServer(clock: clock) { app, server in
            // setup: two knee reports a day apart through FormaKit, one saved 10-minute run through the API
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
                companyName: "Acme", userId: "user-42")
            let knee = try #require(PainMap.standard.hit(on: .front, x: 175.5, y: 476, viewWidth: 300, viewHeight: 700))
            _ = try await kit.reportPain(at: knee, intensity: 7, kind: "sharp", when: "movement")
            clock.advance(seconds: 86_400)
            _ = try await kit.reportPain(at: knee, intensity: 3, kind: "aching", when: "rest")
            let person = Trainee(api: api, headers: Auth.key(key, user: "user-42"))
            try await Self.saveRun(person, reps: 20, clock: clock)
            // and two fitness tests of push-ups a minute apart, so the second has a previous result and a change
            try await person.track("Pushups")
            let first = try await ProgressAPITests.fitnessTest(person, [("Pushups", 8, 2.5)], seed: 1)
            clock.advance(seconds: 60)
            let second = try await ProgressAPITests.fitnessTest(person, [("Pushups", 10, 2.0)], seed: 3)
            let served: FitnessProgressBody = try await api.progress("fitness-tests", headers: person.headers)

            // act
            let pain = try await kit.painProgress(from: "2027-01-10", to: "2027-01-16", timeZone: "UTC")
            let training = try await kit.trainingProgress(from: "2027-01-11", to: "2027-01-16")
            let fitness = try await kit.fitnessTestProgress()
            let badDay = await Self.refusal { () async throws(FormaError) in _ = try await kit.painProgress(from: "2027-02-30") }
            let badExercise = await Self.refusal { () async throws(FormaError) in
                _ = try await kit.fitnessTestProgress(exerciseId: "Nope")
            }

            // verify
            #expect(pain.timeZone == "UTC" && pain.from == "2027-01-10" && pain.to == "2027-01-16")
            #expect(pain.regions.map(\.region) == ["knee"] && pain.regions.first?.label == "Knee")
            #expect(pain.regions.first?.days.map(\.date) == ["2027-01-15", "2027-01-16"])
            #expect(pain.regions.first?.days.map(\.intensity) == [7, 3])
            #expect(training.from == "2027-01-11" && training.to == "2027-01-17")
            #expect(training.weeks.map(\.weekStart) == ["2027-01-11"])
            #expect(training.weeks.first?.activeSeconds == 600 && training.weeks.first?.minutes == 10)
            #expect(training.repetitions == 20 && training.workouts == 1 && training.minutes == 10)
            #expect(fitness.to == "2027-01-16" && fitness.from == served.from && fitness.timeZone == served.timeZone)
            #expect(fitness.exercises.map(\.exerciseId) == ["Pushups"] && fitness.exercises.first?.name == served.exercises.first?.name)
            #expect(served.exercises.first?.points.map(\.testId) == [first.id, second.id])
            let results = try #require(fitness.exercises.first).results
            let points = try #require(served.exercises.first).points
            #expect(results.count == 2 && points.count == 2)
            for (result, point) in zip(results, points) {
                #expect(result.testId == point.testId && result.date == point.date)
                #expect(result.completedAt == point.completedAt && result.reps == point.reps)
                #expect(result.ratePerMinute == point.ratePerMinute && result.change == point.change)
                #expect(result.previous?.testId == point.previous?.testId && result.previous?.date == point.previous?.date)
                #expect(result.previous?.reps == point.previous?.reps)
                #expect(result.previous?.ratePerMinute == point.previous?.ratePerMinute)
            }
            #expect(results.map(\.reps) == [8, 10] && results.map(\.previous?.testId) == [nil, first.id])
            #expect(results[1].change != nil && results[1].ratePerMinute != nil)
            #expect(badDay == [400: ["from"]])
            #expect(badExercise == [400: ["exerciseId"]])
        }
    }

    static func saveRun(_ person: Trainee, reps: Int, clock: TestClock) async throws {
        let workout = try await person.generate()
        let exercise = try #require(workout.items.first?.exerciseId)
        _ = try await person.act("start", workout.id)
        clock.advance(seconds: 600)
        let saved = try await person.act(
            "save", workout.id, json: ["results": [RunBody.Result(exerciseId: exercise, reps: reps)]])
        #expect(saved.status == .ok, "\(saved.text)")
    }

    /// The status and field names of the server's refusal, or an empty dictionary when `body` succeeded.
    static func refusal(_ body: () async throws(FormaError) -> Void) async -> [Int: [String]] {
        do {
            try await body()
            return [:]
        } catch {
            guard case .server(let status, _, _, let fields) = error else { return [-1: ["\(error)"]] }
            return [status: fields.map(\.field)]
        }
    }
}
