import FluentKit
import FormaLive
import Foundation
import SQLKit

/// The per-person limit of open live sessions, kept in the database so that every server process on it counts the
/// same sessions (docs/live-protocol.md, "Sessions per person").
///
/// Opening a session takes the first free slot of the person's `limit` slots: an insert, which the unique
/// `(user_id, slot)` refuses when another session took it first, or, for a slot whose lease ran out, a
/// compare-and-set update that only one process wins. An open session renews its lease every ``renewalInterval``; closing it
/// deletes its row. A process that dies without closing leaves rows that expire after ``leaseDuration``.
struct LiveSessionLeases {
    /// How long a lease holds without being renewed.
    static let leaseDuration: TimeInterval = 60
    /// How often an open session renews its lease.
    static let renewalInterval: TimeInterval = 20
    /// How long after a failed renewal (the database did not answer) the session tries again; the lease has most of
    /// its time left.
    static let renewalRetryDelay: TimeInterval = 5

    /// A slot held by one session.
    struct Lease: Sendable, Equatable {
        let person: LivePerson
        let slot: Int
        let sessionID: UUID
    }

    let database: any Database

    /// Takes a free slot for `sessionID`; `nil` when the person's `limit` slots are all held by unexpired leases.
    ///
    /// One read finds the slots that look free (no row, or a lease that ran out); the insert or compare-and-set
    /// that takes one is what is atomic, so a slot another process takes in between is skipped.
    func acquire(for person: LivePerson, sessionID: UUID, limit: Int, now: Date) async throws -> Lease? {
        let sql = try sqlDatabase()
        let until = now.addingTimeInterval(Self.leaseDuration)
        let held = try await LiveSessionLeaseModel.query(on: database)
            .filter(\.$companyID == person.companyID)
            .filter(\.$userID == person.userID)
            .all()
        // One row per slot: `(user_id, slot)` is unique.
        let heldUntil = held.reduce(into: [Int: Date]()) { $0[$1.slot] = $1.leaseUntil }
        for slot in 0..<max(limit, 0) {
            if let leaseUntil = heldUntil[slot] {
                guard leaseUntil < now else { continue }
                // Its session's process stopped renewing it: take it over, unless another process just did.
                let taken = try await sql.update(LiveSessionLeaseModel.schema)
                    .set("session_id", to: SQLBind(sessionID))
                    .set("lease_until", to: SQLBind(until))
                    .where("company_id", .equal, SQLBind(person.companyID))
                    .where("user_id", .equal, SQLBind(person.userID))
                    .where("slot", .equal, SQLBind(slot))
                    .where("lease_until", .lessThan, SQLBind(now))
                    .returning("slot")
                    .all()
                if !taken.isEmpty { return Lease(person: person, slot: slot, sessionID: sessionID) }
            } else {
                do {
                    try await LiveSessionLeaseModel(
                        companyID: person.companyID, userID: person.userID, slot: slot, sessionID: sessionID,
                        leaseUntil: until
                    ).create(on: database)
                    return Lease(person: person, slot: slot, sessionID: sessionID)
                } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
                    // Another session took the slot since the read; its lease is fresh.
                }
            }
        }
        return nil
    }

    /// Moves `lease` on to `now` plus ``leaseDuration``; `false` when the session no longer holds its slot (its
    /// lease ran out and another session took the slot over).
    func renew(_ lease: Lease, now: Date) async throws -> Bool {
        let rows = try await sqlDatabase().update(LiveSessionLeaseModel.schema)
            .set("lease_until", to: SQLBind(now.addingTimeInterval(Self.leaseDuration)))
            .where(matching: lease)
            .returning("slot")
            .all()
        return !rows.isEmpty
    }

    /// Frees the slot `lease` holds, unless another session has taken it over since.
    func release(_ lease: Lease) async throws {
        try await sqlDatabase().delete(from: LiveSessionLeaseModel.schema).where(matching: lease).run()
    }

    private func sqlDatabase() throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw ServiceError.broken("live leases need an SQL database") }
        return sql
    }
}

extension SQLPredicateBuilder {
    fileprivate func `where`(matching lease: LiveSessionLeases.Lease) -> Self {
        self.where("company_id", .equal, SQLBind(lease.person.companyID))
            .where("user_id", .equal, SQLBind(lease.person.userID))
            .where("slot", .equal, SQLBind(lease.slot))
            .where("session_id", .equal, SQLBind(lease.sessionID))
    }
}
