import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Private profiles: a follow is a request the person approves or declines (docs/community.md).
@Suite("Private profiles")
struct PrivateProfileTests {
    @Test func aFollowOfAPrivateProfileIsARequestUntilApproved() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            try await bob.setPrivate(true)

            // act: Ada asks; Bob looks, then approves twice
            let asked = try await ada.followed(bob)
            let askedAgain = try await ada.followed(bob)
            let requests = try await bob.all("follow-requests")
            let before = try await ada.profile(of: bob)
            let bobBefore = try await bob.me()
            let adaFollowingBefore = try await ada.all("following")
            let approved = try await bob.approve("ada")
            let approvedAgain = try await bob.approve("ada")
            let after = try await ada.profile(of: bob)

            // verify: a request is not a follow; the approval makes it one
            #expect(asked.state == "requested" && askedAgain.state == "requested")
            #expect(requests == ["ada"] && bobBefore.followers == 0 && bobBefore.privateProfile == true)
            #expect(before.followedByMe == "requested" && before.followers == 0 && before.privateProfile)
            #expect(adaFollowingBefore.isEmpty)
            #expect(approved.status == .ok && approvedAgain.status == .ok, "\(approved.text)")
            #expect(try approved.json(FollowBody.self) == FollowBody(userId: "bob", state: "following"))
            #expect(after.followedByMe == "following" && after.followers == 1)
            #expect(try await bob.all("follow-requests").isEmpty)
            #expect(try await bob.all("followers") == ["ada"])
        }
    }

    @Test func aDeclinedRequestIsGoneAndDecliningTwiceIsFine() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            try await bob.setPrivate(true)
            _ = try await ada.followed(bob)

            // act
            let declined = try await bob.decline("ada")
            let again = try await bob.decline("ada")
            let approveGone = try await bob.approve("ada")

            // verify
            #expect(declined.status == .noContent && again.status == .noContent)
            #expect(approveGone.status == .notFound, "\(approveGone.text)")
            #expect(try await ada.profile(of: bob).followedByMe == "none")
            #expect(try await bob.all("follow-requests").isEmpty)
        }
    }

    @Test func makingTheProfilePublicApprovesTheWaitingRequestsAndKeepsFollowers() async throws {
        try await withFormaApp { app in
            // setup: Cy followed Bob while public; Ada asked after Bob went private
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            let cy = try await Member.joining(api, key: key, "cy")
            _ = try await cy.followed(bob)
            try await bob.setPrivate(true)
            _ = try await ada.followed(bob)
            #expect(try await bob.me().followers == 1)

            // act
            try await bob.setPrivate(false)

            // verify
            #expect(try await bob.me().followers == 2)
            #expect(Set(try await bob.all("followers")) == ["ada", "cy"])
            #expect(try await ada.profile(of: bob).followedByMe == "following")
        }
    }

    @Test func aFollowerCanWithdrawARequest() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Member.joining(api, key: key, "ada")
            let bob = try await Member.joining(api, key: key, "bob")
            try await bob.setPrivate(true)
            _ = try await ada.followed(bob)

            // act
            let withdrawn = try await ada.unfollow("bob")

            // verify
            #expect(withdrawn.status == .noContent)
            #expect(try await bob.all("follow-requests").isEmpty)
        }
    }
}

@Suite("People without a host id, and profile fields")
struct PeopleEdgeTests {
    @Test func anEmailAccountIsNamedByFormasIdAndCanFollowAndBeFollowed() async throws {
        try await withFormaApp { app in
            // setup: Eve signed up with email; Ada comes from the default company's host app
            let api = APIClient(app: app)
            let grant = try await api.signUpAndLogIn(email: "eve@example.com")
            let eve = Auth.bearer(grant.token)
            let eveProfile: ProfileBody = try await api.get("/v1/me", headers: eve).json()
            let adaHeaders = try await api.sessionToken(key: try await api.createCompany("Gym"), userId: "ada")

            // act: Eve is in the default company; Ada's company does not have her
            let fromOtherCompany = try await api.send(
                .PUT, "/v1/me/following/\(eveProfile.id)", headers: Auth.bearer(adaHeaders.token))
            let herself = try await api.send(.PUT, "/v1/me/following/\(eveProfile.id.lowercased())", headers: eve)
            let finn = Auth.bearer(try await api.signUpAndLogIn(email: "finn@example.com").token)
            let followed = try await api.send(.PUT, "/v1/me/following/\(eveProfile.id.lowercased())", headers: finn)
            let finnFollows: PersonPageBody = try await api.get("/v1/me/following", headers: finn).json()

            // verify: Finn, of Eve's company, follows her by Forma's id, which the lists answer too
            #expect(followed.status == .ok, "\(followed.text)")
            #expect(finnFollows.items.map(\.userId) == [eveProfile.id.lowercased()])
            #expect(fromOtherCompany.status == .notFound, "\(fromOtherCompany.text)")
            #expect(herself.status == .unprocessableEntity, "\(herself.text)")
        }
    }

    @Test func privateProfileNullIsA422AndChangesNothing() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let bob = try await Member.joining(api, key: try await api.createCompany("Gym"), "bob")
            try await bob.setPrivate(true)

            // act
            let reply = try await api.send(
                .PATCH, "/v1/me", headers: bob.headers, raw: Data(#"{"privateProfile": null}"#.utf8),
                contentType: "application/json")

            // verify
            #expect(reply.status == .unprocessableEntity && reply.text.contains("privateProfile"), "\(reply.text)")
            #expect(try await bob.me().privateProfile == true)
        }
    }
}
