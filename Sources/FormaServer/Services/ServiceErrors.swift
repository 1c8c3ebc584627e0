import FormaCore
import Foundation

// The errors stores, services and handlers throw. None of them knows about HTTP: the edge maps each case to a
// problem document in one place (`APIProblem+Translation.swift`), and docs/errors.md lists the answers.

/// An error that says what is wrong in Forma's terms, as opposed to a failure of the database or the network.
protocol DomainError: Error {}

/// Input the caller has to fix, named by the field or parameter at fault.
enum InputError: DomainError, Sendable, Equatable {
    /// Body fields (or headers) that break the rules; every issue found, not only the first.
    case invalid([FieldIssue])
    /// A query or path parameter that cannot be used.
    case badParameter(FieldIssue)
    /// The body is not of a media type the operation reads (judged by its bytes where the type says little).
    case unsupportedMediaType(String)

    static func invalid(field: String, _ message: String) -> InputError {
        .invalid([FieldIssue(field: field, message: message)])
    }
}

extension HostUserID {
    /// The host app's user id unchanged; ``InputError/invalid(_:)`` naming `field` when it breaks FormaCore's rules.
    static func checked(_ raw: String, field: String) throws(InputError) -> String {
        switch validate(raw, field: field) {
        case .success(let valid): valid
        case .failure(let issue): throw .invalid([issue])
        }
    }
}

/// Who the request is from could not be established, or may not do this.
enum AuthenticationError: DomainError, Sendable, Equatable {
    /// Neither a user token nor an API key with a host user id.
    case missingCredentials
    /// A company operation without `X-Forma-Key`.
    case missingAPIKey
    /// `X-Forma-Key` without `X-Forma-User` where a person is needed.
    case missingHostUser
    /// Sign-out without a bearer token.
    case missingBearerToken
    case invalidAPIKey
    case invalidToken
    case expiredToken
    /// A sign-in whose email or password is wrong (one answer for both).
    case wrongEmailOrPassword
    /// A token and an API key of different companies in one request.
    case companiesDiffer
    /// A body names another company than the API key's.
    case otherCompany(named: String)
}

/// Something the request names does not exist, or is not the caller's (the answer is the same, so that ids of other
/// people cannot be probed).
enum NotFoundError: DomainError, Sendable, Equatable {
    case exercise(String)
    /// An exercise named in the path of a tracking or fitness operation.
    case trackedExercise(String)
    case workout(String)
    case plan(String)
    case planEnrolment(planID: String)
    case fitnessTest(String)
    case fitnessTestExercise(testID: String, exerciseID: String)
    case avatar
    case painReport(String)
    /// No reminder under this key.
    case reminder(String)
    /// The company has no webhook.
    case webhook
    case trainerConversation(String)
    case planSessionPain(String)
    /// No workout theme with this id.
    case theme(String)
    case goal(String)
    /// No competition with this id in the caller's company.
    case competition(String)
    /// No item with this id in the company's catalogue.
    case item(String)
    /// No person with this user id in the caller's company.
    case person(String)
    /// The person has sent no gift (or none since their gifts' records were removed).
    case gift
    /// The person has not asked to follow the caller.
    case followRequest(String)
    /// No saved run with this id that the caller may see (theirs, or of someone they follow with approval).
    case run(String)
}

/// The request does not fit the current state of what it changes.
enum StateError: DomainError, Sendable, Equatable {
    case emailTaken
    /// A start while another workout is in progress or paused.
    case workoutInProgress
    /// A delete of a workout whose run is in progress.
    case workoutBeingDone
    /// A run action the run's state does not allow, with the reason.
    case invalidAction(String)
    case notEnrolled(planID: String)
    case sessionLocked(sessionID: String, level: Int, unlockedLevel: Int)
    /// A new reminder key for a person who holds the most reminders allowed.
    case tooManyReminders(limit: Int)
    /// A new theme for a person who holds the most themes allowed.
    case tooManyThemes(limit: Int)
    /// A new goal for a person who holds the most goals allowed.
    case tooManyGoals(limit: Int)
    /// A goal that notifies, for a person whose reminders are full: its reminder cannot be set.
    case goalReminderFull(limit: Int)
    /// Joining or leaving a competition, or changing it, after it ended: its results are final.
    case competitionEnded(String)
    /// A new competition for a company holding the most of its own not yet ended.
    case tooManyCompetitions(limit: Int)
    /// A change or removal of a built-in competition through the company API.
    case competitionBuiltIn(String)
    /// A change of what a competition counts, or of its start, once it has started (the field named).
    case competitionStarted(field: String)
}

/// The server cannot answer now; the client may try again.
enum ServiceError: DomainError, Sendable, Equatable {
    /// The database failed while doing what the message describes ("Unable to start the workout").
    case storageFailed(String)
    /// The database is gone (the server is stopping).
    case databaseUnavailable
    /// The health check's query failed.
    case databaseNotAnswering
    /// The instance has no default company (its migrations have not run).
    case noDefaultCompany
    /// Too many attempts; try again after this many seconds.
    case throttled(retryAfterSeconds: Int, reason: String)
    /// An invariant of the server itself broke (a stored row without an id, a database without SQL); a bug.
    case broken(String)
}

extension WorkoutGenerationError: DomainError {}
extension PainAwareGenerationError: DomainError {}
extension TrainerReplyError: DomainError {}
