/// An email address in the normalised form Forma stores and compares: trimmed and lowercased.
///
/// Validation is deliberately pragmatic (RFC 5321 lengths, one `@`, a dotted domain of letters, digits and hyphens,
/// a local part of the characters real providers issue); it catches typing mistakes, not undeliverable addresses.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    /// Parses an address, or returns the reason it is not one.
    public static func parse(_ raw: String) -> Result<EmailAddress, FieldIssue> {
        let trimmed = raw.trimmingWhitespace().lowercased()
        func issue(_ message: String) -> Result<EmailAddress, FieldIssue> {
            .failure(FieldIssue(field: "email", message: message))
        }
        if trimmed.isEmpty { return issue("is required") }
        if trimmed.utf8.count > 254 { return issue("must be at most 254 characters") }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return issue("must contain exactly one @, as in name@example.com") }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64 else {
            return issue("needs a name of 1 to 64 characters before the @")
        }
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
        guard local.allSatisfy(localAllowed.contains), !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains("..")
        else {
            return issue("has characters before the @ that an email address cannot contain")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return issue("needs a domain such as example.com after the @") }
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in labels {
            guard !label.isEmpty, label.count <= 63, label.allSatisfy(labelAllowed.contains),
                !label.hasPrefix("-"), !label.hasSuffix("-")
            else {
                return issue("has a domain after the @ that is not valid")
            }
        }
        guard let topLevel = labels.last, topLevel.count >= 2, topLevel.allSatisfy(\.isLetter) else {
            return issue("has a domain after the @ that is not valid")
        }
        return .success(EmailAddress(value: trimmed))
    }

    public var description: String { value }

    /// The part before the `@`.
    public var localPart: Substring { value.prefix { $0 != "@" } }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines.
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
            let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
