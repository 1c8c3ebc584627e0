import FormaCore
import FormaLive
import Fluent
import Foundation
import SQLKit

/// Moves standings when the server has seen something count: repetitions a live session counted, a timed challenge
/// it completed, a workout saved (docs/competitions.md, "What counts").
///
/// Nothing here reads a number a client sent: the callers pass what the server itself counted (a live set's
/// repetitions, a challenge's score) or observed (a run's active time). A score moves only on boards of competitions
/// of the person's company that are open at `now` and that the person joined (a standing exists only from joining),
/// so activity before joining, before the start or after the end counts nowhere, and an ended competition's
/// standings never change again. Each change is one statement, atomic on SQLite and PostgreSQL.
struct CompetitionScoring {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    init(database: any Database, person: LivePerson, now: Date) {
        self.init(database: database, companyID: person.companyID, userID: person.userID, now: now)
    }

    init(database: any Database, companyID: UUID, userID: UUID, now: Date) {
        self.database = database
        self.companyID = companyID
        self.userID = userID
        self.now = now
    }

    /// `reps` repetitions of `poseExercise` counted by a live session from a camera.
    func repetitionsCounted(_ reps: Int, of poseExercise: String) async throws {
        guard reps > 0 else { return }
        try await database.sql().raw("""
            UPDATE \(ident: Standings.table) SET score = score + \(bind: reps), reached_at = \(bind: now)
            WHERE user_id = \(bind: userID) AND company_id = \(bind: companyID) AND board_id IN (
                \(openCompetitions(.totalReps)) AND pose_exercise = \(bind: poseExercise))
            """).run()
    }

    /// A timed challenge of `poseExercise` lasting `seconds` that a live session ran to its end from a camera, with
    /// the repetitions it counted: the person's best on the challenge's board and in best-challenge competitions, and
    /// the repetitions towards rep totals.
    func challengeCompleted(_ poseExercise: String, seconds: Int, reps: Int) async throws {
        let standings = Standings(database: database)
        let board = try await standings.challengeBoard(companyID: companyID, exercise: poseExercise, seconds: seconds)
        try await standings.keepBest(boardIDs: [board], companyID: companyID, userID: userID, score: reps, at: now)
        try await database.sql().raw("""
            UPDATE \(ident: Standings.table) SET score = \(bind: reps), reached_at = \(bind: now)
            WHERE user_id = \(bind: userID) AND company_id = \(bind: companyID) AND score < \(bind: reps)
                AND board_id IN (\(openCompetitions(.bestChallenge)) AND pose_exercise = \(bind: poseExercise)
                    AND challenge_seconds = \(bind: seconds))
            """).run()
        try await repetitionsCounted(reps, of: poseExercise)
    }

    /// A workout run saved with `activeSeconds` of active time (the server's timeline, pauses excluded).
    func workoutSaved(activeSeconds: Double) async throws {
        guard CompetitionRules.countsAsWorkout(activeSeconds: activeSeconds) else { return }
        try await database.sql().raw("""
            UPDATE \(ident: Standings.table) SET score = score + 1, reached_at = \(bind: now)
            WHERE user_id = \(bind: userID) AND company_id = \(bind: companyID)
                AND board_id IN (\(openCompetitions(.workoutsCompleted)))
            """).run()
    }

    /// `SELECT id FROM competitions WHERE` the company's competitions of `metric` open at `now` (to be continued with
    /// `AND …` and closed by the caller).
    private func openCompetitions(_ metric: CompetitionMetric) -> SQLQueryString {
        """
        SELECT id FROM \(ident: CompetitionModel.schema) WHERE company_id = \(bind: companyID) \
        AND metric = \(bind: metric.rawValue) AND starts_at <= \(bind: now) AND ends_at > \(bind: now)
        """
    }
}
