import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The series endpoints behind the progress charts, checked number by number against stored values.
@Suite("Progress series API")
struct ProgressAPITests {
    /// 2027-01-15T08:00:00Z, a Friday: where `TestClock` starts.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func time(_ text: String) throws -> Date {
        try Date.ISO8601FormatStyle().parse(text)
    }

    @Test func thePainSeriesHasTheHighestPainOfEachLocalDayPerRegion() async throws {
        let clock = TestClock()
        #expect(clock.now == Self.start)
        try await withFormaApp(clock: clock) { app in
            // setup: Ada lives in New York (UTC−5 in January); Bo shares her company, Cy has her host id elsewhere
            let api = APIClient(app: app)
            let physio = try await api.createCompany("Physio")
            let ada = PainPatient.of(api, key: physio, user: "ada")
            let profile = try await api.send(.PATCH, "/v1/me", headers: ada.headers, json: ["timeZone": "America/New_York"])
            #expect(profile.status == .ok, "\(profile.text)")
            try await Self.storePain(ada, bo: PainPatient.of(api, key: physio, user: "bo"),
                cy: PainPatient.of(api, key: try await api.createCompany("Other"), user: "ada"))

            // act
            let local: PainProgressBody = try await api.progress("pain", "from=2027-01-01&to=2027-01-15", headers: ada.headers)
            let utc: PainProgressBody = try await api.progress(
                "pain", "from=2027-01-01&to=2027-01-15&timeZone=UTC", headers: ada.headers)
            let knee: PainProgressBody = try await api.progress("pain", "region=knee", headers: ada.headers)

            // verify: days are New York days; the 03:00Z report on the 12th is the evening of the 11th there
            #expect(local.timeZone == "America/New_York" && local.from == "2027-01-01" && local.to == "2027-01-15")
            #expect(local.regions.map(\.region) == ["lower back", "knee"])
            #expect(local.regions.map(\.label) == ["Lower back", "Knee"])
            #expect(local.regions[0].points == [.init(date: "2027-01-13", intensity: 5, reports: 1)])
            #expect(local.regions[1].points == [
                .init(date: "2027-01-10", intensity: 7, reports: 3), .init(date: "2027-01-11", intensity: 4, reports: 1),
            ])
            #expect(utc.timeZone == "UTC")
            #expect(utc.regions[1].points.map(\.date) == ["2027-01-10", "2027-01-12"])
            // the default range is the 90 days to today, and takes the December report in
            #expect(knee.from == "2026-10-18" && knee.to == "2027-01-15")
            #expect(knee.regions.map(\.region) == ["knee"])
            #expect(knee.regions[0].points.map(\.date) == ["2026-12-01", "2027-01-10", "2027-01-11"])
            #expect(knee.regions[0].points.map(\.intensity) == [2, 7, 4])
        }
    }

    /// Ada's reports (New York days in the comments), and reports of Bo and Cy on the same days that hers must not
    /// show.
    static func storePain(_ ada: PainPatient, bo: PainPatient, cy: PainPatient) async throws {
        let reports: [(region: String, side: String, intensity: Int, at: String)] = [
            ("knee", "left", 2, "2026-12-01T15:00:00Z"),  // 1 December, outside January
            ("knee", "left", 3, "2027-01-10T12:00:00Z"),  // 10 January, 07:00
            ("knee", "right", 7, "2027-01-10T20:00:00Z"),  // 10 January, 15:00: the day's highest
            ("knee", "both", 0, "2027-01-10T23:00:00Z"),  // 10 January, 18:00: a 0 counts as a report
            ("knee", "left", 4, "2027-01-12T03:00:00Z"),  // 11 January, 22:00
            ("lower back", "both", 5, "2027-01-13T15:00:00Z"),
        ]
        for report in reports {
            let reply = try await ada.report(
                report.region, side: report.side, intensity: report.intensity, at: try time(report.at))
            #expect(reply.status == .created, "\(reply.text)")
        }
        for other in [bo, cy] {
            let reply = try await other.report("knee", intensity: 9, at: try time("2027-01-10T12:00:00Z"))
            #expect(reply.status == .created, "\(reply.text)")
            let neck = try await other.report("neck", intensity: 6, at: try time("2027-01-11T12:00:00Z"))
            #expect(neck.status == .created, "\(neck.text)")
        }
    }

    @Test func theTrainingSeriesSumsSavedRunsPerWeekOfThePersonsZone() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada lives in Tokyo (UTC+9)
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let profile = try await ada.api.send(.PATCH, "/v1/me", headers: ada.headers, json: ["timeZone": "Asia/Tokyo"])
            #expect(profile.status == .ok)
            try await Self.train(ada, clock: clock)

            // act
            let tokyo: TrainingProgressBody = try await ada.api.progress(
                "training", "from=2026-12-28&to=2027-01-15", headers: ada.headers)
            let utc: TrainingProgressBody = try await ada.api.progress(
                "training", "from=2026-12-30&to=2027-01-12&timeZone=UTC", headers: ada.headers)
            let byDefault: TrainingProgressBody = try await ada.api.progress("training", headers: ada.headers)

            // verify: the run that ended Sunday 15:05Z is Monday 00:05 in Tokyo, the next week; quit runs never count
            #expect(tokyo.timeZone == "Asia/Tokyo" && tokyo.from == "2026-12-28" && tokyo.to == "2027-01-17")
            #expect(tokyo.weeks == [
                .init(weekStart: "2026-12-28", workouts: 0, activeSeconds: 0, minutes: 0, repetitions: 0),
                .init(weekStart: "2027-01-04", workouts: 1, activeSeconds: 600, minutes: 10, repetitions: 40),
                .init(weekStart: "2027-01-11", workouts: 3, activeSeconds: 2_190, minutes: 36.5, repetitions: 40),
            ])
            #expect(tokyo.totals == .init(workouts: 4, activeSeconds: 2_790, minutes: 46.5, repetitions: 80))
            // in UTC the same run ended on Sunday; the range widens to whole weeks
            #expect(utc.from == "2026-12-28" && utc.to == "2027-01-17")
            #expect(utc.weeks.map(\.activeSeconds) == [0, 1_500, 1_290])
            #expect(utc.weeks.map(\.minutes) == [0, 25, 21.5])
            #expect(utc.weeks.map(\.repetitions) == [0, 65, 15])
            #expect(utc.weeks.map(\.workouts) == [0, 2, 2])
            // by default: twelve weeks, ending with this one
            #expect(byDefault.weeks.count == 12 && byDefault.weeks.last?.weekStart == "2027-01-11")
            #expect(byDefault.from == "2026-10-26" && byDefault.totals.repetitions == 80)
        }
    }

    /// Five runs (one quit) on a test clock that starts Friday 2027-01-15 08:00Z.
    static func train(_ ada: Trainee, clock: TestClock) async throws {
        func session(reps: Int, activeSeconds: Double, quit: Bool = false) async throws {
            let workout = try await ada.generate()
            let exercise = try #require(workout.items.first?.exerciseId)
            _ = try await ada.act("start", workout.id)
            clock.advance(seconds: activeSeconds)
            let reply = quit
                ? try await ada.act("quit", workout.id)
                : try await ada.act(
                    "save", workout.id, json: ["results": [RunBody.Result(exerciseId: exercise, reps: reps)]])
            #expect(reply.status == .ok, "\(reply.text)")
        }
        clock.advance(seconds: -7 * 86_400)  // Friday 8 January, 08:00Z
        try await session(reps: 40, activeSeconds: 600)
        try await session(reps: 99, activeSeconds: 300, quit: true)
        clock.advance(seconds: try time("2027-01-10T14:50:00Z").timeIntervalSince(clock.now))
        try await session(reps: 25, activeSeconds: 900)  // ends Sunday 15:05Z
        clock.advance(seconds: try time("2027-01-15T07:00:00Z").timeIntervalSince(clock.now))
        try await session(reps: 10, activeSeconds: 1_200)
        try await session(reps: 5, activeSeconds: 90)
    }

    @Test func theFitnessSeriesShowsEachResultWithThePreviousOne() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: three tests a week apart; the third leaves Sit-Up out
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            try await ada.track("Pushups", "Sit-Up")
            let first = try await Self.fitnessTest(ada, [("Pushups", 8, 2.5), ("Sit-Up", 8, 2.5)], seed: 1)
            clock.advance(seconds: 7 * 86_400)
            let second = try await Self.fitnessTest(ada, [("Sit-Up", 10, 2.0), ("Pushups", 10, 2.0)], seed: 3)
            clock.advance(seconds: 7 * 86_400)
            let third = try await Self.fitnessTest(ada, [("Pushups", 12, 1.8)], seed: 5)

            // act: from the second test on, so the first is only ever a previous result
            let series: FitnessProgressBody = try await ada.api.progress(
                "fitness-tests", "from=2027-01-20&to=2027-01-31", headers: ada.headers)
            let situps: FitnessProgressBody = try await ada.api.progress(
                "fitness-tests", "exerciseId=Sit-Up", headers: ada.headers)

            // verify: the numbers are the ones the fitness tests answered
            #expect(series.exercises.map(\.exerciseId) == ["Pushups", "Sit-Up"])
            let pushups = series.exercises[0].points
            #expect(pushups.map(\.testId) == [second.id, third.id])
            #expect(pushups.map(\.date) == ["2027-01-22", "2027-01-29"])
            #expect(pushups.map(\.reps) == [10, 12])
            #expect(pushups.map(\.previous?.testId) == [first.id, second.id])
            #expect(pushups.map(\.previous?.reps) == [8, 10])
            for (point, test) in zip(pushups, [second, third]) {
                let answered = try #require(test.exercises.first { $0.exerciseId == "Pushups" })
                #expect(point.ratePerMinute == answered.result?.ratePerMinute)
                #expect(point.previous?.ratePerMinute == answered.previous?.ratePerMinute)
                #expect(point.change == answered.change && point.change != nil)
            }
            #expect(series.exercises[1].points.map(\.testId) == [second.id])
            #expect(series.exercises[1].points.first?.previous?.date == "2027-01-15")
            // the default range (a year to today) holds all of Sit-Up's results; the first has none before it
            #expect(situps.exercises.map(\.exerciseId) == ["Sit-Up"])
            #expect(situps.exercises[0].points.map(\.reps) == [8, 10])
            #expect(situps.exercises[0].points.first?.previous == nil)
            #expect(situps.exercises[0].points.first?.change == nil)
        }
    }

    /// A completed fitness test: each exercise recorded in the given order, `reps` repetitions `period` seconds
    /// apart.
    static func fitnessTest(
        _ ada: Trainee, _ sets: [(exercise: String, reps: Int, period: Double)], seed: UInt64
    ) async throws -> FitnessTestBody {
        let created = try await ada.startTest(["category": "strength", "exerciseIds": sets.map(\.exercise)])
        let test: FitnessTestBody = try created.json()
        var last: FitnessTestBody = test
        for (index, set) in sets.enumerated() {
            let body = try MotionBody.set(repetitions: set.reps, period: set.period, seed: seed + UInt64(index))
            last = try await ada.record(test.id, set.exercise, body).json()
        }
        #expect(last.status == "completed")
        #expect(last.exercises.map { $0.result?.reps } == sets.map { Optional($0.reps) })
        return last
    }

    @Test func badRangesAndFiltersAreRefusedNamingTheParameter() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let ada = PainPatient.of(api, key: try await api.createCompany("Physio"), user: "ada")
            let cases: [(query: String, parameter: String)] = [
                ("from=yesterday", "from"), ("from=2027-02-30", "from"), ("from=2027-1-05", "from"),
                ("to=2027-13-01", "to"), ("from=1999-12-31&to=2000-01-05", "from"),
                ("from=2027-01-10&to=2027-01-09", "to"), ("from=2025-01-01&to=2027-01-02", "from"),
                ("to=2101-01-01", "to"), ("timeZone=Mars/Olympus", "timeZone"),
            ]
            for series in ["pain", "training", "fitness-tests"] {
                for (query, parameter) in cases {
                    // act
                    let reply = try await api.get("/v1/me/progress/\(series)?\(query)", headers: ada.headers)

                    // verify
                    #expect(reply.status == .badRequest, "\(series)?\(query): \(reply.text)")
                    #expect(try reply.problem().field == parameter, "\(series)?\(query): \(reply.text)")
                }
            }
            let region = try await api.get("/v1/me/progress/pain?region=tail", headers: ada.headers)
            #expect(try region.status == .badRequest && region.problem().field == "region")
            let exercise = try await api.get("/v1/me/progress/fitness-tests?exerciseId=Nope", headers: ada.headers)
            #expect(try exercise.status == .badRequest && exercise.problem().field == "exerciseId")
            // the longest range allowed, two calendar years, is fine
            let longest: PainProgressBody = try await api.progress(
                "pain", "from=2025-01-01&to=2026-12-31", headers: ada.headers)
            #expect(longest.regions.isEmpty)
            let anonymous = try await api.get("/v1/me/progress/pain")
            #expect(anonymous.status == .unauthorized)
        }
    }
}
