import Foundation

/// Rules for company names: what `forma company create --name` and the seeds' `company` field accept.
public enum CompanyName {
    public static let maximumLength = 100

    /// The trimmed name, or why it cannot be one.
    public static func validate(_ raw: String) -> Result<String, CompanyNameIssue> {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .failure(.init(message: "must not be empty")) }
        if name.count > maximumLength { return .failure(.init(message: "must be at most \(maximumLength) characters")) }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.init(message: "must not contain control characters"))
        }
        return .success(name)
    }

    /// The key names are compared by: two companies cannot differ only in letter case.
    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

public struct CompanyNameIssue: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
