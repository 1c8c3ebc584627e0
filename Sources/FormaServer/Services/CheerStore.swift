import FormaCore
import Fluent
import Foundation
import SQLKit

/// Cheers on saved runs (docs/community.md, "Cheers"): a person cheers a completed workout of someone they follow —
/// an approved follow, which a private profile's owner must have approved. No points move.
///
/// A run the caller may not cheer is answered exactly as a run that does not exist (``NotFoundError/run(_:)``), so
/// nobody learns of runs they cannot see. Cheering is `INSERT … ON CONFLICT (cheerer_id, run_id) DO NOTHING`: again,
/// or concurrently, it leaves the one cheer.
struct CheerStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// Cheers `rawRunID`; the cheer (the first one when it existed) and the run's owner.
    ///
    /// - Throws: ``NotFoundError/run(_:)`` for a run that is not a saved run of someone the caller follows with
    ///   approval in their company; ``InputError`` for the caller's own run.
    func cheer(_ rawRunID: String) async throws -> (cheer: CheerModel, owner: UserModel, created: Bool) {
        guard let runID = UUID(uuidString: rawRunID),
            let run = try await WorkoutRunModel.query(on: database)
                .filter(\.$companyID == companyID).filter(\.$id == runID)
                .filter(\.$status == WorkoutRunStatus.completed.rawValue).first()
        else { throw NotFoundError.run(rawRunID) }
        guard run.userID != userID else {
            throw InputError.invalid(field: "runId", "is your own workout; cheer someone else's")
        }
        guard try await FollowModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$followerID == userID).filter(\.$followedID == run.userID)
            .filter(\.$approved == true).first() != nil,
            let owner = try await UserModel.query(on: database)
                .filter(\.$company.$id == companyID).filter(\.$id == run.userID).first()
        else { throw NotFoundError.run(rawRunID) }
        let inserted = try await database.sql().insert(into: CheerModel.schema)
            .columns("id", "company_id", "cheerer_id", "owner_id", "run_id", "created_at")
            .values(
                SQLBind(UUID()), SQLBind(companyID), SQLBind(userID), SQLBind(run.userID), SQLBind(runID),
                SQLBind(now))
            .ignoringConflicts()
            .returning("id")
            .all()
        guard let cheer = try await CheerModel.query(on: database)
            .filter(\.$cheererID == userID).filter(\.$runID == runID).first()
        else { throw ServiceError.broken("a cheer just made is not there") }
        return (cheer, owner, !inserted.isEmpty)
    }

    /// How many cheers the caller gave from `start` to before `end`.
    func given(from start: Date, to end: Date) async throws -> Int {
        try await CheerModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$cheererID == userID)
            .filter(\.$createdAt >= start).filter(\.$createdAt < end).count()
    }
}
