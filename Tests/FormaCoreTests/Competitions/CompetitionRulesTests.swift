import FormaCore
import Foundation
import Testing

@Suite("Competition rules")
struct CompetitionRulesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    private func validate(
        metric: String = "total_reps", exerciseID: String? = "Bodyweight_Squat", seconds: Int? = nil,
        start: String = "2027-01-16T00:00", end: String = "2027-01-23T00:00", zone: TimeZone = IANATimeZone.utc
    ) -> Result<CompetitionDefinition, CompetitionRules.Invalid> {
        CompetitionRules.validate(
            name: " Squats ", description: "", metric: metric, exerciseID: exerciseID, challengeSeconds: seconds,
            start: start, end: end, catalog: Fixtures.catalog, timeZone: zone, now: Self.now)
    }

    @Test func aValidCompetitionNamesTheExerciseTheCameraCounts() throws {
        // act
        let squats = try validate().get()
        let pushUps = try validate(metric: "best_challenge", exerciseID: "Pushups", seconds: 60).get()
        let workouts = try validate(metric: "workouts_completed", exerciseID: nil).get()

        // verify
        #expect(squats.name == "Squats" && squats.poseExercise == "squat" && squats.challengeSeconds == nil)
        #expect(pushUps.poseExercise == "push-up" && pushUps.challengeSeconds == 60)
        #expect(workouts.exerciseID == nil && workouts.poseExercise == nil)
    }

    @Test func everyFieldAtFaultIsNamedAtOnce() {
        // act
        let result = CompetitionRules.validate(
            name: "", description: String(repeating: "d", count: 1_001), metric: "best_challenge",
            exerciseID: "Unicorn", challengeSeconds: 5, start: "soon", end: "later", catalog: Fixtures.catalog,
            timeZone: IANATimeZone.utc, now: Self.now)

        // verify
        guard case .failure(let invalid) = result else { Issue.record("accepted"); return }
        #expect(invalid.issues.map(\.field) == ["name", "description", "exerciseId", "challengeSeconds", "start", "end"])
    }

    @Test func theEndIsReadInTheCompanysZone_andMustFollowTheStartWithinAYear() {
        // act
        let berlin = try? validate(zone: Self.berlin).get()
        let backwards = validate(start: "2027-01-20T00:00", end: "2027-01-19T00:00")
        let tooLong = validate(start: "2027-01-16T00:00", end: "2028-01-18T00:00")
        let past = validate(start: "2027-01-01T00:00", end: "2027-01-15T07:59")

        // verify: midnight in Berlin in winter is 23:00 UTC the day before
        let end = berlin.map { $0.end.resolved(in: Self.berlin) }
        #expect(end == ISO8601DateFormatter().date(from: "2027-01-22T23:00:00Z"))
        for result in [backwards, tooLong, past] {
            guard case .failure(let invalid) = result else { Issue.record("accepted"); continue }
            #expect(invalid.issues.map(\.field) == ["end"])
        }
    }

    @Test func builtInWindowsAreCalendarMonthsAndThirtyDayRunsFromMidnight() throws {
        // setup
        let month = try #require(BuiltInCompetition.all.first { $0.series == "workouts-month" })
        let squats = try #require(BuiltInCompetition.all.first { $0.series == "squats-30-days" })
        let december = ISO8601DateFormatter().date(from: "2026-12-31T23:30:00Z")!

        // act
        let inBerlin = month.window(containing: december, in: Self.berlin)
        let inUTC = month.window(containing: december, in: IANATimeZone.utc)
        let run = squats.window(containing: Self.now, in: IANATimeZone.utc)
        let before = squats.window(containing: ISO8601DateFormatter().date(from: "2025-12-31T12:00:00Z")!, in: .gmt)

        // verify: half past midnight on New Year's Day in Berlin is January's window there, December's in UTC
        #expect(inBerlin.start.description == "2027-01-01T00:00" && inBerlin.end.description == "2027-02-01T00:00")
        #expect(inUTC.start.description == "2026-12-01T00:00" && inUTC.end.description == "2027-01-01T00:00")
        // 2027-01-15 is day 379 after 2026-01-01: the run of days 360–389
        #expect(run.start.description == "2026-12-27T00:00" && run.end.description == "2027-01-26T00:00")
        #expect(before.start.description == "2025-12-02T00:00" && before.end.description == "2026-01-01T00:00")
        #expect(squats.key(of: run.start) == "squats-30-days/2026-12-27")
        #expect(BuiltInCompetition.all.map(\.series).count == 3)
    }

    @Test func ranksFromTwoCountsAgreeWithRankingTheWholeBoard() {
        // Over many random boards, every run of consecutive standings is ranked as the whole board ranks it.
        var random = SplitMix64(seed: 16)
        for _ in 0..<300 {
            let board = (0..<Int.random(in: 1...30, using: &random)).map { _ in Int.random(in: 0...6, using: &random) }
                .sorted(by: >)
            let whole = board.map { score in board.filter { $0 > score }.count + 1 }
            let start = Int.random(in: 0..<board.count, using: &random)
            let end = Int.random(in: start..<board.count, using: &random)
            let run = Array(board[start...end])
            let ranks = StandingRanks.ranks(
                of: run, aboveFirst: board.filter { $0 > run[0] }.count,
                atOrAboveFirst: board.filter { $0 >= run[0] }.count)
            #expect(ranks == Array(whole[start...end]), "board \(board), run \(start)...\(end)")
        }
    }
}
