import FormaMotion
import Foundation

/// Why the shipped form models could not be read.
public enum ShippedFormModelsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The resource is not in the bundle (a packaging mistake).
    case missingResource(String)
    /// The resource is there but is not a list of models.
    case unreadable(resource: String, detail: String)

    public var description: String {
        switch self {
        case let .missingResource(name): "the form-model resource \(name) is missing from the FormaMotionLab bundle"
        case let .unreadable(name, detail): "the form-model resource \(name) cannot be read: \(detail)"
        }
    }
}

extension FormQualityModel {
    /// The resource holding the models trained on every UI-PRMD subject (`forma eval ui-prmd DIR --reference-reps 3
    /// --write-models FILE` writes it; docs/motion-form-quality.md says how they were trained and how well they
    /// generalise). Trained on the UI-PRMD Kinect data (Vakanski et al., Data 2018, 3(1):2; ODC-PDDL 1.0).
    public static let shippedResourceName = "uiprmd-form-models"

    /// The shipped models, one per movement and reference mode, read from the bundle on first use and kept.
    ///
    /// - Throws: ``ShippedFormModelsError`` when the resource is missing or malformed.
    public static func uiprmdTrained() throws(ShippedFormModelsError) -> [FormQualityModel] {
        try shippedModels.get()
    }

    /// The shipped model for `movement` in `mode`, or `nil` when none was trained.
    public static func uiprmdTrained(
        _ movement: RehabMovement, mode: FormReferenceMode
    ) throws(ShippedFormModelsError) -> FormQualityModel? {
        try uiprmdTrained().first { $0.movement == movement && $0.mode == mode }
    }

    /// The models as the resource stores them: JSON, keys sorted, one value a line so that retraining shows in a
    /// diff. Doubles are written in their shortest round-trip form, so reading the file reproduces the models exactly.
    public static func resourceData(_ models: [FormQualityModel]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(models)
    }

    private static let shippedModels: Result<[FormQualityModel], ShippedFormModelsError> = {
        let name = shippedResourceName + ".json"
        guard let url = Bundle.module.url(forResource: shippedResourceName, withExtension: "json") else {
            return .failure(.missingResource(name))
        }
        do {
            return .success(try JSONDecoder().decode([FormQualityModel].self, from: Data(contentsOf: url)))
        } catch {
            return .failure(.unreadable(resource: name, detail: String(describing: error)))
        }
    }()
}
