import Crypto
import FormaCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What a catalogue answer is about, normalised: two requests for the same resource get the same bytes.
enum CatalogueResource: Hashable, Sendable {
    /// A search, keyed by its canonical description (``CatalogueQuery/canonicalDescription``).
    case search(CatalogueQuery)
    /// One exercise, by its identifier as the request spells it.
    case exercise(String)
    /// One exercise's guide (muscles on the body map, demonstration), by its identifier.
    case guide(String)
    case facets

    /// A stable text naming the resource: the cache's key.
    var canonicalDescription: String {
        switch self {
        case .search(let query): "search?" + query.canonicalDescription
        case .exercise(let id): "exercise/" + id
        case .guide(let id): "guide/" + id
        case .facets: "facets"
        }
    }
}

/// Keeps the encoded answers of the catalogue reads (`listExercises`, `getExercise`, `getExerciseGuide`,
/// `getCatalogFacets`) per normalised request, so each is searched and encoded once per process; a repeated request
/// is answered from memory, and with a matching `If-None-Match` as an empty 304, before the generated code decodes anything.
///
/// Every catalogue 200 gets its strong entity tag here, from a digest of the bytes sent (as ``PublishedBodyMap``'s),
/// so the tag changes whenever the answer does: new data, or a release that maps, ranks or counts differently. This
/// is also the only place that answers 304. Requests the reader does not recognise (``resource(operationID:path:)``
/// is `nil`) are tagged and answered the same way, but not kept.
///
/// The catalogue is built once per process (``WorkoutEngine``) and changes only with a new build or migration, so an
/// entry never goes stale while the process lives. Only 200 answers are kept: errors (422, 404) always go to the
/// handler. The cache holds at most ``maximumEntries`` answers and ``maximumBytes`` bytes; past either, it drops
/// arbitrary entries, which are encoded again when asked for. An answer whose known length exceeds
/// ``maximumBytes`` goes out untouched, without a tag (none does: a page holds at most 100 exercises).
///
/// Runs inside `HeaderEncodingMiddleware`, so the stored headers are the runtime's and are decoded on the way out
/// exactly as a fresh answer's are.
struct CatalogueResponseCache: ServerMiddleware {
    /// Clients and shared caches may reuse an answer for five minutes, then revalidate with `If-None-Match` (a 304
    /// costs a lookup): a server upgrade that changes the catalogue shows within five minutes.
    static let cacheControl = "public, max-age=300"
    static let maximumEntries = 4096
    static let maximumBytes = 64 * 1024 * 1024
    static let operations: Set<String> = ["listExercises", "getExercise", "getExerciseGuide", "getCatalogFacets"]

    /// The strong entity tag of an answer with these bytes: 32 hex digits of their SHA-256.
    static func entityTag(of body: some DataProtocol) -> String {
        let digest = SHA256.hash(data: body).prefix(16).map { String(format: "%02x", $0) }.joined()
        return "\"catalogue-\(digest)\""
    }

    /// The stored answers, shared by every request of one application, keyed by
    /// ``CatalogueResource/canonicalDescription``.
    typealias Store = EncodedResponseStore<String>

    static func makeStore() -> Store { Store(maximumEntries: maximumEntries, maximumBytes: maximumBytes) }

    let store: Store

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, Self.operations.contains(operationID) else {
            return try await next(request, body, metadata)
        }
        let resource = Self.resource(operationID: operationID, path: request.path)
        let condition = request.headerFields[.ifNoneMatch]
        let key = resource?.canonicalDescription
        if let key, let entry = store[key] {
            return Self.answer(entry, condition: condition)
        }
        let (response, responseBody) = try await next(request, body, metadata)
        guard response.status == .ok, let responseBody,
            var entry = try await EncodedResponse.collecting(response, body: responseBody, upTo: Self.maximumBytes)
        else {
            return (response, responseBody)
        }
        entry.response.headerFields[.eTag] = Self.entityTag(of: entry.body)
        if let key { store.insert(entry, for: key) }
        return Self.answer(entry, condition: condition)
    }

    private static func answer(_ entry: EncodedResponse, condition: String?) -> (HTTPResponse, HTTPBody?) {
        if let condition, let tag = entry.response.headerFields[.eTag],
            FormaAPIHandler.entityTag(tag, matchesAnyOf: condition)
        {
            var headers = HTTPFields()
            for name in [HTTPField.Name.eTag, .cacheControl] {
                headers[name] = entry.response.headerFields[name]
            }
            return (HTTPResponse(status: .notModified, headerFields: headers), nil)
        }
        return entry.reply
    }

    /// The normalised resource a catalogue request asks for; `nil` for other operations and for requests the
    /// handler refuses or that this reader does not spell as the generated code does (those are not cached).
    ///
    /// Query values are read as the OpenAPI runtime reads `form` parameters (``FormQuery``).
    static func resource(operationID: String, path: String?) -> CatalogueResource? {
        guard let path else { return nil }
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        switch operationID {
        case "getCatalogFacets":
            return .facets
        case "getExercise":
            guard let id = parts.first?.split(separator: "/", omittingEmptySubsequences: false).last, !id.isEmpty
            else { return nil }
            return .exercise(String(id))
        case "getExerciseGuide":
            // …/exercises/{id}/guide
            guard let segments = parts.first?.split(separator: "/", omittingEmptySubsequences: false),
                segments.count >= 2, segments.last == "guide", !segments[segments.count - 2].isEmpty
            else { return nil }
            return .guide(String(segments[segments.count - 2]))
        case "listExercises":
            guard let values = FormQuery.values(in: path) else { return nil }
            func single(_ name: String) -> String?? {
                guard let all = values[name] else { return .some(nil) }
                return all.count == 1 ? .some(all[0]) : nil
            }
            func integer(_ name: String) -> Int?? {
                guard let raw = single(name) else { return nil }
                guard let raw else { return .some(nil) }
                return Int(raw).map { .some($0) }
            }
            guard let text = single("q"), let primaryText = single("primaryOnly"), let page = integer("page"),
                let perPage = integer("perPage")
            else { return nil }
            var primaryOnly: Bool?
            if let primaryText {
                guard let parsed = Bool(primaryText) else { return nil }
                primaryOnly = parsed
            }
            guard
                let query = try? CatalogueQuery(
                    categories: values["category"], muscles: values["muscle"], primaryOnly: primaryOnly,
                    equipment: values["equipment"], levels: values["level"], forces: values["force"],
                    mechanics: values["mechanic"], text: text, page: page, perPage: perPage)
            else { return nil }
            return .search(query)
        default:
            return nil
        }
    }
}
