import FormaLive
import Fluent
import Foundation

/// Live watching for one caller of one company (docs/community.md, "Live watching"): whether a person is live and
/// may be watched by the caller, the session to watch, and the record of the sessions the caller watched.
///
/// "Live now" is read from the database's session leases (``LiveSessionLeases``), so it holds across the server
/// processes on one database; the session itself can be watched only on the process that runs it
/// (``LiveWatchHub``).
struct LiveWatching {
    let database: any Database
    let companyID: UUID
    /// The caller.
    let userID: UUID
    let now: Date

    /// A person's live state as the caller may see it.
    struct Status: Equatable {
        var liveNow: Bool
        /// The session the caller may watch: set only when the person is live and the caller follows them with
        /// approval.
        var sessionID: UUID?
        var lastLiveAt: Date?
    }

    /// `person`'s live state for a caller who follows them as `relation`. A private profile shows nothing of it to
    /// anyone but approved followers; a public one shows whether and when they were live to everyone of the
    /// company, and the session to watch only to followers.
    func status(of person: UserModel, relation: PeopleStore.Relation) async throws -> Status {
        let personID = try person.requireID()
        let follows = relation == .following
        if person.privateProfile == true, !follows { return Status(liveNow: false) }
        let sessions = try await liveSessions(of: personID)
        let last = try await LiveSessionStartModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == personID)
            .sort(\.$startedAt, .descending).first()
        return Status(
            liveNow: !sessions.isEmpty, sessionID: follows ? sessions.first : nil, lastLiveAt: last?.startedAt)
    }

    /// The ids of `personID`'s sessions whose lease holds now, newest first.
    func liveSessions(of personID: UUID) async throws -> [UUID] {
        let leased = try await LiveSessionLeaseModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == personID)
            .filter(\.$leaseUntil >= now)
            .all().map(\.sessionID)
        guard leased.count > 1 else { return leased }
        let started = try await LiveSessionStartModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$sessionID ~~ leased)
            .all()
        let startedAt = Dictionary(started.map { ($0.sessionID, $0.startedAt) }, uniquingKeysWith: max)
        return leased.sorted { (startedAt[$0] ?? .distantPast) > (startedAt[$1] ?? .distantPast) }
    }

    /// The person `userId` and their session the caller may watch in this process.
    ///
    /// - Throws: a ``LiveClose/watchRefused(code:_:)``: 4404 for no such person in the company or one who is not
    ///   live, 4400 for the caller themself, 4403 for a caller who does not follow them with approval, 4409 for a
    ///   session that runs on another server process.
    func target(_ userId: String, in hub: LiveWatchHub) async throws -> (person: UserModel, session: UUID) {
        let people = PeopleStore(database: database, companyID: companyID, userID: userID, now: now)
        let person: UserModel
        do {
            person = try await people.person(userId)
        } catch is NotFoundError {
            throw LiveClose.watchRefused(code: 4404, LiveProblem(field: "userId", message: "no such person"))
        }
        let personID = try person.requireID()
        guard personID != userID else {
            throw LiveClose.watchRefused(code: 4400, LiveProblem(field: "userId", message: "is you; watch someone else"))
        }
        guard try await people.relation(from: userID, to: personID) == .following else {
            throw LiveClose.watchRefused(
                code: 4403, LiveProblem(field: "userId", message: "follow them (with their approval) to watch"))
        }
        if let local = hub.session(of: LivePerson(companyID: companyID, userID: personID)) {
            return (person, local)
        }
        guard try await liveSessions(of: personID).isEmpty else {
            throw LiveClose.watchRefused(
                code: 4409,
                LiveProblem(
                    field: "session",
                    message: "runs on another server process; watching works only on the process that runs it"))
        }
        throw LiveClose.watchRefused(code: 4404, LiveProblem(field: "userId", message: "is not live now"))
    }

    /// Records that the caller started watching `session` of `personID`; the row's id, for ``ended(_:)``.
    func started(watching session: UUID, of personID: UUID) async throws -> UUID {
        let row = LiveWatchModel(
            companyID: companyID, watcherID: userID, watchedID: personID, sessionID: session, startedAt: now)
        try await row.create(on: database)
        return try row.requireID()
    }

    /// Records that the watch `id` of the caller ended now.
    func ended(_ id: UUID) async throws {
        try await LiveWatchModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$watcherID == userID).filter(\.$id == id)
            .set(\.$endedAt, to: now)
            .update()
    }

    /// Whether the caller started watching someone's live session in `[start, end)`.
    func watchedSomeone(from start: Date, to end: Date) async throws -> Bool {
        try await LiveWatchModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$watcherID == userID)
            .filter(\.$startedAt >= start).filter(\.$startedAt < end)
            .first() != nil
    }
}
