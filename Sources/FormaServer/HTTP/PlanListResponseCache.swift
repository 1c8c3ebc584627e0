import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Answers `GET /v1/plans` with bytes encoded once per distinct answer.
///
/// The plan list is the bundled plan library (fixed for the life of the process) with one flag per plan: whether the
/// caller is enrolled in it. Encoding its summaries was most of what the list cost on every request. The caller's
/// enrolments are read from the database on every request, here (before the handler, which is handed them through
/// ``enrolled`` and does not read them again); the answer is kept per ``Key`` (the category filter as the generated
/// code reads it, and the enrolled set), so an enrolment made a moment ago, by this process or another, shows on the
/// next request. Only 200 answers are kept, in an ``EncodedResponseStore`` bounded by ``maximumEntries`` and
/// ``maximumBytes``. Placed after ``AuthenticationMiddleware``, whose person it reads.
struct PlanListResponseCache: ServerMiddleware {
    static let operationID = "listPlans"
    static let maximumEntries = 1024
    static let maximumBytes = 16 * 1024 * 1024

    /// The caller's enrolled plans as this middleware read them, for the handler.
    @TaskLocal static var enrolled: Set<String>?

    /// What one plan list answer depends on.
    struct Key: Hashable, Sendable {
        /// The `category` query value, `nil` for every plan.
        var category: String?
        /// The caller's enrolled plans, in order.
        var enrolled: [String]
    }

    typealias Store = EncodedResponseStore<Key>

    static func makeStore() -> Store { Store(maximumEntries: maximumEntries, maximumBytes: maximumBytes) }

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
        if let key, let entry = store[key] {
            return entry.reply
        }
        let (response, responseBody) = try await Self.$enrolled.withValue(enrolled) {
            try await next(request, body, metadata)
        }
        guard let key, response.status == .ok, let responseBody,
            let entry = try await EncodedResponse.collecting(response, body: responseBody, upTo: Self.maximumBytes)
        else { return (response, responseBody) }
        store.insert(entry, for: key)
        return entry.reply
    }

    /// The answer's key: the one `category` value (other query items do not change the answer, as the generated code
    /// ignores them), and the enrolled plans in order; `nil` (not kept) when the query does not decode or names the
    /// category more than once.
    static func key(path: String, enrolled: Set<String>) -> Key? {
        guard let values = FormQuery.values(in: path) else { return nil }
        let categories = values["category"] ?? []
        guard categories.count <= 1 else { return nil }
        return Key(category: categories.first, enrolled: enrolled.sorted())
    }
}
