/// The rules a new password must meet, after NIST SP 800-63B §5.1.1: a minimum length, no composition rules, and a
/// check against commonly used passwords and the account's own email.
public struct PasswordPolicy: Sendable {
    /// Fewest characters allowed.
    public var minimumLength: Int
    /// Most UTF-8 bytes allowed: bcrypt reads only the first 72 bytes, so a longer password would silently lose
    /// its tail.
    public var maximumBytes: Int

    public init(minimumLength: Int = 8, maximumBytes: Int = 72) {
        self.minimumLength = minimumLength
        self.maximumBytes = maximumBytes
    }

    public static let standard = PasswordPolicy()

    /// Every rule the password breaks, for the field named `field`; empty when it is acceptable.
    public func issues(password: String, email: EmailAddress?, field: String = "password") -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if password.count < minimumLength {
            issues.append(FieldIssue(field: field, message: "must be at least \(minimumLength) characters"))
        }
        if password.utf8.count > maximumBytes {
            issues.append(FieldIssue(field: field, message: "must be at most \(maximumBytes) bytes long"))
        }
        if password.trimmingWhitespace().isEmpty {
            if !password.isEmpty {
                issues.append(FieldIssue(field: field, message: "must not be only spaces"))
            }
            return issues
        }
        if Set(password).count == 1 && password.count >= minimumLength {
            issues.append(FieldIssue(field: field, message: "must not repeat a single character"))
        }
        let folded = password.lowercased()
        if Self.commonPasswords.contains(folded) {
            issues.append(FieldIssue(field: field, message: "is one of the most common passwords; choose another"))
        }
        if let email, email.localPart.count >= 4, folded.contains(email.localPart) {
            issues.append(FieldIssue(field: field, message: "must not contain your email address"))
        }
        return issues
    }

    /// Passwords long enough to pass the length rule that appear at the top of published breach-frequency lists
    /// (for example the NCSC's "100k most common" list).
    static let commonPasswords: Set<String> = [
        "12345678", "123456789", "1234567890", "12345678910", "password", "password1", "password12",
        "password123", "passw0rd", "iloveyou", "qwertyuiop", "qwerty123", "1qaz2wsx", "11111111", "00000000",
        "abcd1234", "sunshine", "princess", "football", "baseball", "welcome1", "welcome123", "superman",
        "starwars", "trustno1", "whatever", "zaq12wsx", "qwerty12", "asdfghjkl", "987654321", "88888888",
        "computer", "michelle", "jennifer", "corvette", "mercedes", "1q2w3e4r", "1q2w3e4r5t", "q1w2e3r4",
        "letmein1", "monkey123", "dragon123", "mustang1", "shadow123", "master123", "admin123", "administrator",
        "changeme", "changeme1", "p@ssw0rd", "p@ssword", "aa123456", "a1234567", "qwer1234", "asdf1234",
        "12341234", "11223344", "abc12345", "abcdefgh", "iloveyou1", "fitness1", "workout1", "forma123",
    ]
}
