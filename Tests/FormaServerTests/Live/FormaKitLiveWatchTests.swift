import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's live watching against a running server")
struct FormaKitLiveWatchTests {
    @Test func aHostAppSeesSomeoneLiveWatchesAndCheersThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup: Bob follows Ada, who is live
            let scene = try await WatchScene.make(app, server)
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let bobKit = FormaKit(baseURL: url, token: scene.bobToken, companyName: "Watch", userId: "bob")
            let before = try await bobKit.person(userId: "ada")
            let (ada, session) = try await scene.adaGoesLive()

            // act: Bob reads the profile, watches at the URL FormaKit gives, cheers with its message
            let profile = try await bobKit.person(userId: "ada")
            let watchURL = bobKit.liveWatchURL(userId: "ada")
            let bob = try await LiveTestClient.connect(to: server, bearer: scene.bobToken, path: watchURL.path)
            _ = try await bob.waitFor("watching")
            try await bob.send(text: LiveWatchEvent.cheerMessage("Go Ada!"))
            try await eventually("the cheer arrives") { !ada.messages(ofType: "cheer").isEmpty }
            try await ada.send(json: ["type": "end"])
            _ = try await bob.waitFor("ended")
            let today = try await bobKit.todayActivity()

            // verify
            #expect(!before.liveNow && before.liveSessionId == nil && before.lastLiveAt == nil)
            #expect(profile.liveNow && profile.liveSessionId == session && profile.lastLiveAt != nil)
            #expect(watchURL.absoluteString == "ws://127.0.0.1:\(server.port)/v1/people/ada/live/watch")
            let watched = try bob.texts.map { text throws(FormaError) in try LiveWatchEvent(json: text) }
            #expect(watched.first == .watching(session: session, userId: "ada", displayName: nil))
            #expect(watched.contains(.cheerSent(text: "Go Ada!")) && watched.last == .ended(session: session))
            #expect(watched.contains { if case .event(.summary) = $0 { true } else { false } })
            let cheer = try LiveWatchEvent(json: try #require(ada.texts.first { $0.contains("\"cheer\"") }))
            #expect(cheer == .cheer(fromUserId: "bob", displayName: nil, text: "Go Ada!"))
            #expect(today.watchedLive)
        }
    }
}
