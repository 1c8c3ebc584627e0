import FluentKit
import Testing

@testable import FormaServer

/// The models that list their properties by hand (to spare Fluent's reflection on every row) list exactly the
/// properties they declare: a property left out of the list would silently never be read nor written.
struct ModelPropertiesTests {
    private static func declared(_ model: any Fields) -> [ObjectIdentifier] {
        Mirror(reflecting: model).children.compactMap { child in
            (child.value as? any AnyProperty).map { ObjectIdentifier($0 as AnyObject) }
        }
    }

    private static func listed(_ model: any Fields) -> [ObjectIdentifier] {
        model.properties.map { ObjectIdentifier($0 as AnyObject) }
    }

    @Test func theListedPropertiesAreTheDeclaredOnes() {
        let models: [any Fields] = [
            UserTokenModel(), UserModel(), CompanyModel(), APIKeyModel(), PainReportModel(), WorkoutModel(),
            WorkoutRunModel(),
        ]
        for model in models {
            let declared = Self.declared(model)
            #expect(declared.count > 1, "\(type(of: model)): reflection found no properties")
            #expect(Self.listed(model) == declared, "\(type(of: model))")
        }
    }
}
