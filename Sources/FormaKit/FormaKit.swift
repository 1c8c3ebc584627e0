// FormaKit: the Swift SDK for host apps. The client generated from `openapi.yaml` (internal to this module) is
// wrapped by a small hand-written public API, so generated names never reach an app.
import FormaAPI
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

/// A Forma server, seen as one person of one company.
///
/// ```swift
/// let forma = FormaKit(baseURL: URL(string: "https://forma.example.com")!, apiKey: key, companyName: "Acme",
///                      userId: "user-42")
/// let workout = try await forma.generateWorkout(.muscles(["quadriceps"], minutes: 20))
/// ```
///
/// The API-key initialiser exchanges the key for short-lived user tokens (`POST /v1/sessions`) and renews them before
/// they expire; prefer the token initialiser in apps, with tokens from your own back end, so the key never ships.
public final class FormaKit: Sendable {
    public let baseURL: URL
    public let companyName: String
    /// The host's own id for the person, when known.
    public let userId: String?
    /// Where pictures (the avatar) are kept between loads; see ``avatarImage()``.
    public let imageCache: ImageCache
    let tokens: TokenSource
    let client: Client

    /// Signs in as `userId` of the company with its API key (created on the server on first sight).
    ///
    /// `imageCache` keeps pictures between loads; give it a directory (``ImageCache/init(directory:memoryLimitBytes:now:)``)
    /// to keep them across launches. The default keeps them in memory only.
    public init(
        baseURL: URL, apiKey: String, companyName: String, userId: String, transport: (any ClientTransport)? = nil,
        imageCache: ImageCache = ImageCache()
    ) {
        let transport = transport ?? URLSessionTransport()
        let sessions = Client(
            serverURL: baseURL, transport: transport, middlewares: [ProblemMiddleware(), APIKeyMiddleware(apiKey: apiKey)])
        let tokens = TokenSource(origin: .apiKey(exchange: {
            let output = try await sessions.createSession(body: .json(.init(userId: userId, company: companyName)))
            let grant = try output.created.body.json
            return (grant.token, grant.expiresAt)
        }))
        self.baseURL = baseURL
        self.companyName = companyName
        self.userId = userId
        self.imageCache = imageCache
        self.tokens = tokens
        client = Client(
            serverURL: baseURL, transport: transport,
            middlewares: [ProblemMiddleware(), PlainHeaderMiddleware(), TokenMiddleware(tokens: tokens)])
    }

    /// Uses a user token from your back end; `renewToken`, when given, is called for a new one when it is refused.
    public init(
        baseURL: URL, token: String, companyName: String, userId: String? = nil,
        renewToken: (@Sendable () async throws -> String)? = nil, transport: (any ClientTransport)? = nil,
        imageCache: ImageCache = ImageCache()
    ) {
        let tokens = TokenSource(origin: .provided(renew: renewToken), token: token)
        self.baseURL = baseURL
        self.companyName = companyName
        self.userId = userId
        self.imageCache = imageCache
        self.tokens = tokens
        client = Client(
            serverURL: baseURL, transport: transport ?? URLSessionTransport(),
            middlewares: [ProblemMiddleware(), PlainHeaderMiddleware(), TokenMiddleware(tokens: tokens)])
    }

    /// A token for the person, renewed when needed: for the embed page's configuration or a live session.
    public func currentToken() async throws(FormaError) -> String {
        try await call { _ in try await self.tokens.current() }
    }

    // MARK: Catalogue

    public func exercises(_ query: ExerciseQuery = ExerciseQuery()) async throws(FormaError) -> ExercisePage {
        try await call { client in
            let output = try await client.listExercises(query: .init(
                category: query.categories.isEmpty ? nil : query.categories,
                muscle: query.muscles.isEmpty ? nil : query.muscles,
                primaryOnly: query.primaryMusclesOnly ? true : nil,
                equipment: query.equipment.isEmpty ? nil : query.equipment,
                level: query.levels.isEmpty ? nil : query.levels,
                q: query.text, page: query.page, perPage: query.perPage))
            return ExercisePage(try output.ok.body.json)
        }
    }

    public func exercise(id: String) async throws(FormaError) -> Exercise {
        try await call { client in
            Exercise(try await client.getExercise(path: .init(id: id)).ok.body.json)
        }
    }

    public func catalogueFacets() async throws(FormaError) -> CatalogueFacets {
        try await call { client in CatalogueFacets(try await client.getCatalogFacets().ok.body.json) }
    }

    // MARK: Workouts

    public func generateWorkout(_ request: WorkoutRequest) async throws(FormaError) -> Workout {
        try await call { client in
            let body = try Components.Schemas.WorkoutGenerationRequest(request)
            return try Workout(try await client.generateWorkout(body: .json(body)).created.body.json)
        }
    }

    public func workout(id: String) async throws(FormaError) -> Workout {
        try await call { client in try Workout(try await client.getWorkout(path: .init(id: id)).ok.body.json) }
    }

    public func workouts(_ status: WorkoutListStatus, limit: Int? = nil) async throws(FormaError) -> [WorkoutSummary] {
        try await call { client in
            guard let payload = Operations.ListWorkouts.Input.Query.StatusPayload(rawValue: status.rawValue) else {
                throw FormaError.invalidArgument(field: "status", message: "unknown status '\(status.rawValue)'")
            }
            let output = try await client.listWorkouts(query: .init(status: payload, limit: limit))
            return try output.ok.body.json.items.map { item throws(FormaError) in try WorkoutSummary(item) }
        }
    }

    public func startWorkout(id: String) async throws(FormaError) -> WorkoutRun {
        try await call { client in
            try WorkoutRun(try await client.startWorkout(path: .init(id: id)).created.body.json)
        }
    }

    public func pauseWorkout(id: String) async throws(FormaError) -> WorkoutRun {
        try await call { client in try WorkoutRun(try await client.pauseWorkout(path: .init(id: id)).ok.body.json) }
    }

    public func resumeWorkout(id: String) async throws(FormaError) -> WorkoutRun {
        try await call { client in try WorkoutRun(try await client.resumeWorkout(path: .init(id: id)).ok.body.json) }
    }

    public func quitWorkout(id: String) async throws(FormaError) -> WorkoutRun {
        try await call { client in try WorkoutRun(try await client.quitWorkout(path: .init(id: id)).ok.body.json) }
    }

    /// Finishes the run; exercises counted by a live session may be left out (the server fills them in).
    public func saveWorkout(id: String, results: [ExerciseResult] = []) async throws(FormaError) -> WorkoutRun {
        try await call { client in
            let body = Components.Schemas.WorkoutSaveRequest(results: results.map(Components.Schemas.ExerciseResult.init))
            return try WorkoutRun(try await client.saveWorkout(path: .init(id: id), body: .json(body)).ok.body.json)
        }
    }

    // MARK: Plans

    /// Plans, of one category (`Strength`, `Cardio`, `Rehabilitation`) or all.
    public func plans(category: String? = nil) async throws(FormaError) -> [PlanSummary] {
        try await call { client in
            var payload: Operations.ListPlans.Input.Query.CategoryPayload?
            if let category {
                guard let value = Operations.ListPlans.Input.Query.CategoryPayload(rawValue: category) else {
                    throw FormaError.invalidArgument(
                        field: "category", message: "must be Strength, Cardio or Rehabilitation (got '\(category)')")
                }
                payload = value
            }
            return try await client.listPlans(query: .init(category: payload)).ok.body.json.items.map(PlanSummary.init)
        }
    }

    public func plan(id: String) async throws(FormaError) -> Plan {
        try await call { client in Plan(try await client.getPlan(path: .init(id: id)).ok.body.json) }
    }

    /// Enrols the person in a plan (again enrolling is harmless).
    public func enrol(inPlan id: String) async throws(FormaError) {
        try await call { client in
            switch try await client.enrolInPlan(path: .init(id: id)) {
            case .ok, .created: return
            default: throw FormaError.unexpectedResponse("enrolment answered neither 200 nor 201")
            }
        }
    }

    /// A workout of one session of a plan the person is enrolled in.
    public func workout(forPlan planID: String, session sessionID: String) async throws(FormaError) -> Workout {
        try await call { client in
            let output = try await client.createPlanWorkout(path: .init(id: planID), body: .json(.init(sessionId: sessionID)))
            return try Workout(try output.created.body.json)
        }
    }

    // MARK: Profile and challenges

    public func profile() async throws(FormaError) -> Profile {
        try await call { client in Profile(try await client.getProfile().ok.body.json) }
    }

    public func updateProfile(_ update: ProfileUpdate) async throws(FormaError) -> Profile {
        try await call { client in
            let body = Components.Schemas.ProfileUpdate(update)
            return Profile(try await client.updateProfile(body: .json(body)).ok.body.json)
        }
    }

    public func leaderboard(exercise: String, seconds: Int, limit: Int? = nil) async throws(FormaError) -> Leaderboard {
        try await call { client in
            let output = try await client.getChallengeLeaderboard(
                query: .init(exercise: exercise, seconds: seconds, limit: limit))
            return Leaderboard(try output.ok.body.json)
        }
    }

    /// The server's body map (`GET /v1/body-map`), for drawing with ``PainMapView``; ``PainMap/standard`` is the
    /// same map without a request.
    public func bodyMap() async throws(FormaError) -> PainMap {
        try await call { client in
            try PainMap(try await client.getBodyMap().ok.body.json)
        }
    }

    /// The person's quote of the day in `category` (the server's default, `inspirational`, when `nil`); see
    /// ``quoteCategories()``.
    public func quoteOfTheDay(category: String? = nil) async throws(FormaError) -> QuoteOfTheDay {
        try await call { client in
            QuoteOfTheDay(try await client.getQuoteOfTheDay(query: .init(category: category)).ok.body.json)
        }
    }

    /// The categories ``quoteOfTheDay(category:)`` accepts, sorted.
    public func quoteCategories() async throws(FormaError) -> [String] {
        try await call { client in try await client.listQuoteCategories().ok.body.json.items.map(\.name) }
    }

    /// The person's profile picture (`GET /v1/me/avatar`) through ``imageCache``: the first load downloads it, later
    /// ones ask with `If-None-Match` and get an empty `304` while it is unchanged (the server sends
    /// `Cache-Control: private, no-cache`), and a new picture is downloaded as soon as it is set. `nil` when the
    /// person has none (the cached copy is then forgotten).
    public func avatarImage() async throws(FormaError) -> CachedImage? {
        let key = avatarCacheKey
        do {
            return try await call { client in
                try await self.imageCache.image(for: key) { ifNoneMatch in
                    switch try await client.getAvatar(headers: .init(ifNoneMatch: ifNoneMatch)) {
                    case .ok(let answer):
                        let (type, body): (String, HTTPBody) = switch answer.body {
                        case .png(let body): ("image/png", body)
                        case .jpeg(let body): ("image/jpeg", body)
                        }
                        return .ok(
                            data: try await Data(collecting: body, upTo: Self.maximumImageBytes), contentType: type,
                            eTag: answer.headers.eTag, cacheControl: answer.headers.cacheControl)
                    case .notModified(let answer):
                        return .notModified(eTag: answer.headers.eTag, cacheControl: answer.headers.cacheControl)
                    case .undocumented(let status, _):
                        throw FormaError.unexpectedResponse("the avatar answered HTTP \(status)")
                    default:
                        throw FormaError.unexpectedResponse("the avatar answered an error without a problem document")
                    }
                }
            }
        } catch .server(404, _, _, _) {
            await imageCache.remove(key)
            return nil
        }
    }

    /// Largest picture read (the server accepts 2 MiB by default).
    static let maximumImageBytes = 8 * 1024 * 1024

    /// One person's avatar on one server: a shared cache directory never mixes two people's pictures.
    var avatarCacheKey: String {
        "avatar \(baseURL.absoluteString) \(companyName) \(userId ?? "token-user")"
    }

    // MARK: Plumbing

    /// Runs one call and reports every failure as a ``FormaError``.
    func call<T: Sendable>(_ body: @Sendable (Client) async throws -> T) async throws(FormaError) -> T {
        do {
            return try await body(client)
        } catch let error as FormaError {
            throw error
        } catch let error as ClientError {
            if let underlying = error.underlyingError as? FormaError { throw underlying }
            if error.response == nil {
                throw FormaError.transport(String(describing: error.underlyingError))
            }
            throw FormaError.unexpectedResponse(String(describing: error.underlyingError))
        } catch {
            throw FormaError.unexpectedResponse(String(describing: error))
        }
    }
}
