import FormaLive
import Foundation
import Logging
import NIOCore
import Vapor
import WebSocketKit

/// `GET /v1/people/{userId}/live/watch`: a follower watches someone's live session (docs/community.md, "Live
/// watching"). Opened and authenticated as `/v1/live` is (a bearer token, or a `hello` first message); the watcher
/// receives `watching`, then the session's `rep`, `set` and `summary` events and `ended`, and may send cheers.
enum LiveWatchEndpoint {
    /// The longest cheer, in characters.
    static let maximumCheerCharacters = 140
    /// Seconds of the application's clock between two cheers of one watcher.
    static let cheerIntervalSeconds = 3
    /// Messages of a watcher waiting to be handled before it is closed (a watcher sends a cheer now and then).
    static let inboxLength = 16

    static func register(on app: Application) {
        app.on(.GET, "v1", "people", ":userId", "live", "watch") { request async throws -> Response in
            let userId = request.parameters.get("userId") ?? ""
            let application = request.application
            let bearer = request.headers.bearerAuthorization?.token
            let logger = request.logger
            return try LiveEndpoint.upgrade(request, path: "/v1/people/{userId}/live/watch") { webSocket, channelGuard in
                LiveWatchSocket(
                    webSocket: webSocket, channelGuard: channelGuard, userId: userId, application: application,
                    logger: logger
                ).start(bearer: bearer)
            }
        }
    }
}

/// One watch socket: its token, the checks, then its outbox pumped to the socket while it reads cheers.
struct LiveWatchSocket: Sendable {
    let webSocket: WebSocket
    let channelGuard: LiveChannelGuard
    let userId: String
    let application: Application
    let logger: Logger

    func start(bearer: String?) {
        let (inputs, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(LiveWatchEndpoint.inboxLength))
        let channelGuard = self.channelGuard
        webSocket.onText { _, text in
            if case .dropped = continuation.yield(text) { channelGuard.close(.analysisBacklog) }
        }
        webSocket.onBinary { _, _ in
            channelGuard.close(.watchRefused(
                code: 4400, LiveProblem(field: "message", message: "a watch socket takes text messages only")))
        }
        webSocket.onClose.whenComplete { _ in continuation.finish() }
        let helloSeconds = application.formaConfiguration.live.helloSeconds
        // Only a socket without a bearer header owes a hello.
        let hello = bearer != nil ? nil : webSocket.eventLoop.scheduleTask(
            in: .milliseconds(Int64(helloSeconds * 1000))
        ) { channelGuard.close(.noHello(seconds: helloSeconds)) }
        // A shutdown closes the watcher with 1001, as it does a session.
        let drain = application.formaDrain
        let ticket = drain.beginSession { channelGuard.close(.goingAway) }
        Task {
            var inputs = inputs.makeAsyncIterator()
            await serve(bearer: bearer, inputs: &inputs, hello: hello)
            drain.endSession(ticket)
        }
    }

    private func serve(
        bearer: String?, inputs: inout AsyncStream<String>.Iterator, hello: Scheduled<Void>?
    ) async {
        var token = bearer
        if token == nil {
            guard let first = await inputs.next() else { return }
            let message = Self.decode(first)
            guard message?["type"] as? String == "hello", let given = message?["token"] as? String else {
                return channelGuard.close(.badControl(LiveProblem(
                    field: "type", message: "the first message must be {\"type\": \"hello\", \"token\": …}")))
            }
            token = given
        }
        hello?.cancel()
        let database = (try? application.formaDatabases?.database()) ?? application.db
        let me: AuthenticatedUser
        let meUser: UserModel
        do {
            me = try await Authentication.user(
                forToken: token ?? "", now: application.formaClock.now, reading: .models, on: database)
            meUser = try await me.user
        } catch let error as AuthenticationError {
            let problem = LiveProblem(field: "token", message: APIProblem.detail(for: error))
            return channelGuard.close(.unauthorized(problem))
        } catch {
            return failed("live watch token check failed", error)
        }
        let hub = application.liveWatchHub
        let watching = LiveWatching(
            database: database, companyID: me.companyID, userID: me.userID, now: application.formaClock.now)
        let target: (person: UserModel, session: UUID)
        do {
            target = try await watching.target(userId, in: hub)
        } catch let close as LiveClose {
            return channelGuard.close(close)
        } catch {
            return failed("live watch lookup failed", error)
        }
        let channelGuard = self.channelGuard
        let watcher = LiveWatcher(person: LivePerson(companyID: me.companyID, userID: me.userID)) { close in
            channelGuard.close(close)
        }
        _ = watcher.offer(LiveWatchMessage.text(LiveWatchMessage.Watching(
            session: target.session.uuidString.lowercased(), userId: PeopleStore.publicID(of: target.person),
            displayName: target.person.displayName)))
        switch hub.attach(watcher, to: target.session) {
        case .attached:
            break
        case .notOpen:
            let problem = LiveProblem(field: "userId", message: "is not live now")
            return channelGuard.close(.watchRefused(code: 4404, problem))
        case .tooMany(let problem):
            return channelGuard.close(.watchRefused(code: 4429, problem))
        }
        let record: UUID
        do {
            record = try await watching.started(watching: target.session, of: try target.person.requireID())
        } catch {
            hub.detach(watcher, from: target.session)
            return failed("live watch not recorded", error)
        }
        let sink = WebSocketWatchSink(webSocket: webSocket, channelGuard: channelGuard)
        let pump = Task { await LiveWatchHub.pump(watcher, to: sink) }
        await readCheers(from: &inputs, of: meUser, to: target.session, watcher: watcher)
        hub.detach(watcher, from: target.session)
        watcher.finish(.ended)
        await pump.value
        do {
            try await LiveWatching(
                database: database, companyID: me.companyID, userID: me.userID, now: application.formaClock.now
            ).ended(record)
        } catch {
            logger.error("live watch end not recorded", metadata: ["error": .string(String(reflecting: error))])
        }
    }

    /// Handles the watcher's cheers until its socket closes.
    private func readCheers(
        from inputs: inout AsyncStream<String>.Iterator, of me: UserModel, to session: UUID,
        watcher: LiveWatcher
    ) async {
        let hub = application.liveWatchHub
        var lastCheer: Date?
        while let text = await inputs.next() {
            guard let message = Self.decode(text), message["type"] as? String == "cheer" else {
                let problem = LiveProblem(field: "type", message: "send {\"type\": \"cheer\", \"text\": …}")
                channelGuard.close(.badControl(problem))
                continue
            }
            let now = application.formaClock.now
            let refusal: LiveWatchMessage.CheerRefused?
            let cheer = Self.cheerText(message["text"])
            if let lastCheer, now.timeIntervalSince(lastCheer) < Double(LiveWatchEndpoint.cheerIntervalSeconds) {
                let wait = Double(LiveWatchEndpoint.cheerIntervalSeconds) - now.timeIntervalSince(lastCheer)
                refusal = .init(
                    field: "text", message: "one cheer every \(LiveWatchEndpoint.cheerIntervalSeconds) seconds",
                    retryAfterSeconds: Int(wait.rounded(.up)))
            } else if let cheer {
                let from = LiveWatchMessage.Cheer.From(
                    userId: PeopleStore.publicID(of: me), displayName: me.displayName)
                let event = LiveWatchMessage.Cheer(from: from, text: cheer)
                guard hub.cheer(LiveWatchMessage.text(event), to: session) else { continue }
                lastCheer = now
                refusal = nil
                _ = watcher.offer(LiveWatchMessage.text(LiveWatchMessage.CheerSent(text: cheer)))
            } else {
                refusal = .init(
                    field: "text",
                    message: "must be 1 to \(LiveWatchEndpoint.maximumCheerCharacters) characters, "
                        + "without control characters")
            }
            if let refusal { _ = watcher.offer(LiveWatchMessage.text(refusal)) }
        }
    }

    /// A cheer's text trimmed, when it is 1 to 140 characters without control characters.
    static func cheerText(_ value: Any?) -> String? {
        guard let text = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines),
            (1...LiveWatchEndpoint.maximumCheerCharacters).contains(text.count),
            !text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else { return nil }
        return text
    }

    private static func decode(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    private func failed(_ what: String, _ error: any Error) {
        logger.error("\(what)", metadata: ["error": .string(String(reflecting: error))])
        channelGuard.close(.serverFailed(what: "the watch failed"))
    }
}

/// A watcher's WebSocket: each write awaited (so an outbox backs up behind a client that does not read), closes
/// through its ``LiveChannelGuard``.
struct WebSocketWatchSink: LiveWatchSink {
    let webSocket: WebSocket
    let channelGuard: LiveChannelGuard

    func send(_ text: String) async -> Bool {
        do {
            try await webSocket.send(text)
            return true
        } catch {
            return false
        }
    }

    func close(_ close: LiveClose) {
        channelGuard.close(close)
    }
}
