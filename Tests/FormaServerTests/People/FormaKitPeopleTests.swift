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

    @Test func aHostAppFindsPeopleByNameThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup: Ada, and three others named; Ada follows Cy
            let key = try await APIClient(app: app).createCompany("Acme")
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let kit = { (user: String) in FormaKit(baseURL: url, apiKey: key, companyName: "Acme", userId: user) }
            let ada = kit("ada")
            for (user, name) in [("ada", "Ada"), ("bo", "Bo Runner"), ("cy", "Cy Runner"), ("di", "Di")] {
                _ = try await kit(user).updateProfile(ProfileUpdate(displayName: name))
            }
            _ = try await ada.follow(userId: "cy")

            // act: one at a time
            let first = try await ada.searchPeople("runner", limit: 1)
            let second = try await ada.searchPeople("runner", cursor: first.nextCursor, limit: 1)

            // verify: both runners, once each, in name order, with Ada's follow of Cy
            #expect(first.people.map(\.userId) == ["bo"] && first.people.first?.followedByMe == PublicProfile.Relation.none)
            #expect(second.people.map(\.userId) == ["cy"] && second.people.first?.followedByMe == .following)
            #expect(second.nextCursor == nil)
        }
    }
}
