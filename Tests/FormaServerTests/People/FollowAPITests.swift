import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Follows within one company: idempotence, counts, public profiles, errors and scope (docs/community.md).
@Suite("Follows API")
struct FollowAPITests {
    @Test func followingIsIdempotentAndShowsInBothProfilesCounts() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")

            // act: Ada follows Bob twice
            let first = try await ada.followed(bob)
            let again = try await ada.followed(bob)
            let adaMe = try await ada.me()
            let bobMe = try await bob.me()
            let bobSeenByAda = try await ada.profile(of: bob)
            let adaSeenByBob = try await bob.profile(of: ada)

            // verify: one follow, counted once on each side, seen from both ends
            #expect(first == FollowBody(userId: "bob", state: "following") && again == first)
            #expect(adaMe.following == 1 && adaMe.followers == 0 && adaMe.privateProfile == false)
            #expect(bobMe.followers == 1 && bobMe.following == 0)
            #expect(bobSeenByAda.followers == 1 && bobSeenByAda.followedByMe == "following" && !bobSeenByAda.followsMe)
            #expect(adaSeenByBob.following == 1 && adaSeenByBob.followedByMe == "none" && adaSeenByBob.followsMe)
        }
    }

    @Test func unfollowingIsIdempotentAndTheCountsFallBack() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            _ = try await ada.followed(bob)

            // act
            let first = try await ada.unfollow("bob")
            let again = try await ada.unfollow("bob")

            // verify
            #expect(first.status == .noContent && again.status == .noContent)
            #expect(try await bob.me().followers == 0)
            #expect(try await ada.me().following == 0)
            #expect(try await ada.profile(of: bob).followedByMe == "none")
        }
    }

    @Test func thePublicProfileShowsNothingPrivate() async throws {
        try await withFormaApp { app in
            // setup: Bob filled in his private fields
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            let patch = try await api.send(.PATCH, "/v1/me", headers: bob.headers, json: PrivateFields())
            #expect(patch.status == .ok, "\(patch.text)")

            // act
            let reply = try await ada.person("bob")

            // verify: the name, and none of the private fields
            let body: PublicProfileBody = try reply.json()
            #expect(body.displayName == "Bob" && !body.hasAvatar && !body.privateProfile)
            for field in ["age", "weightKg", "heightCm", "timeZone", "email", "gender", "lifestyle", "\"id\""] {
                #expect(!reply.text.contains(field), "\(field) in \(reply.text)")
            }
        }
    }

    @Test func aPersonsPageShowsTheirAvatarAndTheCounts() async throws {
        try await withFormaApp { app in
            // setup: Ada follows Bob, Bob uploads a picture
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            #expect(try await ada.follow("bob").status == .ok)
            let upload = try await api.send(
                .PUT, "/v1/me/avatar", headers: bob.headers, raw: Fixture.data("avatar-6x4.png"),
                contentType: "image/png")
            #expect(upload.status == .ok || upload.status == .noContent, "\(upload.text)")

            // act
            let page: PublicProfileBody = try await ada.person("bob").json()
            let own = try await api.get("/v1/me", headers: bob.headers)

            // verify: Ada sees Bob's picture and his one follower; so does Bob on his own profile
            #expect(page.hasAvatar && page.followers == 1 && page.following == 0)
            let counts: SocialCountsBody = try own.json()
            #expect(counts.followers == 1 && counts.following == 0, "\(own.text)")
        }
    }

    private struct PrivateFields: Encodable {
        var displayName = "Bob"
        var age = 41
        var weightKg = 80.5
        var timeZone = "Europe/Berlin"
    }

    @Test func followingYourselfIsA422AndUnknownPeopleA404() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")

            // act
            let yourself = try await ada.follow("ada")
            let unknown = try await ada.follow("nobody")
            let unknownDelete = try await ada.unfollow("nobody")
            let unknownProfile = try await ada.person("nobody")
            let noRequest = try await ada.approve("ada")

            // verify: problems naming the field or the person; nothing stored
            #expect(yourself.status == .unprocessableEntity, "\(yourself.text)")
            #expect(try yourself.problem().errors?.map(\.field) == ["userId"])
            #expect(unknown.status == .notFound && unknown.text.contains("nobody"), "\(unknown.text)")
            #expect(unknownDelete.status == .notFound && unknownProfile.status == .notFound)
            #expect(noRequest.status == .notFound, "\(noRequest.text)")
            #expect(try await FollowModel.query(on: app.db).count() == 0)
        }
    }

    @Test func aPersonOfAnotherCompanyIsNotFound() async throws {
        try await withFormaApp { app in
            // setup: the same host id in two companies
            let api = APIClient(app: app)
            let gym = try await api.createCompany("Gym")
            let clinic = try await api.createCompany("Clinic")
            let ada = try await Member.joining(api, key: gym, "ada")
            _ = try await Member.joining(api, key: clinic, "zed")
            let clinicAda = try await Member.joining(api, key: clinic, "ada")

            // act
            let follow = try await ada.follow("zed")
            let profile = try await ada.person("zed")
            let sameName = try await clinicAda.follow("ada")

            // verify: Zed is not in Ada's company; the clinic's Ada is herself there
            #expect(follow.status == .notFound && profile.status == .notFound)
            #expect(sameName.status == .unprocessableEntity, "\(sameName.text)")
            #expect(try await FollowModel.query(on: app.db).count() == 0)
        }
    }

    @Test func badListParametersAre400s() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Member.joining(api, key: try await api.createCompany("Gym"), "ada")

            // act
            let cursor = try await ada.page("followers", "cursor=not-a-cursor")
            let limit = try await ada.page("following", "limit=101")
            let zero = try await ada.page("follow-requests", "limit=0")

            // verify
            #expect(cursor.status == .badRequest && cursor.text.contains("cursor"), "\(cursor.text)")
            #expect(limit.status == .badRequest && limit.text.contains("limit"), "\(limit.text)")
            #expect(zero.status == .badRequest, "\(zero.text)")
        }
    }

    @Test func listsArePagedNewestFirstWithoutGapsOrRepeats() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: seven followers of Bob, three of them in the same second
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let bob = try await Member.joining(api, key: key, "bob")
            var followers: [Member] = []
            for index in 0..<7 {
                let member = try await Member.joining(api, key: key, "p\(index)")
                _ = try await member.followed(bob)
                followers.append(member)
                if index < 4 { clock.advance(seconds: 60) }
            }
            _ = try await bob.followed(followers[0])

            // act
            let pagedByTwo = try await bob.all("followers", limit: 2)
            let inOne = try await bob.all("followers", limit: 100)
            let following = try await bob.all("following")

            // verify: newest first; the three made in one second in some fixed order; each once
            #expect(pagedByTwo == inOne && pagedByTwo.count == 7 && Set(pagedByTwo).count == 7)
            #expect(Array(pagedByTwo.suffix(4)) == ["p3", "p2", "p1", "p0"])
            #expect(following == ["p0"])
        }
    }

    @Test func deletingAnAccountRemovesItsFollowsBothWays() async throws {
        try await withFormaApp { app in
            // setup: Ada follows Bob and Cy; Bob follows Ada
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            let cy = try await Member.joining(api, key: key, "cy")
            _ = try await ada.followed(bob)
            _ = try await ada.followed(cy)
            _ = try await bob.followed(ada)
            _ = try await bob.followed(cy)

            // act
            let deleted = try await api.send(.DELETE, "/v1/me", headers: ada.headers)

            // verify: only Bob's follow of Cy is left
            #expect(deleted.status == .noContent)
            #expect(try await FollowModel.query(on: app.db).count() == 1)
            #expect(try await cy.me().followers == 1)
            #expect(try await bob.me().following == 1)
            #expect(try await bob.me().followers == 0)
        }
    }

    @Test func concurrentFollowsOfOnePairMakeOneRow() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")

            // act: 40 follows of Bob by Ada at once
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<40 { group.addTask { try await ada.follow("bob").status } }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify: every one answered 200, one row, counted once
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            #expect(try await FollowModel.query(on: app.db).count() == 1)
            #expect(try await bob.me().followers == 1)
        }
    }
}
