import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import OpenAPIRuntime

/// Answers `GET /v1/plans` with bytes encoded once per distinct answer.
///
/// The plan list is the bundled plan library (fixed for the life of the process) with one flag per plan: whether the
/// caller is enrolled in it. Encoding its summaries was most of what the list cost on every request. The caller's
/// enrolments are read from the database on every request, here (before the handler, which is handed them through
/// ``enrolled`` and does not read them again); the answer is kept per request path (the category filter) and
/// enrolled set, so an enrolment made a moment ago, by this process or another, shows on the next request. Only 200
/// answers are kept; at most ``maximumEntries`` (a full store drops entries, which are encoded again on their next
/// request). Placed after ``AuthenticationMiddleware``, whose person it reads.
struct PlanListResponseCache: ServerMiddleware {
    static let operationID = "listPlans"
    static let maximumEntries = 1024
    /// An answer larger than this is not kept.
    static let maximumBytes = 1024 * 1024

    /// The caller's enrolled plans as this middleware read them, for the handler.
    @TaskLocal static var enrolled: Set<String>?

    struct Entry: Sendable {
        var response: HTTPResponse
        var body: ArraySlice<UInt8>
    }

    final class Store: Sendable {
        private let entries = NIOLockedValueBox([String: Entry]())

        subscript(key: String) -> Entry? { entries.withLockedValue { $0[key] } }

        var count: Int { entries.withLockedValue { $0.count } }

        func insert(_ entry: Entry, for key: String) {
            entries.withLockedValue { entries in
                if entries[key] == nil, entries.count >= PlanListResponseCache.maximumEntries {
                    entries.remove(at: entries.startIndex)
                }
                entries[key] = entry
            }
        }
    }

    let store: Store
    let databases: DatabasePool
    let clock: FormaClock

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == Self.operationID, request.method == .get, let me = Caller.current?.person else {
            return try await next(request, body, metadata)
        }
        let enrolled = try await PlanProgressStore(
            database: try databases.database(), companyID: me.companyID, userID: me.userID, now: clock.now
        ).enrolledPlanIDs()
        let key = Self.key(path: request.path ?? "", enrolled: enrolled)
        if let entry = store[key] {
            return (entry.response, HTTPBody(entry.body))
        }
        let (response, responseBody) = try await Self.$enrolled.withValue(enrolled) {
            try await next(request, body, metadata)
        }
        guard response.status == .ok, let responseBody else { return (response, responseBody) }
        if case .known(let length) = responseBody.length, length > Self.maximumBytes {
            return (response, responseBody)
        }
        let bytes = try await ArraySlice(collecting: responseBody, upTo: Self.maximumBytes)
        store.insert(Entry(response: response, body: bytes), for: key)
        return (response, HTTPBody(bytes))
    }

    /// The request's path with its query (the category), and the enrolled plans in order.
    static func key(path: String, enrolled: Set<String>) -> String {
        ([path] + enrolled.sorted()).joined(separator: "\n")
    }
}
