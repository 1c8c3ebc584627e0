import Foundation

/// The rules for a company's webhook URL (docs/reminders.md, "The company's webhook").
///
/// HTTPS, so that reminders (a person's schedule) and their signatures do not cross the network in the clear. Plain
/// HTTP only to a loopback host (`localhost`, `127.0.0.0/8`, `::1`), for a receiver on the same machine during
/// development. No user name or password in the URL (it is shown by `GET /v1/company/webhook` and logged), no
/// fragment, at most 2048 characters.
public enum WebhookURL {
    public static let maximumLength = 2048

    /// The URL as given, or an issue naming `field`.
    public static func validate(_ raw: String, field: String = "url") -> Result<String, FieldIssue> {
        func issue(_ message: String) -> Result<String, FieldIssue> {
            .failure(FieldIssue(field: field, message: message))
        }
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= maximumLength else {
            return issue("must be an https:// URL of at most \(maximumLength) characters")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            return issue("must be an absolute https:// URL such as https://api.example.com/forma/webhook")
        }
        guard components.user == nil, components.password == nil else {
            return issue("must not contain a user name or password")
        }
        guard components.fragment == nil else { return issue("must not contain a fragment (#…)") }
        switch scheme {
        case "https": return .success(text)
        case "http" where isLoopback(host): return .success(text)
        case "http": return issue("must use https:// (plain http:// is allowed only to localhost, 127.0.0.1 or ::1)")
        default: return issue("must be an https:// URL")
        }
    }

    /// Whether `host` (as URLComponents gives it, IPv6 in brackets or not) names this machine.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
