import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's follows and daily activity against a running server")
struct FormaKitPeopleTests {
    @Test func aHostAppFollowsApprovesAndReadsTodayThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup: two people of one company, Bob's profile private
            let key = try await APIClient(app: app).createCompany("Acme")
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let ada = FormaKit(baseURL: url, apiKey: key, companyName: "Acme", userId: "ada")
            let bob = FormaKit(baseURL: url, apiKey: key, companyName: "Acme", userId: "bob")
            try await bob.setPrivateProfile(true)
            _ = try await ada.todayActivity()

            // act
            let asked = try await ada.follow(userId: "bob")
            let requests = try await bob.followRequests()
            try await bob.approveFollowRequest(userId: "ada")
            let profile = try await ada.person(userId: "bob")
            let following = try await ada.following()
            let today = try await ada.todayActivity()
            var refused: FormaError?
            do throws(FormaError) { try await ada.follow(userId: "ada") } catch { refused = error }

            // verify
            #expect(asked == .requested && requests.people.map(\.userId) == ["ada"])
            #expect(profile.followedByMe == .following && profile.followers == 1 && profile.privateProfile)
            #expect(following.people.map(\.userId) == ["bob"] && following.nextCursor == nil)
            #expect(today.followedSomeone && !today.trained && today.currentStreak == 0 && today.timeZone == "UTC")
            guard case .server(let status, _, _, let fields) = refused else {
                Issue.record("following oneself was not refused: \(String(describing: refused))")
                return
            }
            #expect(status == 422 && fields.map(\.field) == ["userId"])
        }
    }
}
