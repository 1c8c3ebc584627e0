import Foundation

/// One message of a watch socket (`GET /v1/people/{userId}/live/watch`, docs/community.md "Live watching"), or the
/// `cheer` a trainee's `/v1/live` socket receives from a watcher.
public enum LiveWatchEvent: Sendable, Equatable {
    /// The watch started on `session` of the person `userId`.
    case watching(session: String, userId: String, displayName: String?)
    /// One of the session's `rep`, `set` and `summary` events.
    case event(LiveEvent)
    /// The session ended; the server closes the socket with 1000.
    case ended(session: String)
    /// The watcher's cheer went to the trainee.
    case cheerSent(text: String)
    /// The cheer was not sent: too soon (`retryAfterSeconds`) or not 1 to 140 characters.
    case cheerRefused(field: String, message: String, retryAfterSeconds: Int?)
    /// On the trainee's socket: a follower watching cheered.
    case cheer(fromUserId: String, displayName: String?, text: String)

    private struct Wire: Decodable {
        struct From: Decodable {
            var userId: String
            var displayName: String?
        }

        var type: String
        var session: String?
        var userId: String?
        var displayName: String?
        var text: String?
        var field: String?
        var message: String?
        var retryAfterSeconds: Int?
        var from: From?
    }

    /// Decodes one text message; a message that is not one of these throws.
    public init(json: String) throws(FormaError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(json.utf8))
        } catch {
            throw FormaError.invalidArgument(field: "json", message: "not a watch message")
        }
        switch (wire.type, wire.session, wire.userId, wire.text, wire.from) {
        case ("watching", let session?, let userId?, _, _):
            self = .watching(session: session, userId: userId, displayName: wire.displayName)
        case ("ended", let session?, _, _, _):
            self = .ended(session: session)
        case ("cheer_sent", _, _, let text?, _):
            self = .cheerSent(text: text)
        case ("cheer_refused", _, _, _, _):
            self = .cheerRefused(
                field: wire.field ?? "text", message: wire.message ?? "", retryAfterSeconds: wire.retryAfterSeconds)
        case ("cheer", _, _, let text?, let from?):
            self = .cheer(fromUserId: from.userId, displayName: from.displayName, text: text)
        case ("rep", _, _, _, _), ("set", _, _, _, _), ("summary", _, _, _, _):
            self = .event(try LiveEvent(json: json))
        default:
            throw FormaError.invalidArgument(field: "json", message: "not a watch message: '\(wire.type)'")
        }
    }

    /// The message a watcher sends to cheer: `{"type": "cheer", "text": …}`.
    public static func cheerMessage(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["type": "cheer", "text": text])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension FormaKit {
    /// The WebSocket URL to watch `userId`'s live session (`ws`/`wss` on the server's host). Open it with the
    /// signed-in person's token as `Authorization: Bearer`, or send `{"type": "hello", "token": …}` first; then
    /// decode each message with ``LiveWatchEvent/init(json:)`` and send cheers with
    /// ``LiveWatchEvent/cheerMessage(_:)``. ``PublicProfile/liveSessionId`` says whether there is one to watch.
    public func liveWatchURL(userId: String) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        let segment = userId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? userId
        components.percentEncodedPath = base + "/v1/people/\(segment)/live/watch"
        return components.url ?? baseURL
    }
}
