import FormaAPI
import FormaCore
import Foundation

/// Competitions as a person sees them: the list, joining and leaving, and the leaderboard (docs/competitions.md).
extension FormaAPIHandler {
    func listCompetitions(_ input: Operations.ListCompetitions.Input) async throws
        -> Operations.ListCompetitions.Output
    {
        let me = try Caller.person()
        let store = try await competitionStore(for: me.companyID)
        let mine = try await store.joined(by: me.userID)
        await settleResults(of: mine.map(\.0), store: store)
        let rows: [CompetitionModel]
        if input.query.joined == true {
            rows = mine.map(\.0)
        } else {
            rows = try await store.current()
        }
        let joined = Dictionary(mine.compactMap { row, standing in row.id.map { ($0, standing) } }) { first, _ in first }
        var items: [Components.Schemas.Competition] = []
        for row in rows {
            let standing = row.id.flatMap { joined[$0] }
            var answer = CompetitionMapping.competition(row, now: store.now, joined: standing != nil)
            if let standing { answer.standing = try await standingAnswer(standing, competition: row, me: me) }
            items.append(answer)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func joinCompetition(_ input: Operations.JoinCompetition.Input) async throws -> Operations.JoinCompetition.Output {
        let me = try Caller.person()
        let (answer, created) = try await answeringStorageFailure("Unable to join the competition. Please try again.") {
            let store = try await competitionStore(for: me.companyID)
            let row = try await store.competition(input.path.id)
            let joined = try await store.join(row, userID: me.userID)
            var competition = CompetitionMapping.competition(row, now: store.now, joined: true)
            if let standing = try await Standings(database: store.database).standing(
                boardID: try row.requireID(), userID: me.userID)
            {
                competition.standing = try await standingAnswer(standing, competition: row, me: me)
            }
            return (Components.Schemas.CompetitionMembership(competition: competition, joinedAt: joined.joinedAt),
                joined.created)
        }
        if created {
            logger.info("competition joined")
            return .created(.init(body: .json(answer)))
        }
        return .ok(.init(body: .json(answer)))
    }

    func leaveCompetition(_ input: Operations.LeaveCompetition.Input) async throws
        -> Operations.LeaveCompetition.Output
    {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to leave the competition. Please try again.") {
            let store = try await competitionStore(for: me.companyID)
            try await store.leave(try await store.competition(input.path.id), userID: me.userID)
        }
        return .noContent(.init())
    }

    func getCompetitionLeaderboard(_ input: Operations.GetCompetitionLeaderboard.Input) async throws
        -> Operations.GetCompetitionLeaderboard.Output
    {
        let me = try Caller.person()
        let query = input.query
        let limit = try QueryBounds.value(query.limit, of: "limit", in: 1...100, default: 20)
        let neighbours = try QueryBounds.value(query.neighbours, of: "neighbours", in: 0...10, default: 2)
        let cursor = try query.cursor.map { text throws(InputError) in
            guard let cursor = Standings.Cursor(encoded: text) else {
                throw InputError.badParameter(FieldIssue(
                    field: "cursor", message: "is not a cursor this leaderboard gave (use nextCursor as it is)"))
            }
            return cursor
        }
        let store = try await competitionStore(for: me.companyID)
        let row = try await store.competition(input.path.id)
        await settleResults(of: [row], store: store)
        let boardID = try row.requireID()
        let standings = Standings(database: store.database)
        // One more than the page, to know whether another follows.
        let page = try await standings.page(boardID: boardID, after: cursor, limit: limit + 1)
        let shown = Array(page.prefix(limit))
        let around = try await standings.neighbourhood(boardID: boardID, userID: me.userID, count: neighbours)
        let everyone = shown + (around.map { [$0.me] + $0.above + $0.below } ?? [])
        let names = try await Standings.names(
            of: everyone.map(\.row.userID), companyID: me.companyID, on: store.database)
        func entry(_ ranked: Standings.Ranked) -> Components.Schemas.CompetitionStanding {
            CompetitionMapping.standing(ranked, name: names[ranked.row.userID], isMe: ranked.row.userID == me.userID)
        }
        let status = CompetitionStatus(startsAt: row.startsAt, endsAt: row.endsAt, now: store.now)
        return .ok(.init(body: .json(.init(
            competition: CompetitionMapping.competition(row, now: store.now, joined: around != nil),
            final: status == .ended, participants: row.participants, entries: shown.map(entry),
            nextCursor: page.count > limit ? shown.last.map { Standings.Cursor($0.row).encoded } : nil,
            me: around.map { entry($0.me) }, above: around?.above.map(entry) ?? [],
            below: around?.below.map(entry) ?? []))))
    }

    /// Pays the winners of the ended competitions among `rows` that are not settled yet (``CompetitionResults``). A
    /// failure does not fail the read: it is logged, nothing of it is kept, and the next read settles again.
    private func settleResults(of rows: [CompetitionModel], store: CompetitionStore) async {
        let results = CompetitionResults(database: store.database, companyID: store.companyID, now: store.now)
        for row in rows where row.endsAt <= store.now && row.resultsAwardedAt == nil {
            do {
                if try await results.settleIfEnded(row) { logger.info("competition results settled") }
            } catch {
                logger.warning("competition results not settled yet", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The person's standing in `competition`, already read, ranked.
    private func standingAnswer(_ standing: Standings.Row, competition: CompetitionModel, me: AuthenticatedUser)
        async throws -> Components.Schemas.CompetitionStanding
    {
        let ranked = try await Standings(database: try database()).rank(standing, boardID: try competition.requireID())
        return CompetitionMapping.standing(ranked, name: try await me.user.displayName, isMe: true)
    }

    func competitionStore(for companyID: UUID) async throws -> CompetitionStore {
        try await CompetitionStore.of(companyID: companyID, on: try database(), now: clock.now)
    }
}

/// Competitions between the stored rows and the API's schemas.
enum CompetitionMapping {
    static func competition(_ row: CompetitionModel, now: Date, joined: Bool?) -> Components.Schemas.Competition {
        let status = CompetitionStatus(startsAt: row.startsAt, endsAt: row.endsAt, now: now)
        return .init(
            id: row.id?.uuidString.lowercased() ?? "", name: row.name, description: row.description,
            metric: Components.Schemas.CompetitionMetric(rawValue: row.metric) ?? .totalReps,
            exerciseId: row.exerciseID, poseExercise: row.poseExercise, challengeSeconds: row.challengeSeconds,
            builtIn: row.builtInKey.map { String($0.prefix { $0 != "/" }) }, start: row.startLocal, end: row.endLocal,
            timeZone: row.timeZone, startsAt: row.startsAt, endsAt: row.endsAt,
            status: Components.Schemas.Competition.StatusPayload(rawValue: status.rawValue) ?? .open,
            createdAt: row.createdAt, joined: joined)
    }

    static func standing(_ ranked: Standings.Ranked, name: String?, isMe: Bool)
        -> Components.Schemas.CompetitionStanding
    {
        .init(
            rank: ranked.rank, name: name.flatMap { $0.isEmpty ? nil : $0 } ?? "Athlete", score: ranked.row.score,
            reachedAt: ranked.row.reachedAt, isMe: isMe)
    }
}
