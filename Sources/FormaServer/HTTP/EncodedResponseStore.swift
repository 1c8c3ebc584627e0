import HTTPTypes
import NIOConcurrencyHelpers
import OpenAPIRuntime

/// One answer as it goes out: the runtime's response head and the encoded body.
struct EncodedResponse: Sendable {
    var response: HTTPResponse
    var body: ArraySlice<UInt8>

    /// The answer with its body read into memory, or `nil` when the body is longer than `maximumBytes` (a body of
    /// known length is then not read; one of unknown length throws past the limit, as `collecting(upTo:)` does).
    static func collecting(
        _ response: HTTPResponse, body: HTTPBody, upTo maximumBytes: Int
    ) async throws -> EncodedResponse? {
        if case .known(let length) = body.length, length > maximumBytes { return nil }
        return EncodedResponse(response: response, body: try await ArraySlice(collecting: body, upTo: maximumBytes))
    }

    /// The answer to send: the stored head and a fresh body over the stored bytes.
    var reply: (HTTPResponse, HTTPBody?) { (response, HTTPBody(body)) }
}

/// Encoded answers kept in memory by a normalised key, shared by every request of one application
/// (``CatalogueResponseCache``, ``PlanListResponseCache``).
///
/// Bounded twice: at most `maximumEntries` answers and `maximumBytes` bytes of bodies. An insert past either bound
/// drops arbitrary entries first, which are encoded again on their next request; an answer larger than
/// `maximumBytes` on its own is not kept. The lock is held only to read or replace one entry.
final class EncodedResponseStore<Key: Hashable & Sendable>: Sendable {
    let maximumEntries: Int
    let maximumBytes: Int

    private struct State {
        var entries: [Key: EncodedResponse] = [:]
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())

    init(maximumEntries: Int, maximumBytes: Int) {
        precondition(maximumEntries > 0 && maximumBytes > 0, "a store must be able to hold an answer")
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    subscript(key: Key) -> EncodedResponse? {
        state.withLockedValue { $0.entries[key] }
    }

    /// How many answers are kept.
    var count: Int { state.withLockedValue { $0.entries.count } }

    /// The kept bodies' total length.
    var bytes: Int { state.withLockedValue { $0.bytes } }

    func insert(_ entry: EncodedResponse, for key: Key) {
        guard entry.body.count <= maximumBytes else { return }
        state.withLockedValue { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.body.count }
            while !state.entries.isEmpty,
                state.entries.count >= maximumEntries || state.bytes + entry.body.count > maximumBytes
            {
                let evicted = state.entries.remove(at: state.entries.startIndex)
                state.bytes -= evicted.value.body.count
            }
            state.entries[key] = entry
            state.bytes += entry.body.count
        }
    }
}
