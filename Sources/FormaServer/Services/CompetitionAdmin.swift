import FormaCore
import Fluent
import Foundation

/// A competition as a company and its operators see it (the company API and `forma competition …`).
public struct CompetitionRecord: Sendable, Equatable, Codable {
    public var id: UUID
    public var name: String
    public var description: String
    public var metric: String
    public var exerciseId: String?
    public var poseExercise: String?
    public var challengeSeconds: Int?
    /// The built-in series (`squats-30-days`); `nil` for the company's own.
    public var builtIn: String?
    /// Local `YYYY-MM-DDTHH:MM` in `timeZone`; `end` is exclusive.
    public var start: String
    public var end: String
    public var timeZone: String
    public var startsAt: Date
    public var endsAt: Date
    /// `upcoming`, `open` or `ended`.
    public var status: String
    public var createdAt: Date

    init(_ row: CompetitionModel, now: Date) throws {
        id = try row.requireID()
        name = row.name
        description = row.description
        metric = row.metric
        exerciseId = row.exerciseID
        poseExercise = row.poseExercise
        challengeSeconds = row.challengeSeconds
        builtIn = row.builtInKey.map { String($0.prefix { $0 != "/" }) }
        start = row.startLocal
        end = row.endLocal
        timeZone = row.timeZone
        startsAt = row.startsAt
        endsAt = row.endsAt
        status = CompetitionStatus(startsAt: row.startsAt, endsAt: row.endsAt, now: now).rawValue
        createdAt = row.createdAt
    }
}

/// The fields of a competition a company sends; `nil` leaves a field out (of a change: as it is).
public struct CompetitionFields: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var metric: String?
    public var exerciseID: String?
    public var challengeSeconds: Int?
    public var start: String?
    public var end: String?

    public init(
        name: String? = nil, description: String? = nil, metric: String? = nil, exerciseID: String? = nil,
        challengeSeconds: Int? = nil, start: String? = nil, end: String? = nil
    ) {
        self.name = name
        self.description = description
        self.metric = metric
        self.exerciseID = exerciseID
        self.challengeSeconds = challengeSeconds
        self.start = start
        self.end = end
    }
}

/// Defining, changing and removing a company's own competitions, and the time zone they are read in
/// (docs/competitions.md, "The company's competitions").
///
/// Handlers call the `companyID` forms and let their domain errors become problem documents; the CLI calls the
/// `companyName` forms, which turn every refusal into a ``CompanyError`` an operator can read.
public struct CompetitionAdmin: Sendable {
    let database: any Database
    let catalog: ExerciseCatalog
    let now: Date

    init(database: any Database, catalog: ExerciseCatalog, now: Date) {
        self.database = database
        self.catalog = catalog
        self.now = now
    }

    /// An admin over the bundled catalogue, at `now`.
    public init(database: any Database, now: Date = Date()) throws {
        self.init(database: database, catalog: try WorkoutEngine.bundled().catalog, now: now)
    }

    // MARK: By company id

    func create(companyID: UUID, _ fields: CompetitionFields) async throws -> CompetitionModel {
        let store = try await CompetitionStore.of(companyID: companyID, on: database, now: now)
        var missing: [FieldIssue] = []
        for (field, value) in [("name", fields.name), ("metric", fields.metric), ("start", fields.start),
            ("end", fields.end)] where value == nil
        {
            missing.append(FieldIssue(field: field, message: "is required"))
        }
        guard missing.isEmpty else { throw InputError.invalid(missing) }
        let definition = try validate(fields, in: store)
        return try await store.create(definition)
    }

    func list(companyID: UUID) async throws -> [CompetitionModel] {
        try await CompetitionStore.of(companyID: companyID, on: database, now: now).all(limit: 500)
    }

    func competition(companyID: UUID, id rawID: String) async throws -> CompetitionModel {
        try await CompetitionStore.of(companyID: companyID, on: database, now: now).competition(rawID)
    }

    /// Changes the fields `patch` sends. What a competition counts, and its start, are fixed once it has started;
    /// changing `metric` clears `exerciseId` and `challengeSeconds` unless they are sent too.
    func update(companyID: UUID, id rawID: String, _ patch: CompetitionFields) async throws -> CompetitionModel {
        let store = try await CompetitionStore.of(companyID: companyID, on: database, now: now)
        let row = try await store.competition(rawID)
        try checkChangeable(row)
        if row.startsAt <= now {
            let fixed: [(String, Bool)] = [
                ("metric", patch.metric.map { $0 != row.metric } ?? false),
                ("exerciseId", patch.exerciseID.map { $0 != row.exerciseID } ?? false),
                ("challengeSeconds", patch.challengeSeconds.map { $0 != row.challengeSeconds } ?? false),
                ("start", patch.start.map { $0 != row.startLocal } ?? false),
            ]
            if let field = fixed.first(where: \.1)?.0 { throw StateError.competitionStarted(field: field) }
        }
        let metricChanges = patch.metric.map { $0 != row.metric } ?? false
        let merged = CompetitionFields(
            name: patch.name ?? row.name, description: patch.description ?? row.description,
            metric: patch.metric ?? row.metric,
            exerciseID: metricChanges ? patch.exerciseID : patch.exerciseID ?? row.exerciseID,
            challengeSeconds: metricChanges ? patch.challengeSeconds : patch.challengeSeconds ?? row.challengeSeconds,
            start: patch.start ?? row.startLocal, end: patch.end ?? row.endLocal)
        return try await store.update(row, to: try validate(merged, in: store))
    }

    func delete(companyID: UUID, id rawID: String) async throws {
        let store = try await CompetitionStore.of(companyID: companyID, on: database, now: now)
        let row = try await store.competition(rawID)
        if row.builtInKey != nil { throw StateError.competitionBuiltIn(rawID) }
        try await store.delete(row)
    }

    /// Sets the zone the company's competitions are read in; `nil` or `UTC` for UTC.
    func setTimeZone(companyID: UUID, _ identifier: String?) async throws -> String {
        guard let identifier, identifier != "UTC" else {
            try await CompetitionStore.setTimeZone(nil, of: companyID, on: database)
            return "UTC"
        }
        guard IANATimeZone.zone(identifier) != nil else {
            throw InputError.invalid(field: "timeZone", IANATimeZone.message)
        }
        try await CompetitionStore.setTimeZone(identifier, of: companyID, on: database)
        return identifier
    }

    func timeZone(companyID: UUID) async throws -> String {
        try await CompetitionStore.timeZone(of: companyID, on: database) ?? "UTC"
    }

    private func checkChangeable(_ row: CompetitionModel) throws {
        let id = row.id?.uuidString.lowercased() ?? ""
        if row.builtInKey != nil { throw StateError.competitionBuiltIn(id) }
        if row.endsAt <= now { throw StateError.competitionEnded(id) }
    }

    private func validate(_ fields: CompetitionFields, in store: CompetitionStore) throws -> CompetitionDefinition {
        switch CompetitionRules.validate(
            name: fields.name ?? "", description: fields.description ?? "", metric: fields.metric ?? "",
            exerciseID: fields.exerciseID, challengeSeconds: fields.challengeSeconds, start: fields.start ?? "",
            end: fields.end ?? "", catalog: catalog, timeZone: store.timeZone, now: now)
        {
        case .success(let definition): return definition
        case .failure(let invalid): throw InputError.invalid(invalid.issues)
        }
    }

    // MARK: By company name (the CLI)

    public func create(companyName: String, _ fields: CompetitionFields) async throws -> CompetitionRecord {
        try await operatorFacing(companyName) { company in
            return try CompetitionRecord(try await create(companyID: company, fields), now: now)
        }
    }

    public func list(companyName: String) async throws -> [CompetitionRecord] {
        try await operatorFacing(companyName) { company in
            return try await list(companyID: company).map { try CompetitionRecord($0, now: now) }
        }
    }

    public func update(companyName: String, id: String, _ patch: CompetitionFields) async throws
        -> CompetitionRecord
    {
        try await operatorFacing(companyName) { company in
            return try CompetitionRecord(try await update(companyID: company, id: id, patch), now: now)
        }
    }

    public func delete(companyName: String, id: String) async throws {
        try await operatorFacing(companyName) { company in
            try await delete(companyID: company, id: id)
        }
    }

    public func setTimeZone(companyName: String, _ identifier: String?) async throws -> String {
        try await operatorFacing(companyName) { company in
            return try await setTimeZone(companyID: company, identifier)
        }
    }

    /// Runs `body` with the id of the company named `companyName`, as ``operatorFacing(_:)`` does.
    private func operatorFacing<T>(_ companyName: String, _ body: (UUID) async throws -> T) async throws -> T {
        try await operatorFacing { try await body(try await CompanyService.find(companyName, on: database).requireID()) }
    }

    /// Runs `body`, turning the domain errors of a refusal into a ``CompanyError`` with the API's words.
    private func operatorFacing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as InputError {
            throw CompanyError(message: APIProblem(error, requestHasBody: true).detail ?? "invalid input")
        } catch let error as StateError {
            throw CompanyError(message: APIProblem(error, requestHasBody: true).detail ?? "not possible now")
        } catch let error as NotFoundError {
            throw CompanyError(message: APIProblem.detail(for: error))
        }
    }
}
