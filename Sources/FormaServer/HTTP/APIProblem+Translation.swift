import FormaCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIProblem {
    /// The problem to answer for any error thrown while serving a request: the one place where Forma's domain errors
    /// become HTTP.
    ///
    /// Decoding failures become 400 (malformed JSON, or a bad parameter on a request without a body) or 422 (a body
    /// field of the wrong type, missing or null), naming the field by its JSON path. Errors the OpenAPI runtime
    /// classifies itself keep its status (415 for a wrong content type, for example). Anything unknown is a 500.
    init(_ error: any Error, requestHasBody: Bool) {
        switch error {
        case let problem as APIProblem: self = problem
        case let error as InputError: self = Self.problem(for: error)
        case let error as AuthenticationError: self = Self.problem(for: error)
        case let error as NotFoundError: self = .notFound(Self.detail(for: error))
        case let error as StateError: self = Self.problem(for: error)
        case let error as ServiceError: self = Self.problem(for: error)
        case let error as WorkoutGenerationError: self = Self.problem(for: error)
        case let error as PainAwareGenerationError: self = Self.problem(for: error)
        case let error as TrainerReplyError: self = Self.problem(for: error)
        case let error as PointsError: self = Self.problem(for: error)
        case let error as CompanyError: self = .validation([FieldIssue(field: "company", message: error.message)])
        case let error as DecodingError: self = Self.translating(error, requestHasBody: requestHasBody, query: nil)
        case let serverError as ServerError:
            if let underlying = serverError.underlyingError as? DecodingError {
                self = Self.translating(underlying, requestHasBody: requestHasBody, query: serverError.request.query)
            } else {
                // A handler's error keeps its own answer; what the runtime refused keeps the runtime's status.
                let mapped = APIProblem(serverError.underlyingError, requestHasBody: requestHasBody)
                self = mapped.status == 500 ? Self.runtimeProblem(serverError) : mapped
            }
        case let error where DatabaseBusy.matches(error):
            self = .serviceUnavailable("the database is busy; try again", retryAfterSeconds: 1)
        default: self = .internalError
        }
    }

    /// What the OpenAPI runtime itself refused (a wrong content type, a missing parameter), with its status.
    private static func runtimeProblem(_ serverError: ServerError) -> APIProblem {
        switch Int(serverError.httpStatus.code) {
        case 415: .unsupportedMediaType(serverError.causeDescription)
        case 400..<500: .badRequest(serverError.causeDescription)
        default: .internalError
        }
    }

    private static func problem(for error: InputError) -> APIProblem {
        switch error {
        case .invalid(let issues): .validation(issues)
        case .badParameter(let issue): .badRequest(issue.message, field: issue.field)
        case .unsupportedMediaType(let detail): .unsupportedMediaType(detail)
        }
    }

    private static func problem(for error: AuthenticationError) -> APIProblem {
        switch error {
        case .missingCredentials, .missingAPIKey, .missingHostUser, .missingBearerToken, .invalidAPIKey, .invalidToken,
            .expiredToken, .wrongEmailOrPassword:
            .unauthorized(detail(for: error))
        case .companiesDiffer, .otherCompany: .forbidden(detail(for: error))
        }
    }

    /// The detail of a 401 or 403: what credential is missing or wrong, and what to send instead.
    static func detail(for error: AuthenticationError) -> String {
        let key = Authentication.apiKeyHeader
        let user = Authentication.hostUserHeader
        return switch error {
        case .missingCredentials: "send a user token as 'Authorization: Bearer <token>', or \(key) with \(user)"
        case .missingAPIKey: "send the company API key in the \(key) header"
        case .missingHostUser: "with \(key), send the host app's user id in \(user), or use a user token"
        case .missingBearerToken: "send the token to revoke as 'Authorization: Bearer <token>'"
        case .invalidAPIKey: "the API key is not valid or has been revoked"
        case .invalidToken: "the token is not valid or has been revoked"
        case .expiredToken: "the token has expired; sign in or create a new session"
        case .wrongEmailOrPassword: "the email or the password is wrong"
        case .companiesDiffer: "the token and the API key belong to different companies"
        case .otherCompany(let name): "the API key belongs to another company than '\(name)'"
        }
    }

    /// The detail of a 404, in the words docs/errors.md shows.
    static func detail(for error: NotFoundError) -> String {
        switch error {
        case .exercise(let id): "no exercise has the id '\(id)'"
        case .trackedExercise(let id): "no exercise '\(id)'"
        case .workout(let id): "no workout '\(id)'"
        case .plan(let id): "no plan '\(id)'"
        case .planEnrolment(let planID): "you are not enrolled in plan '\(planID)'"
        case .fitnessTest(let id): "no fitness test '\(id)'"
        case .fitnessTestExercise(let testID, let exerciseID): "fitness test '\(testID)' has no exercise '\(exerciseID)'"
        case .avatar: "no profile picture has been uploaded"
        case .painReport(let id): "no pain report '\(id)'"
        case .reminder(let key): "no reminder '\(key)'"
        case .webhook: "the company has no webhook; set one with PUT /v1/company/webhook"
        case .trainerConversation(let id): "no trainer conversation '\(id)'"
        case .planSessionPain(let id): "no pain record '\(id)' of a session of this plan"
        case .theme(let id): "no theme '\(id)'"
        case .goal(let id): "no goal '\(id)'"
        case .competition(let id): "no competition '\(id)'"
        case .item(let id): "no item '\(id)'"
        case .person(let id): "no person '\(id)' in this company"
        case .gift: "you have not sent a gift yet"
        case .followRequest(let userId): "'\(userId)' has not asked to follow you"
        case .run(let id): "no saved workout run '\(id)' of someone you follow"
        }
    }

    private static func problem(for error: StateError) -> APIProblem {
        switch error {
        case .emailTaken:
            return .conflict("an account with this email already exists; sign in instead", field: "email")
        case .workoutInProgress:
            return APIProblem(
                status: 409, kind: "workout-in-progress", title: "Workout already in progress",
                detail: "finish, save or quit the workout in progress before starting another")
        case .workoutBeingDone: return .conflict("the workout is in progress; quit or save it before deleting it")
        case .invalidAction(let reason):
            return APIProblem(status: 409, kind: "invalid-action", title: "Action is invalid", detail: reason)
        case .notEnrolled(let planID): return .conflict("enrol in plan '\(planID)' before doing its sessions")
        case .sessionLocked(let sessionID, let level, let unlocked):
            return .conflict(
                "session '\(sessionID)' belongs to level \(level), which is locked: finish level \(unlocked) first",
                field: "sessionId")
        case .tooManyReminders(let limit):
            return .conflict(
                "you already have \(limit) reminders; delete one or reuse its key to replace it", field: "key")
        case .tooManyThemes(let limit):
            return .conflict("you already have \(limit) themes; remove one before adding another")
        case .tooManyGoals(let limit):
            return .conflict("you already have \(limit) goals; delete one first")
        case .goalReminderFull(let limit):
            return .conflict(
                "you already have \(limit) reminders, so this goal's cannot be set; delete a reminder or set notify "
                    + "to false", field: "notify")
        case .competitionEnded(let id):
            return .conflict("competition '\(id)' has ended; its results are final")
        case .tooManyCompetitions(let limit):
            return .conflict("the company already has \(limit) competitions that have not ended; delete one first")
        case .competitionBuiltIn(let id):
            return .conflict("competition '\(id)' is built in; it cannot be changed or deleted")
        case .competitionStarted(let field):
            return .conflict("the competition has started, so \(field) can no longer change", field: field)
        }
    }

    private static func problem(for error: ServiceError) -> APIProblem {
        switch error {
        case .storageFailed(let message): .serviceUnavailable(message, retryAfterSeconds: 2)
        case .databaseUnavailable: .serviceUnavailable("the server is stopping; try again")
        case .databaseNotAnswering: .serviceUnavailable("the database does not answer")
        case .noDefaultCompany: .serviceUnavailable("the instance has no default company; run `forma migrate`")
        case .throttled(let seconds, let reason): .tooManyRequests(retryAfterSeconds: seconds, detail: reason)
        case .broken: .internalError
        }
    }

    /// The problem for a request the generator refused.
    private static func problem(for error: WorkoutGenerationError) -> APIProblem {
        switch error {
        case .invalidRequest(let invalid):
            return .validation([FieldIssue(
                field: WorkoutRequestMapping.apiField(invalid.field), message: WorkoutRequestMapping.message(for: invalid))])
        case .impossible(let impossibility):
            let issues = impossibility.suggestions.map {
                FieldIssue(
                    field: WorkoutRequestMapping.apiField($0.field), message: WorkoutRequestMapping.message(for: $0))
            }
            let remedy = issues.isEmpty
                ? "no single change is enough: relax several fields"
                : "to fix it, " + issues.map(\.message).joined(separator: ", or ")
            return APIProblem(
                status: 422, kind: "workout-impossible", title: "No workout fits this request",
                detail: impossibility.problem + "; " + remedy, issues: issues)
        }
    }

    /// The problem for a request the generator refused around the person's pain: a 422 naming the regions.
    private static func problem(for error: PainAwareGenerationError) -> APIProblem {
        switch error {
        case .invalidRequest(let invalid): return problem(for: WorkoutGenerationError.invalidRequest(invalid))
        case .impossible(let impossibility): return problem(for: WorkoutGenerationError.impossible(impossibility))
        case .painLeavesNothing(let regions, _):
            return APIProblem(
                status: 422, kind: "pain-leaves-nothing", title: "No workout fits around your pain",
                detail: error.description,
                issues: regions.map { FieldIssue(field: "pain.\($0.region.rawValue)", message: $0.explanation) })
        }
    }

    /// A trainer reply that does not fit: 409 when the conversation has finished or moved past the question the
    /// reply names, else 422; both name the field (docs/trainer.md).
    private static func problem(for error: TrainerReplyError) -> APIProblem {
        let issue = FieldIssue(field: error.field, message: error.message)
        switch error.problem {
        case .conversationFinished:
            return APIProblem(
                status: 409, kind: "conversation-finished", title: "The conversation has finished",
                detail: error.message, issues: [issue])
        case .staleQuestion:
            return APIProblem(
                status: 409, kind: "stale-question", title: "The question has already been answered",
                detail: error.message, issues: [issue])
        case .empty, .notUnderstood, .unknownChoice, .outOfRange, .inThePast:
            return .validation([issue])
        }
    }

    private static func translating(_ error: DecodingError, requestHasBody: Bool, query: [(String, String)]?)
        -> APIProblem
    {
        func path(_ codingPath: [any CodingKey]) -> String {
            var result = ""
            for key in codingPath {
                if let index = key.intValue {
                    result += "[\(index)]"
                } else {
                    result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return result
        }
        let issue: FieldIssue
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            issue = FieldIssue(field: field, message: "is required")
        case .typeMismatch(let type, let context):
            var field = path(context.codingPath)
            if field.isEmpty, let query {
                field = queryParameter(failingToParseAs: type, in: query) ?? ""
            }
            issue = FieldIssue(field: field, message: "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            issue = FieldIssue(field: path(context.codingPath), message: "must be \(describe(type)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .badRequest("the body is not valid JSON: \(context.debugDescription)")
            }
            issue = FieldIssue(field: path(context.codingPath), message: "has a value that cannot be read")
        @unknown default:
            return .badRequest(String(describing: error))
        }
        if requestHasBody {
            return .validation([issue])
        }
        return .badRequest(issue.message, field: issue.field)
    }

    /// The query parameters openapi.yaml declares as integers and as booleans (a test holds these to the contract).
    static let integerQueryParameters: Set<String> = ["page", "perPage", "limit", "weeks", "seconds", "neighbours"]
    static let booleanQueryParameters: Set<String> = ["primaryOnly", "joined"]

    /// The query parameter the runtime could not read as `type`.
    ///
    /// The runtime decodes query parameters without a coding path, so the culprit is found again here: among the
    /// values that do not parse, a parameter the contract types as `type` comes first (in
    /// `status=completed&limit=99999999999999999999` it is `limit`, not the string parameter `status`).
    private static func queryParameter(failingToParseAs type: Any.Type, in query: [(String, String)]) -> String? {
        let failing = query.filter { !parses($0.1, as: type) }.map(\.0)
        let typed: Set<String> =
            switch type {
            case is Int.Type, is Int64.Type, is Int32.Type: integerQueryParameters
            case is Bool.Type: booleanQueryParameters
            default: []
            }
        return failing.first(where: typed.contains) ?? failing.first
    }

    /// Whether a query value reads as a scalar of this type, as the OpenAPI runtime would read it.
    private static func parses(_ value: String, as type: Any.Type) -> Bool {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type: Int(value) != nil
        case is Double.Type, is Float.Type: Double(value) != nil
        case is Bool.Type: value == "true" || value == "false"
        default: true
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default:
            String(describing: type).contains("Array") ? "an array" : "an object"
        }
    }
}

extension HTTPRequest {
    /// The decoded query items of the request's path, in order.
    var query: [(String, String)] {
        guard let path, let components = URLComponents(string: path) else { return [] }
        return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }
}
