import FormaAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every answer of 400 and above into ``FormaError/server(status:title:detail:fields:)`` from its problem
/// document, before the generated client sees it, so call sites only handle success.
struct ProblemMiddleware: ClientMiddleware {
    static let maximumProblemBytes = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var data = Data()
        if let responseBody {
            data = (try? await Data(collecting: responseBody, upTo: Self.maximumProblemBytes)) ?? Data()
        }
        throw Self.error(status: response.status.code, reason: response.status.reasonPhrase, body: data)
    }

    /// The error for an answer with this status and body, read as the contract's `Problem` schema; a body that is
    /// not one gives the status's reason phrase.
    static func error(status: Int, reason: String, body: Data) -> FormaError {
        let document = try? JSONDecoder().decode(Components.Schemas.Problem.self, from: body)
        switch (document?._type, document?.currentPrice, document?.balance) {
        case ("urn:forma:problem:price-changed", let price?, _): return .purchaseRefused(.priceChanged(currentPrice: price))
        case ("urn:forma:problem:insufficient-points", _, let balance?):
            return .purchaseRefused(.insufficientPoints(balance: balance))
        default: break
        }
        return .server(
            status: status, title: document?.title ?? reason, detail: document?.detail,
            fields: (document?.errors ?? []).map { FormaError.FieldProblem(field: $0.field, detail: $0.detail) })
    }
}

/// Adds the person's token to each request; on a 401 it gets a fresh token once and retries.
struct TokenMiddleware: ClientMiddleware {
    let tokens: TokenSource

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        let token = try await tokens.current()
        request.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status == .unauthorized, await tokens.canRenew else { return (response, responseBody) }
        // The token expired or was revoked under us: one retry with a new one. Request bodies here are small
        // buffered JSON, which can be sent again.
        let renewed = try await tokens.renew(after: token)
        request.headerFields[.authorization] = "Bearer \(renewed)"
        return try await next(request, body, baseURL)
    }
}

/// Sends `If-None-Match` as the plain header value it is.
///
/// The OpenAPI runtime writes header values as URI components, so an entity tag's quotes would leave as `%22`
/// (apple/swift-openapi-generator#857); the server's `HeaderEncodingMiddleware` undoes the same for its answers.
struct PlainHeaderMiddleware: ClientMiddleware {
    static let plainHeaders: [HTTPField.Name] = [.ifNoneMatch]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in Self.plainHeaders {
            if let value = request.headerFields[name], let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}

/// Sends the company API key, for `POST /v1/sessions`.
struct APIKeyMiddleware: ClientMiddleware {
    static let field = HTTPField.Name("X-Forma-Key")!
    let apiKey: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[Self.field] = apiKey
        return try await next(request, body, baseURL)
    }
}

/// Where user tokens come from: a company API key exchanged with `POST /v1/sessions`, or tokens the host's back
/// end hands over. Tokens are renewed a minute before they expire.
actor TokenSource {
    enum Origin {
        /// Exchanges the company key for a token and its expiry.
        case apiKey(exchange: @Sendable () async throws -> (token: String, expiresAt: Date))
        case provided(renew: (@Sendable () async throws -> String)?)
    }

    private let origin: Origin
    private var token: String?
    private var expiresAt: Date?
    private var renewal: Task<String, any Error>?

    init(origin: Origin, token: String? = nil) {
        self.origin = origin
        self.token = token
    }

    var canRenew: Bool {
        switch origin {
        case .apiKey: true
        case .provided(let renew): renew != nil
        }
    }

    func current() async throws -> String {
        if let token, expiresAt.map({ $0.timeIntervalSinceNow > 60 }) ?? true { return token }
        return try await renew(after: token)
    }

    /// A new token, unless another caller already replaced `stale`; concurrent callers share one renewal.
    func renew(after stale: String?) async throws -> String {
        if let token, token != stale { return token }
        if let renewal { return try await renewal.value }
        let origin = self.origin
        let task = Task { () async throws -> (String, Date?) in
            switch origin {
            case .apiKey(let exchange):
                let grant = try await exchange()
                return (grant.token, grant.expiresAt)
            case .provided(let renew):
                guard let renew else {
                    throw FormaError.server(
                        status: 401, title: "Unauthorized",
                        detail: "the token is no longer valid and no way to renew it was given", fields: [])
                }
                return (try await renew(), nil)
            }
        }
        let shared = Task { () async throws -> String in try await task.value.0 }
        renewal = shared
        defer { renewal = nil }
        let (token, expiresAt) = try await task.value
        self.token = token
        self.expiresAt = expiresAt
        return token
    }
}
