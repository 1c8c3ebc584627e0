import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's avatar cache against a running server")
struct FormaKitAvatarCacheTests {
    static func kit(port: Int, key: String, cache: ImageCache) throws -> FormaKit {
        FormaKit(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), apiKey: key, companyName: "Acme",
            userId: "user-42", imageCache: cache)
    }

    static func upload(_ api: APIClient, key: String, _ fixture: String, type: String) async throws {
        let reply = try await api.send(
            .PUT, "/v1/me/avatar", headers: Auth.key(key, user: "user-42"), raw: Fixture.data(fixture),
            contentType: type)
        #expect(reply.status == .ok, "upload: \(reply.text)")
    }

    @Test func theSecondLoadIsA304FromTheCacheAndAChangedPictureShows() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-avatar-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            let kit = try Self.kit(port: server.port, key: key, cache: ImageCache(directory: directory))
            try await Self.upload(api, key: key, "avatar-6x4.png", type: "image/png")

            // act
            let first = try #require(try await kit.avatarImage())
            let second = try #require(try await kit.avatarImage())
            try await Self.upload(api, key: key, "avatar-6x4.jpg", type: "image/jpeg")
            let changed = try #require(try await kit.avatarImage())
            let relaunched = try Self.kit(port: server.port, key: key, cache: ImageCache(directory: directory))
            let fromDisk = try #require(try await relaunched.avatarImage())

            // verify
            let png = try Fixture.data("avatar-6x4.png")
            let jpeg = try Fixture.data("avatar-6x4.jpg")
            #expect(first.origin == .network && first.data == png && first.contentType == "image/png")
            #expect(second.origin == .revalidated && second.data == png && second.eTag == first.eTag)
            #expect(changed.origin == .network && changed.data == jpeg && changed.eTag != first.eTag)
            #expect(fromDisk.origin == .revalidated && fromDisk.data == jpeg)
            let profile = try await kit.profile()
            #expect(profile.avatarETag == changed.eTag)
        }
    }

    @Test func aDeletedPictureIsForgotten() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let cache = ImageCache()
            let kit = try Self.kit(port: server.port, key: key, cache: cache)
            let none = try await kit.avatarImage()
            try await Self.upload(api, key: key, "avatar-6x4.png", type: "image/png")
            _ = try await kit.avatarImage()

            // act
            _ = try await api.send(.DELETE, "/v1/me/avatar", headers: Auth.key(key, user: "user-42"))
            let after = try await kit.avatarImage()

            // verify
            #expect(none == nil && after == nil)
            #expect(await cache.bytesInMemory == 0)
        }
    }
}

@Suite("FormaKit's quote of the day against a running server")
struct FormaKitQuoteTests {
    @Test func aHostAppReadsTheQuoteOfTheDayAndItsCategories() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = try FormaKitAvatarCacheTests.kit(port: server.port, key: key, cache: ImageCache())

            // act
            let categories = try await kit.quoteCategories()
            let quote = try await kit.quoteOfTheDay(category: "science")
            let again = try await kit.quoteOfTheDay(category: "science")
            var refused: FormaError?
            do throws(FormaError) {
                _ = try await kit.quoteOfTheDay(category: "gossip")
            } catch {
                refused = error
            }

            // verify
            #expect(categories.count >= 5 && categories.contains("inspirational"))
            #expect(quote.category == "science" && quote.source == "corpus" && again == quote)
            guard case .server(let status, _, _, let fields) = refused else {
                Issue.record("an unknown category was not refused: \(String(describing: refused))")
                return
            }
            #expect(status == 422 && fields.map(\.field) == ["category"])
        }
    }
}
