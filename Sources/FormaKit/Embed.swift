import Foundation

/// A view of the embedded experience (docs/embed.md).
public enum EmbedPage: Sendable, Hashable {
    case home
    case plan(id: String)
    case workout(id: String)
    case challenge(exercise: String, seconds: Int)
    case leaderboard(exercise: String, seconds: Int)
    case camera(exercise: String? = nil)
    /// The AI trainer's chat, with the host's pre-fill (seed 002): what `user` leaves out, the trainer asks.
    case trainer(user: UserDetails? = nil)
}

/// What the host already knows about the person, for the trainer to skip (seed 002's pre-fill). Every field is
/// optional: leave out what you do not know; a zero, negative or empty value is left out of the URL as well, so the
/// trainer asks for it rather than taking it.
public struct UserDetails: Sendable, Hashable {
    public enum Gender: String, Sendable, Hashable, CaseIterable {
        case male, female
    }

    /// Years.
    public var age: Int?
    /// Centimetres.
    public var height: Double?
    /// Kilograms.
    public var weight: Double?
    public var gender: Gender?

    public init(age: Int? = nil, height: Double? = nil, weight: Double? = nil, gender: Gender? = nil) {
        self.age = age
        self.height = height
        self.weight = weight
        self.gender = gender
    }

    /// The page's URL parameters (`age`, `heightCm`, `weightKg`, `gender`), only for usable values.
    var queryItems: [URLQueryItem] {
        func number(_ value: Double?) -> String? {
            guard let value, value.isFinite, value > 0 else { return nil }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        var items: [URLQueryItem] = []
        if let age, age > 0 { items.append(URLQueryItem(name: "age", value: String(age))) }
        if let height = number(height) { items.append(URLQueryItem(name: "heightCm", value: height)) }
        if let weight = number(weight) { items.append(URLQueryItem(name: "weightKg", value: weight)) }
        if let gender { items.append(URLQueryItem(name: "gender", value: gender.rawValue)) }
        return items
    }
}

/// The look of an embedded page: dark (the default, seed 002's `IStyle(style: "dark")`) or light. The company's
/// accent colour and logo, set on the server, apply to both (docs/embed.md, "Style and branding").
public enum EmbedStyle: String, Sendable, Hashable, CaseIterable {
    case dark
    case light
}

/// What the host posts to the page after `kinestex_launched` (docs/embed-protocol.md). Values are JSON-encoded,
/// never spliced into JavaScript source, so any name or id is safe.
public struct EmbedConfiguration: Sendable, Hashable, Encodable {
    public var company: String
    public var key: String?
    public var token: String?
    public var userId: String?
    /// Plan category listed first: Strength, Cardio or Rehabilitation.
    public var planC: String?
    /// Workout category listed first: Fitness or Rehabilitation.
    public var category: String?
    public var age: Int?
    /// Centimetres.
    public var height: Double?
    /// Kilograms.
    public var weight: Double?
    public var gender: String?
    public var lifestyle: String?
    /// The pages' language (`en`, `de`, or a tag of either such as `de-AT`); nil leaves the choice to the URL's
    /// `language` and then the device's languages (docs/embed.md, "Languages").
    public var language: String?

    /// With a user token from your back end (recommended: no key in the app).
    public static func token(
        _ token: String, company: String, planC: String? = nil, category: String? = nil
    ) -> EmbedConfiguration {
        EmbedConfiguration(company: company, token: token, planC: planC, category: category)
    }

    /// With the company API key and the host's user id, as seed 000's hosts do.
    public static func key(
        _ key: String, company: String, userId: String, planC: String? = nil, category: String? = nil
    ) -> EmbedConfiguration {
        EmbedConfiguration(company: company, key: key, userId: userId, planC: planC, category: category)
    }

    public init(
        company: String, key: String? = nil, token: String? = nil, userId: String? = nil, planC: String? = nil,
        category: String? = nil, age: Int? = nil, height: Double? = nil, weight: Double? = nil, gender: String? = nil,
        lifestyle: String? = nil, language: String? = nil
    ) {
        self.company = company
        self.key = key
        self.token = token
        self.userId = userId
        self.planC = planC
        self.category = category
        self.age = age
        self.height = height
        self.weight = weight
        self.gender = gender
        self.lifestyle = lifestyle
        self.language = language
    }

    /// The configuration as a JSON object literal. `JSONEncoder` escapes `/` (so `</script>` cannot close a script
    /// element) and quotes; the line separators U+2028 and U+2029 are escaped as well.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(self), as: UTF8.self)
        return text.replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(of: "\u{2029}", with: "\\u2029")
    }

    /// JavaScript for a native WebView host to evaluate once the page has loaded: posts the configuration to the
    /// page's own window, which the page accepts (its own origin).
    public func script() throws -> String {
        "window.postMessage(\(try json()), window.location.origin);"
    }
}

extension FormaKit {
    /// The URL of an embed page on this server. It names the company (iframe hosts need it, docs/embed.md); `replay`
    /// plays a recorded pose file instead of the camera; `legacyEvents` asks for the 2023 event names; `style` is
    /// the page's look (in the URL, so the page is drawn in it from the first frame); `language` the pages' language
    /// (`en`, `de` or a tag of either; nil: the device's languages choose, docs/embed.md "Languages").
    public func embedURL(
        _ page: EmbedPage, replay: URL? = nil, legacyEvents: Bool = false, style: EmbedStyle = .dark,
        language: String? = nil
    ) -> URL {
        var path: String
        var query: [URLQueryItem] = [URLQueryItem(name: "company", value: companyName)]
        func segment(_ value: String) -> String {
            value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? value
        }
        switch page {
        case .home: path = "/embed/"
        case .plan(let id): path = "/embed/plan/\(segment(id))"
        case .workout(let id): path = "/embed/workout/\(segment(id))"
        case let .challenge(exercise, seconds):
            path = "/embed/challenge"
            query += [URLQueryItem(name: "exercise", value: exercise), URLQueryItem(name: "duration", value: String(seconds))]
        case let .leaderboard(exercise, seconds):
            path = "/embed/leaderboard"
            query += [URLQueryItem(name: "exercise", value: exercise), URLQueryItem(name: "duration", value: String(seconds))]
        case .camera(let exercise):
            path = "/embed/camera"
            if let exercise { query.append(URLQueryItem(name: "exercise", value: exercise)) }
        case .trainer(let user):
            path = "/embed/trainer"
            query += user?.queryItems ?? []
        }
        if let replay { query.append(URLQueryItem(name: "replay", value: replay.absoluteString)) }
        if legacyEvents { query.append(URLQueryItem(name: "events", value: "2023")) }
        // Dark is the pages' own default, so only another style is named.
        if style != .dark { query.append(URLQueryItem(name: "style", value: style.rawValue)) }
        if let language, !language.isEmpty { query.append(URLQueryItem(name: "language", value: language)) }
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.percentEncodedPath = base + path
        components.queryItems = query
        // `+` in a query value would read as a space on the server.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? baseURL
    }

    /// The configuration for this person, with a fresh token (renewed if needed).
    public func embedConfiguration(planC: String? = nil, category: String? = nil) async throws(FormaError) -> EmbedConfiguration {
        EmbedConfiguration.token(try await currentToken(), company: companyName, planC: planC, category: category)
    }

    /// Embed messages the host sends after the handshake, as JSON for `postMessage`.
    public static func currentExerciseMessage(_ exercise: String) throws -> String {
        String(decoding: try JSONEncoder().encode(["currentExercise": exercise]), as: UTF8.self)
    }
}
