import Foundation

/// What a catalogue search asks for, already checked. Filters combine with AND; the values of one filter with OR.
///
/// For the optional properties (equipment, force, mechanic) a `nil` in the set stands for "the source records no
/// value", which clients spell `none`.
public struct CatalogueQuery: Sendable, Hashable {
    public var categories: Set<ExerciseCategory> = []
    public var muscles: Set<Muscle> = []
    /// With `true`, ``muscles`` match primary muscles only.
    public var primaryMusclesOnly = false
    public var equipment: Set<Equipment?> = []
    public var levels: Set<Level> = []
    public var forces: Set<Force?> = []
    public var mechanics: Set<Mechanic?> = []
    /// Folded words (``SearchText/words(of:)``) that must all occur in the exercise's folded name.
    public var words: [String] = []
    public var paging: Paging

    /// How clients spell "no recorded value" for equipment, force and mechanic.
    public static let noneValue = "none"
    /// The longest free-text query accepted, in characters.
    public static let maximumTextLength = 200

    public init(paging: Paging) {
        self.paging = paging
    }

    /// Reads raw query values, accepting any letter case and `_` for a space (`body_only`).
    ///
    /// - Throws: A ``FieldIssue`` naming the parameter (`category`, `muscle`, `equipment`, `level`, `force`,
    ///   `mechanic`, `q`, `page`, `perPage`) and, for a value it does not know, the accepted ones.
    public init(
        categories: [String]?, muscles: [String]?, primaryOnly: Bool?, equipment: [String]?, levels: [String]?,
        forces: [String]?, mechanics: [String]?, text: String?, page: Int?, perPage: Int?
    ) throws(FieldIssue) {
        self.init(paging: try Paging(page: page, perPage: perPage))
        self.categories = Set(try Self.values(categories, field: "category", as: ExerciseCategory.self))
        self.muscles = Set(try Self.values(muscles, field: "muscle", as: Muscle.self))
        self.primaryMusclesOnly = primaryOnly ?? false
        self.equipment = Set(try Self.optionalValues(equipment, field: "equipment", as: Equipment.self))
        self.levels = Set(try Self.values(levels, field: "level", as: Level.self))
        self.forces = Set(try Self.optionalValues(forces, field: "force", as: Force.self))
        self.mechanics = Set(try Self.optionalValues(mechanics, field: "mechanic", as: Mechanic.self))
        if let text {
            guard text.count <= Self.maximumTextLength else {
                throw FieldIssue(field: "q", message: "must be at most \(Self.maximumTextLength) characters")
            }
            self.words = SearchText.words(of: text)
        }
    }

    private static func spelling(_ raw: String) -> String {
        raw.trimmingWhitespace().lowercased().replacingOccurrences(of: "_", with: " ")
    }

    private static func values<Value: RawRepresentable & CaseIterable>(
        _ raw: [String]?, field: String, as type: Value.Type
    ) throws(FieldIssue) -> [Value] where Value.RawValue == String {
        var result: [Value] = []
        for value in raw ?? [] {
            guard let parsed = Value(rawValue: spelling(value)) else {
                throw unknown(value, field: field, accepted: Value.allCases.map(\.rawValue))
            }
            result.append(parsed)
        }
        return result
    }

    private static func optionalValues<Value: RawRepresentable & CaseIterable>(
        _ raw: [String]?, field: String, as type: Value.Type
    ) throws(FieldIssue) -> [Value?] where Value.RawValue == String {
        var result: [Value?] = []
        for value in raw ?? [] {
            let spelled = spelling(value)
            if spelled == noneValue {
                result.append(nil)
            } else if let parsed = Value(rawValue: spelled) {
                result.append(parsed)
            } else {
                throw unknown(value, field: field, accepted: Value.allCases.map(\.rawValue) + [noneValue])
            }
        }
        return result
    }

    private static func unknown(_ raw: String, field: String, accepted: [String]) -> FieldIssue {
        FieldIssue(field: field, message: "'\(raw)' is not a \(field); use one of: \(accepted.joined(separator: ", "))")
    }
}

extension CatalogueQuery {
    /// One spelling of the query for every way of writing it: values sorted, `none` for a missing value, words as
    /// folded. Two requests that find the same page have the same description, so it can key a cache or an entity
    /// tag.
    public var canonicalDescription: String {
        func list(_ values: some Sequence<String>) -> String { values.sorted().joined(separator: ",") }
        func optional<Value: RawRepresentable<String>>(_ values: Set<Value?>) -> String {
            list(values.map { $0?.rawValue ?? Self.noneValue })
        }
        return [
            "category=" + list(categories.map(\.rawValue)),
            "muscle=" + list(muscles.map(\.rawValue)),
            "primaryOnly=\(primaryMusclesOnly)",
            "equipment=" + optional(equipment),
            "level=" + list(levels.map(\.rawValue)),
            "force=" + optional(forces),
            "mechanic=" + optional(mechanics),
            "q=" + words.sorted().joined(separator: " "),
            "page=\(paging.page)",
            "perPage=\(paging.perPage)",
        ].joined(separator: "&")
    }
}
