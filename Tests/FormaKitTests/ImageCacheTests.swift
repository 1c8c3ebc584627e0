import Foundation
import Testing

@testable import FormaKit

/// A picture server in a box: answers like an HTTP origin with one image, its tag and its `Cache-Control`, and
/// counts what it was asked.
final class PictureOrigin: @unchecked Sendable {
    private let lock = NSLock()
    private var image: Data
    private var tag: String
    private let cacheControl: String?
    private(set) var full = 0
    private(set) var notModified = 0

    init(_ image: Data, cacheControl: String?) {
        self.image = image
        tag = "\"v1\""
        self.cacheControl = cacheControl
    }

    func change(to image: Data, tag: String) {
        lock.withLock {
            self.image = image
            self.tag = tag
        }
    }

    func answer(_ ifNoneMatch: String?) -> ImageFetch {
        lock.withLock {
            if ifNoneMatch == tag {
                notModified += 1
                return .notModified(eTag: tag, cacheControl: cacheControl)
            }
            full += 1
            return .ok(data: image, contentType: "image/png", eTag: tag, cacheControl: cacheControl)
        }
    }
}

/// A clock the tests move by hand.
final class HandClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite("Image cache")
struct ImageCacheTests {
    static let picture = Data("picture one".utf8)

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("forma-image-cache-\(UUID())")
    }

    @Test func noCacheIsKeptButRevalidatedEveryTime() async throws {
        // setup
        let origin = PictureOrigin(Self.picture, cacheControl: "private, no-cache")
        let cache = ImageCache(directory: Self.directory())

        // act
        let first = try await cache.image(for: "a") { origin.answer($0) }
        let second = try await cache.image(for: "a") { origin.answer($0) }
        origin.change(to: Data("picture two".utf8), tag: "\"v2\"")
        let third = try await cache.image(for: "a") { origin.answer($0) }

        // verify
        #expect(first.origin == .network && second.origin == .revalidated && third.origin == .network)
        #expect(second.data == Self.picture && third.data == Data("picture two".utf8) && third.eTag == "\"v2\"")
        #expect(origin.full == 2 && origin.notModified == 1)
        #expect(await cache.isOnDisk("a"))
    }

    @Test func aNotModifiedRewritesTheMetadataButNotTheBytes() async throws {
        // setup: a kept no-cache image whose two files are dated 2001, so any write shows
        let directory = Self.directory()
        let origin = PictureOrigin(Self.picture, cacheControl: "private, no-cache")
        let cache = ImageCache(directory: directory)
        _ = try await cache.image(for: "a") { origin.answer($0) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let data = directory.appendingPathComponent(try #require(names.first { $0.hasSuffix(".data") }))
        let metadata = directory.appendingPathComponent(try #require(names.first { $0.hasSuffix(".json") }))
        let old = Date(timeIntervalSinceReferenceDate: 0)
        for file in [data, metadata] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        }
        func modified(_ file: URL) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        }

        // act
        let image = try await cache.image(for: "a") { origin.answer($0) }

        // verify: the 304 renewed the metadata; the bytes' file is the one written after the 200
        #expect(image.origin == .revalidated && origin.notModified == 1)
        #expect(try modified(data) == old && (try Data(contentsOf: data)) == Self.picture)
        #expect(try modified(metadata) != old)
    }

    @Test func maxAgeServesWithoutAskingUntilItRunsOut() async throws {
        // setup
        let clock = HandClock()
        let origin = PictureOrigin(Self.picture, cacheControl: "max-age=600")
        let cache = ImageCache(now: { clock.now })

        // act
        let first = try await cache.image(for: "a") { origin.answer($0) }
        clock.advance(599)
        let fresh = try await cache.image(for: "a") { origin.answer($0) }
        clock.advance(2)
        let stale = try await cache.image(for: "a") { origin.answer($0) }
        clock.advance(599)
        let renewed = try await cache.image(for: "a") { origin.answer($0) }

        // verify: the 304 renewed the copy's age
        #expect([first.origin, fresh.origin, stale.origin, renewed.origin] == [.network, .fresh, .revalidated, .fresh])
        #expect(origin.full == 1 && origin.notModified == 1)
    }

    @Test func noStoreIsKeptNowhere() async throws {
        // setup
        let directory = Self.directory()
        let origin = PictureOrigin(Self.picture, cacheControl: "no-store")
        let cache = ImageCache(directory: directory)

        // act
        let first = try await cache.image(for: "a") { origin.answer($0) }
        let second = try await cache.image(for: "a") { origin.answer($0) }

        // verify
        #expect(first.data == Self.picture && second.origin == .network && origin.full == 2)
        let inMemory = await cache.isInMemory("a")
        let onDisk = await cache.isOnDisk("a")
        #expect(!inMemory && !onDisk)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(written.isEmpty, "\(written)")
    }

    @Test func aNewCacheOnTheSameDirectoryRevalidatesTheCopyFromDisk() async throws {
        // setup
        let directory = Self.directory()
        let origin = PictureOrigin(Self.picture, cacheControl: "private, no-cache")
        _ = try await ImageCache(directory: directory).image(for: "a") { origin.answer($0) }

        // act: as after a relaunch
        let relaunched = ImageCache(directory: directory)
        let image = try await relaunched.image(for: "a") { origin.answer($0) }

        // verify
        #expect(image.origin == .revalidated && image.data == Self.picture && image.contentType == "image/png")
        #expect(origin.full == 1)
    }

    @Test func memoryDropsTheLeastRecentlyUsedPastItsLimit() async throws {
        // setup: room for two 10-byte pictures
        let cache = ImageCache(memoryLimitBytes: 25)
        let ten = Data(repeating: 7, count: 10)
        let answer: @Sendable (String?) -> ImageFetch = { _ in
            .ok(data: ten, contentType: nil, eTag: "\"t\"", cacheControl: "max-age=60")
        }

        // act
        _ = try await cache.image(for: "a", fetch: answer)
        _ = try await cache.image(for: "b", fetch: answer)
        _ = try await cache.image(for: "a", fetch: answer)  // a is now the most recent
        _ = try await cache.image(for: "c", fetch: answer)

        // verify
        let kept = [await cache.isInMemory("a"), await cache.isInMemory("b"), await cache.isInMemory("c")]
        #expect(kept == [true, false, true])
        #expect(await cache.bytesInMemory == 20)
    }

    @Test func cacheControlIsReadAsRFC9111Says() {
        #expect(CacheControl("private, no-cache") == CacheControl(noCache: true))
        #expect(CacheControl("public, MAX-AGE=300") == CacheControl(maxAgeSeconds: 300))
        #expect(CacheControl("max-age=\"60\", no-store") == CacheControl(noStore: true, maxAgeSeconds: 60))
        #expect(CacheControl("max-age=soon") == CacheControl(maxAgeSeconds: 0))
        #expect(CacheControl(nil) == CacheControl())
    }

    @Test func aNotModifiedWithoutACopyIsAnError() async {
        let cache = ImageCache()
        await #expect(throws: ImageCacheError.notModifiedWithoutCopy) {
            try await cache.image(for: "a") { _ in .notModified(eTag: "\"x\"", cacheControl: nil) }
        }
    }
}
