import AsyncHTTPClient
import FormaCore
import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import SQLKit
import Vapor

/// Delivers due reminders to their company's webhook, inside `forma serve` (docs/reminders.md, "The worker").
///
/// Every round marks reminders first tried too late as missed, claims a batch of due ones, POSTs each (signed,
/// with a time-out) and records the outcome. Claims are atomic in the database, so any number of processes on
/// one database may run a worker: on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` in a transaction that stamps
/// the rows with a lease (`claimed_until`) and a claim token; on SQLite one conditional `UPDATE`. A process that
/// dies holding a claim leaves it to expire with its lease, and another process tries the reminder again. Results
/// are recorded only under the claim token, so a slow process whose lease ran out cannot overwrite a newer claim,
/// and a reminder set again meanwhile (new token-less row state) is not marked by a delivery of its old version.
///
/// "Now" is the application's ``FormaClock``; only the pause between rounds is real time.
public final class ReminderWorker: Sendable {
    let databases: DatabasePool
    let client: HTTPClient
    let clock: FormaClock
    let settings: ReminderSettings
    let secrets: WebhookSecrets
    let logger: Logger
    private let loop = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init(
        databases: DatabasePool, client: HTTPClient, clock: FormaClock, settings: ReminderSettings, logger: Logger
    ) {
        self.databases = databases
        self.client = client
        self.clock = clock
        self.settings = settings
        self.secrets = WebhookSecrets(keyBytes: settings.webhookSecretKey)
        self.logger = logger
    }

    /// Starts delivering in the background: a round now (reminders that fell due while the server was down), then
    /// one every ``ReminderSettings/pollIntervalSeconds``. Does nothing when already started.
    public func start() {
        loop.withLockedValue { task in
            guard task == nil else { return }
            let pause = Duration.milliseconds(Int64(settings.pollIntervalSeconds * 1000))
            task = Task { [self] in
                logger.info("reminder worker started")
                while !Task.isCancelled {
                    // A round of its own, which stopping does not cancel: what was posted gets its outcome recorded.
                    let round = Task { try await self.deliverDue() }
                    do {
                        _ = try await round.value
                    } catch {
                        logger.error("reminder round failed", metadata: ["error": .string(String(describing: error))])
                    }
                    try? await Task.sleep(for: pause)
                }
            }
        }
    }

    /// Stops the background loop and waits for it: the round in progress finishes (each POST within its time-out)
    /// and records its outcomes; no other round starts. Should a process die instead, its claims expire with their
    /// lease and the reminders are tried again by any process, so none is lost.
    public func stop() async {
        let task = loop.withLockedValue { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
    }

    /// One round: marks the missed, claims up to ``ReminderSettings/batchSize`` due reminders and delivers them
    /// concurrently. Returns how many it tried.
    @discardableResult
    func deliverDue() async throws -> Int {
        let database = try databases.database()
        try await markMissed(on: database)
        let claimed = try await claimDue(on: database)
        if !claimed.isEmpty {
            await deliver(claimed, on: database)
        }
        // Goals' reminders delivered, failed or missed (in this round or before) get their next occurrence.
        try await GoalReminders.rollOver(on: database, now: clock.now, logger: logger)
        return claimed.count
    }

    /// Delivers claimed reminders concurrently and records each outcome.
    private func deliver(_ claimed: [ReminderModel], on database: any Database) async {
        let context: RoundContext
        do {
            context = try await roundContext(of: claimed, on: database)
        } catch {
            // Every claim expires with its lease and its reminder is tried again.
            logger.error("reminder round not prepared", metadata: ["error": .string(String(describing: error))])
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for row in claimed {
                group.addTask { await self.deliver(row, context: context, on: database) }
            }
        }
    }

    /// Where a company's reminders go, and the secret they are signed with (opened once per round).
    struct Endpoint: Sendable {
        let url: String
        let secret: String
    }

    /// What one round needs of the claimed reminders' companies and people, read once for the whole batch.
    struct RoundContext: Sendable {
        /// Per company: its endpoint, or why it has none usable (no webhook, an unreadable secret).
        var endpoints: [UUID: Result<Endpoint, Failure>]
        /// Per person: the host app's user id, if any.
        var externalIDs: [UUID: String]
    }

    /// Reads the webhooks of the claimed reminders' companies (opening each secret once) and their people, in one
    /// query each.
    func roundContext(of claimed: [ReminderModel], on database: any Database) async throws -> RoundContext {
        let companyIDs = Array(Set(claimed.map(\.companyID)))
        let userIDs = Array(Set(claimed.map(\.userID)))
        var endpoints: [UUID: Result<Endpoint, Failure>] = Dictionary(
            uniqueKeysWithValues: companyIDs.map { ($0, .failure(.noWebhook)) })
        for webhook in try await CompanyWebhookModel.query(on: database).filter(\.$companyID ~~ companyIDs).all() {
            do {
                endpoints[webhook.companyID] = .success(
                    Endpoint(url: webhook.url, secret: try secrets.open(webhook.sealedSecret)))
            } catch {
                endpoints[webhook.companyID] = .failure(.unreadableSecret(error.description))
            }
        }
        var externalIDs: [UUID: String] = [:]
        for user in try await UserModel.query(on: database).filter(\.$id ~~ userIDs).all() {
            if let id = user.id, let external = user.externalID { externalIDs[id] = external }
        }
        return RoundContext(endpoints: endpoints, externalIDs: externalIDs)
    }

    /// Marks pending reminders never tried and more than ``ReminderSettings/missedAfterSeconds`` past due as missed.
    func markMissed(on database: any Database) async throws {
        let now = clock.now
        let late = now.addingTimeInterval(-settings.missedAfterSeconds)
        let missed = try await database.sql().raw("""
            UPDATE \(ident: ReminderModel.schema)
            SET state = \(bind: ReminderModel.State.missed.rawValue), updated_at = \(bind: now),
                last_error = \(bind: "more than \(Int(settings.missedAfterSeconds)) s late when first tried")
            WHERE state = \(bind: ReminderModel.State.pending.rawValue) AND attempts = 0 AND due_at < \(bind: late)
              AND (claimed_until IS NULL OR claimed_until < \(bind: now))
            RETURNING id
            """).all()
        if !missed.isEmpty {
            logger.warning("reminders missed", metadata: ["count": "\(missed.count)"])
        }
    }

    /// Claims up to a batch of due reminders for this process and returns them, each counted as one more try.
    func claimDue(on database: any Database) async throws -> [ReminderModel] {
        let now = clock.now
        let lease = now.addingTimeInterval(settings.leaseSeconds)
        let token = UUID()
        let pending = ReminderModel.State.pending.rawValue
        let batch = max(settings.batchSize, 1)
        let sql = try database.sql()
        if sql.dialect.name == "postgresql" {
            // Rows another process has locked are skipped, not waited for: each due row goes to exactly one claimer.
            try await database.transaction { transaction in
                let sql = try transaction.sql()
                let rows = try await sql.raw("""
                    SELECT id FROM \(ident: ReminderModel.schema)
                    WHERE state = \(bind: pending) AND next_attempt_at <= \(bind: now)
                      AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                    ORDER BY next_attempt_at LIMIT \(unsafeRaw: String(batch))
                    FOR UPDATE SKIP LOCKED
                    """).all()
                let ids = try rows.map { try $0.decode(column: "id", as: UUID.self) }
                guard !ids.isEmpty else { return }
                try await sql.raw("""
                    UPDATE \(ident: ReminderModel.schema)
                    SET claimed_until = \(bind: lease), claim_token = \(bind: token), attempts = attempts + 1,
                        first_attempted_at = COALESCE(first_attempted_at, \(bind: now)), updated_at = \(bind: now)
                    WHERE id IN (\(binds: ids))
                    """).run()
            }
        } else {
            // SQLite runs one writing statement at a time: the sub-select and the update are one atomic step.
            try await sql.raw("""
                UPDATE \(ident: ReminderModel.schema)
                SET claimed_until = \(bind: lease), claim_token = \(bind: token), attempts = attempts + 1,
                    first_attempted_at = COALESCE(first_attempted_at, \(bind: now)), updated_at = \(bind: now)
                WHERE state = \(bind: pending) AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                  AND id IN (
                    SELECT id FROM \(ident: ReminderModel.schema)
                    WHERE state = \(bind: pending) AND next_attempt_at <= \(bind: now)
                      AND (claimed_until IS NULL OR claimed_until < \(bind: now))
                    ORDER BY next_attempt_at LIMIT \(unsafeRaw: String(batch)))
                """).run()
        }
        return try await ReminderModel.query(on: database).filter(\.$claimToken == token).all()
    }

    /// Why one try did not deliver.
    enum Failure: Error, Equatable {
        case noWebhook
        case unreadableSecret(String)
        case status(UInt)
        case timedOut
        case connection(String)

        var reason: String {
            switch self {
            case .noWebhook: "the company has no webhook"
            case .unreadableSecret(let why): why
            case .status(let code): "HTTP \(code)"
            case .timedOut: "timed out"
            case .connection(let what): "could not deliver: \(what)"
            }
        }
    }

    /// POSTs one claimed reminder and records the outcome under its claim.
    func deliver(_ row: ReminderModel, context: RoundContext, on database: any Database) async {
        let outcome: Result<Void, Failure>
        do {
            outcome = try await post(row, context: context)
        } catch is CancellationError {
            return  // stopping: the claim expires with its lease and the reminder is tried again
        } catch {
            logger.error("reminder delivery failed", metadata: ["error": .string(String(describing: error))])
            outcome = .failure(.connection("storage failure"))
        }
        do {
            try await record(outcome, of: row, on: database)
        } catch {
            // The claim expires with its lease and the reminder is tried again.
            logger.error("reminder outcome not recorded", metadata: ["error": .string(String(describing: error))])
        }
    }

    private func post(_ row: ReminderModel, context: RoundContext) async throws -> Result<Void, Failure> {
        let webhook: Endpoint
        switch context.endpoints[row.companyID] ?? .failure(.noWebhook) {
        case .success(let endpoint): webhook = endpoint
        case .failure(let failure): return .failure(failure)
        }
        let secret = webhook.secret
        let body = try ReminderPayload(row, userExternalID: context.externalIDs[row.userID]).encoded()
        let timestamp = Int(clock.now.timeIntervalSince1970)
        guard let signature = WebhookSignature.sign(id: row.webhookID, timestamp: timestamp, body: body, secret: secret)
        else {
            return .failure(.unreadableSecret("the webhook secret is malformed; set it again with rotateSecret"))
        }
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Forma-Webhooks/1")
        request.headers.add(name: "webhook-id", value: row.webhookID)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(name: "webhook-signature", value: signature)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let timeout = TimeAmount.milliseconds(Int64(settings.requestTimeoutSeconds * 1000))
            let response = try await client.execute(request, timeout: timeout)
            // The answer's body is not read: only the status counts.
            guard (200..<300).contains(response.status.code) else { return .failure(.status(response.status.code)) }
            return .success(())
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            return .failure(.timedOut)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return .failure(.connection(String(describing: error)))
        }
    }

    /// Stores what one try came to: delivered, another try later, or failed for good once the retry window is over.
    func record(_ outcome: Result<Void, Failure>, of row: ReminderModel, on database: any Database) async throws {
        guard let id = row.id, let token = row.claimToken else { return }
        let now = clock.now
        var update = try database.sql().update(ReminderModel.schema)
            .set("claimed_until", to: SQLLiteral.null)
            .set("claim_token", to: SQLLiteral.null)
            .set("updated_at", to: SQLBind(now))
        let metadata: Logger.Metadata = ["webhook_id": .string(row.webhookID), "attempt": "\(row.attempts)"]
        switch outcome {
        case .success:
            update = update.set("state", to: SQLBind(ReminderModel.State.delivered.rawValue))
                .set("delivered_at", to: SQLBind(now))
                .set("last_error", to: SQLLiteral.null)
            logger.info("reminder delivered", metadata: metadata)
        case .failure(let failure):
            update = update.set("last_error", to: SQLBind(failure.reason))
            if let next = settings.retry.nextAttempt(
                afterAttempt: row.attempts, firstAttempt: row.firstAttemptedAt ?? now, now: now)
            {
                update = update.set("next_attempt_at", to: SQLBind(next))
                logger.notice(
                    "reminder delivery will be retried",
                    metadata: metadata.merging(["reason": .string(failure.reason)]) { $1 })
            } else {
                update = update.set("state", to: SQLBind(ReminderModel.State.failed.rawValue))
                logger.warning(
                    "reminder delivery failed for good",
                    metadata: metadata.merging(["reason": .string(failure.reason)]) { $1 })
            }
        }
        try await update.where("id", .equal, SQLBind(id)).where("claim_token", .equal, SQLBind(token)).run()
    }
}

extension Application {
    private struct ReminderWorkerKey: StorageKey {
        typealias Value = ReminderWorker
    }

    /// The reminder worker ``configure(_:configuration:clock:random:)`` built; started by `forma serve` unless
    /// `FORMA_REMINDER_WORKER=off`, and by tests that deliver.
    public var reminderWorker: ReminderWorker {
        get {
            guard let worker = storage[ReminderWorkerKey.self] else {
                fatalError("configure(_:configuration:) must run before the reminder worker is used")
            }
            return worker
        }
        set { storage[ReminderWorkerKey.self] = newValue }
    }
}
