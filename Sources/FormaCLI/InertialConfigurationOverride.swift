import ArgumentParser
import FormaMotion
import Foundation

/// Reads `--configuration`, a JSON object naming some of ``InertialAnalyzer/Configuration``'s fields, for exploring
/// the inertial counter's parameters in the evaluations (`forma eval spar`, `forma eval barbell`). Fields not named
/// keep their defaults; an unknown field or a value of the wrong type is refused, naming it.
enum InertialConfigurationOverride {
    static func parse(_ json: String?) throws -> InertialAnalyzer.Configuration {
        guard let json else { return .standard }
        guard let overrides = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            throw ValidationError("--configuration: not a JSON object, for example {\"activeEnvelopeFraction\": 0.15}")
        }
        let defaults = try JSONEncoder().encode(InertialAnalyzer.Configuration.standard)
        guard var merged = try JSONSerialization.jsonObject(with: defaults) as? [String: Any] else { return .standard }
        for (key, value) in overrides {
            guard merged[key] != nil else {
                throw ValidationError("--configuration: no field \"\(key)\"; fields: "
                    + merged.keys.sorted().joined(separator: ", "))
            }
            merged[key] = value
        }
        do {
            return try JSONDecoder().decode(
                InertialAnalyzer.Configuration.self, from: JSONSerialization.data(withJSONObject: merged))
        } catch {
            throw ValidationError("--configuration: a field has a value of the wrong type (\(error))")
        }
    }
}
