import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Competitions as a person uses them: the list, joining and leaving, the end, and the leaderboard
/// (docs/competitions.md).
@Suite("Competitions API")
struct CompetitionAPITests {
    @Test func everyCompanyHasTheBuiltInsOnce_evenWhenItsFirstListingsRunAtOnce() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let people = try await withThrowingTaskGroup(of: Competitor.self) { group in
                for index in 0..<6 { group.addTask { try await Competitor.of(api, key: key, user: "p\(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // act: six first listings at the same moment
            let lists = try await withThrowingTaskGroup(of: [CompetitionBody].self) { group in
                for person in people { group.addTask { try await person.list() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: the same three competitions for everyone, stored once
            let ids = Set(lists.map { $0.map(\.id).sorted() })
            #expect(ids.count == 1)
            let first = try #require(lists.first)
            #expect(Set(first.compactMap(\.builtIn)) == ["squats-30-days", "workouts-month", "push-ups-60s-month"])
            #expect(first.allSatisfy { $0.status == "open" && $0.joined == false && $0.timeZone == "UTC" })
            #expect(try await CompetitionModel.query(on: app.db).count() == 3)
            let month = try #require(first.first { $0.builtIn == "workouts-month" })
            // The clock reads 2027-01-15 08:00 UTC.
            #expect(month.start == "2027-01-01T00:00" && month.end == "2027-02-01T00:00")
            let pushUps = try #require(first.first { $0.builtIn == "push-ups-60s-month" })
            #expect(pushUps.metric == "best_challenge" && pushUps.poseExercise == "push-up")
            #expect(pushUps.challengeSeconds == 60)
        }
    }

    @Test func theNextWindowOfABuiltInAppearsWhenTheLastEnds_andTheEndedOneStaysFinal() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada joins January's workouts competition
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let january = try #require(try await ada.list().first { $0.builtIn == "workouts-month" })
            _ = try await ada.joined(january.id)

            // act: into February
            clock.advance(seconds: 20 * 86_400)
            let listed = try await ada.list()
            let current = try await ada.list(joined: true)
            let board = try await ada.board(january.id)
            let rejoin = try await ada.join(january.id)

            // verify
            let february = try #require(listed.first { $0.builtIn == "workouts-month" })
            #expect(february.id != january.id && february.start == "2027-02-01T00:00")
            #expect(!listed.contains { $0.id == january.id })
            #expect(current.map(\.id) == [january.id] && current.first?.status == "ended")
            #expect(board.final && board.me?.rank == 1)
            #expect(rejoin.status == .conflict)
        }
    }

    @Test func joiningIsIdempotent_leavingRemovesTheScore_andTheCurrentListFollows() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada", name: "Ada")
            let id = try await defineCompetition(app, companyID: ada.companyID)

            // act
            let first = try await ada.join(id)
            clock.advance(seconds: 60)
            let again = try await ada.join(id)
            let current = try await ada.list(joined: true)
            let listed = try await ada.list()
            let left = try await ada.leave(id)
            let leftAgain = try await ada.leave(id)
            let afterLeaving = try await ada.list(joined: true)
            let board = try await ada.board(id)

            // verify: 201 then 200 with the first joinedAt; the membership carries the event's fields
            #expect(first.status == .created && again.status == .ok)
            let joined: MembershipBody = try first.json()
            let repeated: MembershipBody = try again.json()
            #expect(joined.joinedAt == repeated.joinedAt && joined.joinedAt == clock.now.addingTimeInterval(-60))
            #expect(joined.competition.id == id && joined.competition.joined == true)
            #expect(joined.competition.name == "November squats" && joined.competition.metric == "total_reps")
            #expect(joined.competition.standing == StandingBody(
                rank: 1, name: "Ada", score: 0, reachedAt: joined.joinedAt, isMe: true))
            #expect(current.map(\.id) == [id] && current.first?.standing?.score == 0)
            #expect(listed.first { $0.id == id }?.joined == true)
            #expect(left.status == .noContent && leftAgain.status == .noContent)
            #expect(afterLeaving.isEmpty && board.participants == 0 && board.me == nil)
        }
    }

    @Test func otherCompaniesCompetitionsAreNotFound_andAnEndedOneCannotBeJoinedOrLeft() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let rival = try await Competitor.of(api, key: try await api.createCompany("Rival"), user: "rex")
            let theirs = try await defineCompetition(app, companyID: rival.companyID)
            let ours = try await defineCompetition(app, companyID: ada.companyID, toHours: 2)
            _ = try await ada.joined(ours)

            // act
            let foreignJoin = try await ada.join(theirs)
            let foreignBoard = try await ada.leaderboard(theirs)
            let notAnID = try await ada.join("squats")
            clock.advance(seconds: 2 * 3_600)
            let lateJoin = try await rival.api.send(
                .PUT, "/v1/competitions/\(ours)/membership", headers: Auth.key(ada.key, user: "bo"))
            let lateLeave = try await ada.leave(ours)
            let board = try await ada.board(ours)

            // verify
            #expect(foreignJoin.status == .notFound && foreignBoard.status == .notFound && notAnID.status == .notFound)
            #expect(try foreignJoin.problem().type == "urn:forma:problem:not-found")
            #expect(lateJoin.status == .conflict && lateLeave.status == .conflict)
            #expect(try lateJoin.problem().detail?.contains("has ended") == true)
            #expect(board.final && board.competition.status == "ended" && board.participants == 1)
        }
    }

    @Test func theParticipantCountFollowsJoinsLeavesAndDeletedAccounts() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Competitor.of(api, key: key, user: "ada")
            let bo = try await Competitor.of(api, key: key, user: "bo")
            let cy = try await Competitor.of(api, key: key, user: "cy")
            let id = try await defineCompetition(app, companyID: ada.companyID)
            for person in [ada, bo, cy] { _ = try await person.joined(id) }
            _ = try await ada.joined(id)

            // act
            let three = try await ada.board(id).participants
            _ = try await bo.leave(id)
            _ = try await bo.leave(id)
            let two = try await ada.board(id).participants
            let deleted = try await api.send(.DELETE, "/v1/me", headers: cy.headers)
            let after = try await ada.board(id)

            // verify
            #expect(three == 3 && two == 2)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(after.participants == 1 && after.entries.map(\.isMe) == [true])
        }
    }

    @Test func badLeaderboardParametersAre400NamingThem() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let id = try await defineCompetition(app, companyID: ada.companyID)

            // act and verify
            for (field, query) in [
                ("limit", "limit=0"), ("limit", "limit=101"), ("neighbours", "neighbours=11"),
                ("cursor", "cursor=bm90LWEtY3Vyc29y"), ("cursor", "cursor=%25%25"), ("joined", nil),
            ] as [(String, String?)] {
                let reply = if let query {
                    try await ada.leaderboard(id, query)
                } else {
                    try await api.get("/v1/competitions?joined=perhaps", headers: ada.headers)
                }
                #expect(reply.status == .badRequest, "\(field): \(reply.text)")
                #expect(try reply.problem().field == field, "\(reply.text)")
            }
            let anonymous = try await api.get("/v1/competitions")
            #expect(anonymous.status == .unauthorized)
        }
    }
}
