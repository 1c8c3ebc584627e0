import Foundation

/// The exercise catalogue shipped with Forma: the 873 exercises of free-exercise-db.
///
/// Loading parses the bundled JSON once (about 1 MB); callers that need it repeatedly should keep the value.
public struct ExerciseCatalog: Sendable {
    /// Exercises in the order of the source file.
    public let exercises: [Exercise]
    private let indexByID: [String: Int]

    /// Creates a catalogue from exercises, which must have distinct identifiers.
    ///
    /// - Throws: ``CatalogError/duplicateIdentifier(_:)`` when two exercises share an identifier.
    public init(exercises: [Exercise]) throws(CatalogError) {
        var index: [String: Int] = [:]
        index.reserveCapacity(exercises.count)
        for (position, exercise) in exercises.enumerated() {
            guard index.updateValue(position, forKey: exercise.id) == nil else {
                throw .duplicateIdentifier(exercise.id)
            }
        }
        self.exercises = exercises
        self.indexByID = index
    }

    /// Decodes a catalogue in the free-exercise-db `exercises.json` layout.
    ///
    /// Keys Forma does not use (such as `images`) are ignored.
    /// - Throws: ``CatalogError/invalidData(_:)`` naming the record and field that could not be read.
    public init(jsonData: Data) throws(CatalogError) {
        let records: [Exercise]
        do {
            records = try JSONDecoder().decode([Exercise].self, from: jsonData)
        } catch let error as DecodingError {
            throw .invalidData(CatalogError.describe(error))
        } catch {
            throw .invalidData(String(describing: error))
        }
        try self.init(exercises: records)
    }

    /// The catalogue bundled with the FormaCore module.
    ///
    /// - Throws: ``CatalogError`` if the resource is missing or unreadable, which means a broken build.
    public static func bundled() throws(CatalogError) -> ExerciseCatalog {
        guard let url = bundledDataURL else { throw .missingResource }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .missingResource
        }
        return try ExerciseCatalog(jsonData: data)
    }

    /// Location of the bundled `exercises.json`.
    public static var bundledDataURL: URL? {
        Bundle.module.url(forResource: "exercises", withExtension: "json", subdirectory: "free-exercise-db")
    }

    /// The exercise with this identifier, if the catalogue has it. O(1).
    public subscript(id: String) -> Exercise? {
        indexByID[id].map { exercises[$0] }
    }

    public var count: Int { exercises.count }
}

/// Why a catalogue could not be loaded.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    case missingResource
    case invalidData(String)
    case duplicateIdentifier(String)

    public var description: String {
        switch self {
        case .missingResource:
            "the bundled exercise catalogue (free-exercise-db/exercises.json) is missing from the FormaCore bundle"
        case .invalidData(let detail):
            "the exercise catalogue could not be read: \(detail)"
        case .duplicateIdentifier(let id):
            "the exercise catalogue lists the identifier '\(id)' twice"
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)).\(key.stringValue): missing"
        @unknown default:
            return String(describing: error)
        }
    }
}
