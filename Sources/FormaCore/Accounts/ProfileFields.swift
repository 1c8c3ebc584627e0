import Foundation

/// The profile facts a person may share, validated and normalised.
///
/// Units live in the names: centimetres, kilograms, years.
public enum ProfileFields {
    public static let ageRange = 5...120
    public static let heightRangeCentimetres = 50.0...272.0
    public static let weightRangeKilograms = 20.0...400.0
    public static let displayNameMaximumLength = 80

    /// Genders the trainer understands; the seeds' hosts send "male" or "female".
    public enum Gender: String, Sendable, CaseIterable {
        case female, male, other
    }

    /// How active a person is outside training.
    public enum Lifestyle: String, Sendable, CaseIterable {
        case sedentary
        case lightlyActive = "lightly_active"
        case active
        case veryActive = "very_active"
    }

    /// A display name trimmed, or the reason it is unacceptable. An empty result means "clear the name".
    public static func displayName(_ raw: String) -> Result<String, FieldIssue> {
        let trimmed = raw.trimmingWhitespace()
        if trimmed.count > displayNameMaximumLength {
            return .failure(.init(field: "displayName", message: "must be at most \(displayNameMaximumLength) characters"))
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.init(field: "displayName", message: "must not contain control characters"))
        }
        return .success(trimmed)
    }

    public static func age(_ value: Int) -> FieldIssue? {
        ageRange.contains(value)
            ? nil : FieldIssue(field: "age", message: "must be between \(ageRange.lowerBound) and \(ageRange.upperBound) years")
    }

    public static func heightCentimetres(_ value: Double) -> FieldIssue? {
        value.isFinite && heightRangeCentimetres.contains(value)
            ? nil : FieldIssue(field: "heightCm", message: "must be between 50 and 272 centimetres")
    }

    public static func weightKilograms(_ value: Double) -> FieldIssue? {
        value.isFinite && weightRangeKilograms.contains(value)
            ? nil : FieldIssue(field: "weightKg", message: "must be between 20 and 400 kilograms")
    }

    /// A gender in any letter case; empty means "clear".
    public static func gender(_ raw: String) -> Result<Gender?, FieldIssue> {
        let key = raw.trimmingWhitespace().lowercased()
        if key.isEmpty { return .success(nil) }
        guard let gender = Gender(rawValue: key) else {
            return .failure(.init(field: "gender", message: "must be one of: female, male, other"))
        }
        return .success(gender)
    }

    /// A lifestyle in any letter case, with spaces or hyphens for underscores; empty means "clear".
    public static func lifestyle(_ raw: String) -> Result<Lifestyle?, FieldIssue> {
        let key = raw.trimmingWhitespace().lowercased()
            .replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
        if key.isEmpty { return .success(nil) }
        guard let lifestyle = Lifestyle(rawValue: key) else {
            return .failure(.init(
                field: "lifestyle", message: "must be one of: sedentary, lightly_active, active, very_active"))
        }
        return .success(lifestyle)
    }

    /// An IANA time-zone identifier such as `Europe/Berlin` (``IANATimeZone``, the rule reminders follow too);
    /// empty means "clear".
    public static func timeZone(_ raw: String) -> Result<String?, FieldIssue> {
        let trimmed = raw.trimmingWhitespace()
        if trimmed.isEmpty { return .success(nil) }
        guard let zone = IANATimeZone.zone(trimmed) else {
            return .failure(.init(field: "timeZone", message: IANATimeZone.message))
        }
        return .success(zone.identifier)
    }
}
