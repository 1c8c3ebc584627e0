import FluentKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Followers watching a live session (docs/community.md, "Live watching").
@Suite("Live watching")
struct LiveWatchTests {
    @Test func aFollowerWatchesRepsSetsAndTheSummaryButNoLandmarks() async throws {
        try await withLiveServer { app, server in
            // setup: Ada is live; Bob follows her
            let scene = try await WatchScene.make(app, server)
            let (ada, session) = try await scene.adaGoesLive()
            let profile = try await scene.live(seenBy: scene.bob)

            // act: Bob watches while Ada does three squats and ends
            let bob = try await scene.watch(token: scene.bobToken)
            let watching = try await bob.waitFor("watching")
            try await threeSquatsAndEnd(ada)
            let ended = try await bob.waitFor("ended")

            // verify: the profile named the session; Bob saw the counts and the end, nothing else of the session
            #expect(profile.liveNow && profile.liveSessionId == session && profile.lastLiveAt == app.formaClock.now)
            #expect(watching?["session"] as? String == session && watching?["userId"] as? String == "ada")
            #expect(bob.messages(ofType: "rep").count == 3, "\(bob.texts)")
            #expect(bob.messages(ofType: "set").first?["reps"] as? Int == 3)
            #expect(bob.messages(ofType: "summary").count == 1 && ended?["session"] as? String == session)
            let types = Set(bob.messages.compactMap { $0["type"] as? String })
            #expect(types == ["watching", "rep", "set", "summary", "ended"])
            #expect(!ada.messages(ofType: "progress").isEmpty, "the trainee's own landmarks were sent")
            #expect(!bob.texts.contains { $0.contains("landmarks") })
            #expect(try await bob.closed()?.code == 1000)
            try await theWatchIsRecorded(scene, session: session)
        }
    }

    @Test func aWatchIsWatchedLiveTodayInTheWatchersTimeZone() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Bob lives in Auckland, where 08:00Z on 15 January is 21:00
            let scene = try await WatchScene.make(app, server)
            let zone = try await scene.api.send(
                .PATCH, "/v1/me", headers: scene.bob.headers, json: ["timeZone": "Pacific/Auckland"])
            #expect(zone.status == .ok, "\(zone.text)")
            let before = try await scene.bob.today()

            // act: Bob watches Ada; then Auckland's midnight passes (11:00Z, still 15 January in UTC)
            let (ada, _) = try await scene.adaGoesLive()
            let bob = try await scene.watch(token: scene.bobToken)
            _ = try await bob.waitFor("watching")
            let watched = try await scene.bob.today()
            let adaToday = try await scene.ada.today()
            clock.advance(seconds: 3 * 3_600)
            let nextDay = try await scene.bob.today()

            // verify
            #expect(!before.watchedLive && watched.watchedLive && watched.date == "2027-01-15")
            #expect(!adaToday.watchedLive)
            #expect(nextDay.date == "2027-01-16" && !nextDay.watchedLive)
            await bob.disconnect()
            await ada.disconnect()
        }
    }

    @Test func onlyApprovedFollowersSeeAndWatchAPrivateProfilesSession() async throws {
        try await withLiveServer { app, server in
            // setup: Ada is private; Bob is approved, Cy asked, Dee does not follow; Eve of another company is "bob"
            let scene = try await WatchScene.make(app, server, bobFollows: false)
            try await scene.ada.setPrivate(true)
            _ = try await scene.bob.followed(scene.ada)
            #expect(try await scene.ada.approve("bob").status == .ok)
            let cy = try await scene.member("cy")
            _ = try await cy.member.followed(scene.ada)
            let dee = try await scene.member("dee")
            let otherKey = try await scene.api.createCompany("Elsewhere")
            let eve = try await scene.api.sessionToken(key: otherKey, userId: "bob").token
            let (ada, session) = try await scene.adaGoesLive()

            // act
            let bobSees = try await scene.live(seenBy: scene.bob)
            let cySees = try await scene.live(seenBy: cy.member)
            let deeSees = try await scene.live(seenBy: dee.member)
            let refusals = try await [cy.token, dee.token, eve].asyncMap { try await refusal(scene, token: $0) }
            try await scene.ada.setPrivate(false)
            let deeSeesPublic = try await scene.live(seenBy: dee.member)
            let deeRefusedPublic = try await refusal(scene, token: dee.token)

            // verify: nothing of a private profile's live state leaks; watching needs an approved follow
            #expect(bobSees.liveNow && bobSees.liveSessionId == session && bobSees.lastLiveAt != nil)
            for seen in [cySees, deeSees] {
                #expect(!seen.liveNow && seen.liveSessionId == nil && seen.lastLiveAt == nil)
            }
            #expect(refusals.map(\.code) == [4403, 4403, 4404], "\(refusals)")
            #expect(refusals.last?.reason == "userId: no such person")
            #expect(deeSeesPublic.liveNow && deeSeesPublic.liveSessionId == nil && deeSeesPublic.lastLiveAt != nil)
            #expect(deeRefusedPublic.code == 4403)
            await ada.disconnect()
        }
    }

    @Test func aPersonWhoIsNotLiveOrLiveOnAnotherProcessCannotBeWatched() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Bob follows Ada, who is not live
            let scene = try await WatchScene.make(app, server)
            let notLive = try await scene.live(seenBy: scene.bob)
            let notLiveRefusal = try await refusal(scene, token: scene.bobToken)
            let ownRefusal = try await refusal(scene, token: scene.adaToken)
            let badToken = try await refusal(scene, token: "ft_not-a-token")

            // act: a session of Ada's holds a lease from another server process on the same database
            let ada = try await UserModel.query(on: app.db).filter(\.$externalID == "ada").first()
            let elsewhere = UUID()
            try await LiveSessionLeaseModel(
                companyID: try #require(ada?.$company.id), userID: try #require(ada?.id), slot: 0, sessionID: elsewhere,
                leaseUntil: clock.now.addingTimeInterval(60)
            ).create(on: app.db)
            let liveElsewhere = try await scene.live(seenBy: scene.bob)
            let elsewhereRefusal = try await refusal(scene, token: scene.bobToken)

            // verify
            #expect(!notLive.liveNow && notLive.liveSessionId == nil && notLive.lastLiveAt == nil)
            #expect(notLiveRefusal == .init(code: 4404, reason: "userId: is not live now"))
            #expect(ownRefusal.code == 4400 && badToken.code == 4401)
            #expect(liveElsewhere.liveNow && liveElsewhere.liveSessionId == elsewhere.uuidString.lowercased())
            #expect(elsewhereRefusal.code == 4409 && elsewhereRefusal.reason.contains("another server process"))
        }
    }

    @Test func aCheerReachesTheTraineeOnceEveryThreeSeconds() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Bob watches Ada, authenticating with a hello as a browser does
            let scene = try await WatchScene.make(app, server)
            let (ada, _) = try await scene.adaGoesLive()
            let bob = try await scene.watch(token: nil)
            try await bob.send(json: ["type": "hello", "token": scene.bobToken])
            _ = try await bob.waitFor("watching")

            // act: a cheer, one too soon, one too long, and one after three seconds
            try await bob.send(json: ["type": "cheer", "text": "  Go Ada!  "])
            try await eventually("the first cheer arrives") { ada.messages(ofType: "cheer").count == 1 }
            try await bob.send(json: ["type": "cheer", "text": "Again"])
            try await bob.send(json: ["type": "cheer", "text": String(repeating: "a", count: 141)])
            try await eventually("two refusals") { bob.messages(ofType: "cheer_refused").count == 2 }
            clock.advance(seconds: 3)
            try await bob.send(json: ["type": "cheer", "text": "Deeper!"])
            try await eventually("the second cheer arrives") { ada.messages(ofType: "cheer").count == 2 }
            try await eventually("both cheers are confirmed") { bob.messages(ofType: "cheer_sent").count == 2 }

            // verify
            let cheers = ada.messages(ofType: "cheer")
            #expect(cheers.map { $0["text"] as? String } == ["Go Ada!", "Deeper!"])
            #expect((cheers.first?["from"] as? [String: Any])?["userId"] as? String == "bob")
            let refused = bob.messages(ofType: "cheer_refused")
            #expect(refused.first?["retryAfterSeconds"] as? Int == 3 && refused.last?["field"] as? String == "text")
            await bob.disconnect()
            await ada.disconnect()
        }
    }

    // MARK: Helpers

    /// Starts squats with the repetition ring's progress events, replays three and ends the session.
    private func threeSquatsAndEnd(_ ada: LiveTestClient) async throws {
        try await ada.send(json: ["type": "start", "exercise": "squat", "progress": true])
        try await ada.replay(try syntheticSquats(3))
        try await ada.send(json: ["type": "end"])
        #expect(try await ada.closed()?.code == 1000)
    }

    /// The close a watch socket on Ada opened with `token` gets.
    private func refusal(_ scene: WatchScene, token: String) async throws -> LiveTestClient.Close {
        let client = try await scene.watch(token: token)
        return try #require(try await client.closed())
    }

    /// Bob's watch is one row with its session and end; deleting Bob deletes it.
    private func theWatchIsRecorded(_ scene: WatchScene, session: String) async throws {
        try await eventually("the watch's end is recorded") {
            try await LiveWatchModel.query(on: scene.app.db).filter(\.$endedAt != nil).count() == 1
        }
        let row = try await LiveWatchModel.query(on: scene.app.db).first()
        #expect(row?.sessionID.uuidString.lowercased() == session)
        let bobToday = try await scene.bob.today()
        let adaToday = try await scene.ada.today()
        #expect(bobToday.watchedLive && !adaToday.watchedLive)
        let deleted = try await scene.api.send(.DELETE, "/v1/me", headers: scene.bob.headers)
        #expect(deleted.status == .noContent)
        #expect(try await LiveWatchModel.query(on: scene.app.db).count() == 0)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
