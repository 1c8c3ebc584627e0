import FormaCore
import Foundation

/// What a server answered to an image request, as ``ImageCache`` needs it.
public enum ImageFetch: Sendable, Equatable {
    /// `200`: the bytes, their media type, and the validator and caching rules that came with them.
    case ok(data: Data, contentType: String?, eTag: String?, cacheControl: String?)
    /// `304`: the cached bytes are still current; the answer may renew the caching rules.
    case notModified(eTag: String?, cacheControl: String?)
}

/// An image as the cache hands it out.
public struct CachedImage: Sendable, Equatable {
    /// How the bytes were obtained.
    public enum Origin: Sendable, Equatable {
        /// Downloaded in full (a `200`).
        case network
        /// Asked with `If-None-Match`; the server answered `304` and the cached bytes were used.
        case revalidated
        /// Still fresh by `max-age`: no request was made.
        case fresh
    }

    public var data: Data
    public var contentType: String?
    public var eTag: String?
    public var origin: Origin
}

/// The parts of `Cache-Control` (RFC 9111 §5.2.2) an image cache acts on.
public struct CacheControl: Sendable, Equatable {
    /// Nothing may be kept, in memory or on disk.
    public var noStore = false
    /// May be kept, but must be revalidated before every use.
    public var noCache = false
    /// Seconds the copy is fresh after it was received.
    public var maxAgeSeconds: Int?

    public init(noStore: Bool = false, noCache: Bool = false, maxAgeSeconds: Int? = nil) {
        self.noStore = noStore
        self.noCache = noCache
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// Reads a header value such as `private, max-age=600`; unknown directives are ignored, a malformed `max-age`
    /// counts as 0 (stale), as RFC 9111 §4.2.1 advises.
    public init(_ header: String?) {
        for directive in (header ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            switch parts.first {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                let value = parts.count == 2 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                maxAgeSeconds = Int(value).map { max(0, $0) } ?? 0
            default: continue
            }
        }
    }
}

/// A two-level cache for images — memory (least recently used first out, bounded in bytes) and an optional disk
/// directory the host names — that revalidates with `ETag` / `If-None-Match` and honours `Cache-Control`.
///
/// - `no-store`: the image is handed out and kept nowhere, neither in memory nor on disk.
/// - `no-cache`, or no `Cache-Control` at all: kept, but every use asks the server with `If-None-Match`; a `304`
///   serves the kept bytes without downloading them again.
/// - `max-age=N`: kept and used without asking for N seconds after it arrived, then revalidated as above.
///
/// Bytes are cached as `Data`, so the cache works on every platform (decode them with your UI toolkit). Each
/// disk entry is two files named by a hash of the key: `.data` with the bytes and `.json` with the key, entity
/// tag, media type, time received and caching rules; an entry whose files do not match is ignored.
public actor ImageCache {
    private struct Metadata: Codable, Equatable {
        var key: String
        var eTag: String?
        var contentType: String?
        var receivedAt: Date
        var noCache: Bool
        var maxAgeSeconds: Int?
        var byteCount: Int
    }

    private struct Entry {
        var metadata: Metadata
        var data: Data
        var lastUse: UInt64
    }

    /// Where entries are written, or `nil` for memory only.
    public let directory: URL?
    /// Most bytes kept in memory; the least recently used images go first.
    public let memoryLimitBytes: Int
    private let now: @Sendable () -> Date
    private var memory: [String: Entry] = [:]
    private var memoryBytes = 0
    private var useCounter: UInt64 = 0

    /// - Parameters:
    ///   - directory: A directory the host owns (for example under Caches); created when needed. `nil` keeps
    ///     images in memory only.
    ///   - memoryLimitBytes: Bytes of image data kept in memory (default 16 MiB). An image larger than this is
    ///     kept on disk only.
    ///   - now: The clock `max-age` is measured on.
    public init(
        directory: URL? = nil, memoryLimitBytes: Int = 16 * 1024 * 1024, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.memoryLimitBytes = max(0, memoryLimitBytes)
        self.now = now
    }

    /// The image for `key`: from the cache while fresh, else from `fetch`, which is given the cached entity tag to
    /// send as `If-None-Match` (or `nil`) and answers with what the server said.
    ///
    /// - Throws: Whatever `fetch` throws; a `304` with nothing cached throws ``ImageCacheError/notModifiedWithoutCopy``.
    public func image(
        for key: String, fetch: @Sendable (_ ifNoneMatch: String?) async throws -> ImageFetch
    ) async throws -> CachedImage {
        let cached = entry(for: key)
        if let cached, isFresh(cached.metadata) {
            return CachedImage(
                data: cached.data, contentType: cached.metadata.contentType, eTag: cached.metadata.eTag, origin: .fresh)
        }
        switch try await fetch(cached?.metadata.eTag) {
        case let .ok(data, contentType, eTag, cacheControl):
            let rules = CacheControl(cacheControl)
            if rules.noStore {
                remove(key)
            } else {
                store(Metadata(
                    key: key, eTag: eTag, contentType: contentType, receivedAt: now(), noCache: rules.noCache,
                    maxAgeSeconds: rules.maxAgeSeconds, byteCount: data.count), data: data)
            }
            return CachedImage(data: data, contentType: contentType, eTag: eTag, origin: .network)
        case let .notModified(eTag, cacheControl):
            guard var metadata = cached?.metadata, let data = cached?.data else {
                throw ImageCacheError.notModifiedWithoutCopy
            }
            let rules = CacheControl(cacheControl)
            if rules.noStore {
                remove(key)
            } else {
                // A 304 renews the stored response's freshness and rules (RFC 9111 §4.3.4).
                metadata.receivedAt = now()
                metadata.eTag = eTag ?? metadata.eTag
                if cacheControl != nil {
                    metadata.noCache = rules.noCache
                    metadata.maxAgeSeconds = rules.maxAgeSeconds
                }
                store(metadata, data: data, bytesChanged: false)
            }
            return CachedImage(data: data, contentType: metadata.contentType, eTag: metadata.eTag, origin: .revalidated)
        }
    }

    /// Forgets `key` in memory and on disk (for example after the host deleted the picture).
    public func remove(_ key: String) {
        if let old = memory.removeValue(forKey: key) { memoryBytes -= old.data.count }
        if let files = files(for: key) {
            try? FileManager.default.removeItem(at: files.metadata)
            try? FileManager.default.removeItem(at: files.data)
        }
    }

    /// Whether `key` is kept in memory (for tests and diagnostics).
    public func isInMemory(_ key: String) -> Bool { memory[key] != nil }

    /// Whether `key` has an entry on disk.
    public func isOnDisk(_ key: String) -> Bool {
        guard let files = files(for: key) else { return false }
        return FileManager.default.fileExists(atPath: files.metadata.path)
    }

    /// Bytes of image data held in memory.
    public var bytesInMemory: Int { memoryBytes }

    // MARK: Policy

    private func isFresh(_ metadata: Metadata) -> Bool {
        guard !metadata.noCache, let maxAge = metadata.maxAgeSeconds else { return false }
        return now().timeIntervalSince(metadata.receivedAt) < Double(maxAge)
    }

    // MARK: Memory and disk

    private func entry(for key: String) -> Entry? {
        useCounter += 1
        if var hit = memory[key] {
            hit.lastUse = useCounter
            memory[key] = hit
            return hit
        }
        guard let files = files(for: key), let json = try? Data(contentsOf: files.metadata),
            let metadata = try? JSONDecoder().decode(Metadata.self, from: json), metadata.key == key,
            let data = try? Data(contentsOf: files.data), data.count == metadata.byteCount
        else { return nil }
        let loaded = Entry(metadata: metadata, data: data, lastUse: useCounter)
        keepInMemory(loaded, for: key)
        return loaded
    }

    /// Keeps `data` in memory and on disk. After a `304` (`bytesChanged` false) only the metadata file is
    /// written: the bytes on disk are the ones just used, unless the data file has gone.
    private func store(_ metadata: Metadata, data: Data, bytesChanged: Bool = true) {
        useCounter += 1
        keepInMemory(Entry(metadata: metadata, data: data, lastUse: useCounter), for: metadata.key)
        guard let directory, let files = files(for: metadata.key), let json = try? JSONEncoder().encode(metadata)
        else { return }
        // Bytes first, then the metadata that vouches for them; a crash in between leaves an entry that the byte
        // count check refuses.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if bytesChanged || !FileManager.default.fileExists(atPath: files.data.path) {
            try? data.write(to: files.data, options: .atomic)
        }
        try? json.write(to: files.metadata, options: .atomic)
    }

    private func keepInMemory(_ entry: Entry, for key: String) {
        if let old = memory.removeValue(forKey: key) { memoryBytes -= old.data.count }
        guard entry.data.count <= memoryLimitBytes else { return }
        memory[key] = entry
        memoryBytes += entry.data.count
        while memoryBytes > memoryLimitBytes,
            let oldest = memory.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            memory.removeValue(forKey: oldest.key)
            memoryBytes -= oldest.value.data.count
        }
    }

    private func files(for key: String) -> (metadata: URL, data: URL)? {
        guard let directory else { return nil }
        let name = String(stableHash(key), radix: 16)
        return (directory.appendingPathComponent(name + ".json"), directory.appendingPathComponent(name + ".data"))
    }
}

/// Why ``ImageCache`` could not hand out an image.
public enum ImageCacheError: Error, Sendable, Equatable {
    /// The server answered `304` to a request sent without a cached copy.
    case notModifiedWithoutCopy
}
