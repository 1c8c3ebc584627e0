/// Rules for the host app's own user ids (the seeds' `userId`).
///
/// Ids are opaque to Forma: nothing is trimmed or case-folded, so `Anna` and `anna` are two people.
public enum HostUserID {
    public static let maximumLength = 200

    /// The id unchanged, or the issue with it, reported against `field`.
    public static func validate(_ raw: String, field: String) -> Result<String, FieldIssue> {
        if raw.isEmpty || raw.allSatisfy(\.isWhitespace) {
            return .failure(FieldIssue(field: field, message: "must not be empty"))
        }
        if raw.count > maximumLength {
            return .failure(FieldIssue(field: field, message: "must be at most \(maximumLength) characters"))
        }
        if raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(FieldIssue(field: field, message: "must not contain control characters"))
        }
        return .success(raw)
    }
}
