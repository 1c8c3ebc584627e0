import FormaCore
import FormaMotion
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// The shape docs/architecture.md describes: dependencies handed to the handler, credentials resolved once from
/// what each operation declares, one catalogue.
@Suite("Architecture")
struct ArchitectureTests {
    @Test func aSeededRandomSourceMakesGeneratedWorkoutsReproducible() async throws {
        // setup: a workout request without a seed, so the server's random source chooses it
        var body = GenerateBody.chest
        body.seed = nil
        func generatedSeeds(_ random: RandomSource) async throws -> [Int64] {
            var seeds: [Int64] = []
            try await withFormaApp(random: random) { app in
                let trainee = try await Trainee.signUp(APIClient(app: app), "seed@example.com")
                for _ in 0..<3 { seeds.append(try await trainee.generate(body).seed) }
            }
            return seeds
        }

        // act
        let first = try await generatedSeeds(.seeded(42))
        let again = try await generatedSeeds(.seeded(42))
        let other = try await generatedSeeds(.seeded(43))

        // verify
        #expect(first == again)
        #expect(first != other)
        #expect(Set(first).count == 3)
    }

    /// openapi.yaml's `security` per operation, read from the document itself.
    static func contractSecurity() throws -> [String: Set<String>] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        var result: [String: Set<String>] = [:]
        for chunk in text.components(separatedBy: "operationId: ").dropFirst() {
            let lines = chunk.split(separator: "\n", omittingEmptySubsequences: false)
            guard let operation = lines.first.map({ $0.trimmingCharacters(in: .whitespaces) }) else { continue }
            var schemes: Set<String> = []
            var inSecurity = false
            for line in lines.dropFirst() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("      security:") { inSecurity = true; continue }
                if inSecurity {
                    guard line.hasPrefix("        ") else { break }
                    let name = trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "- "))
                        .components(separatedBy: ":")[0]
                    schemes.insert(name)
                }
                if line.hasPrefix("paths:") || line.hasPrefix("components:") { break }
            }
            result[operation] = schemes
        }
        return result
    }

    @Test func theAuthenticationMiddlewareAsksForWhatTheContractDeclares() throws {
        // setup
        let contract = try Self.contractSecurity()
        #expect(contract.count >= 40)

        for (operation, schemes) in contract {
            // act
            let requirement = AuthenticationMiddleware.requirement(of: operation)

            // verify
            let expected: AuthenticationMiddleware.Requirement =
                switch schemes {
                case []: .none
                case ["apiKey"]: .company
                case ["userToken"]: .bearerToken
                default: .person
                }
            #expect(requirement == expected, "\(operation) declares \(schemes.sorted())")
            if expected == .person { #expect(schemes == ["userToken", "apiKey", "hostUser"], "\(operation)") }
        }
    }

    @Test func theErrorMappingKnowsWhichQueryParametersAreIntegersAndBooleans() throws {
        // setup: every query parameter of openapi.yaml with its scalar type
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        var integers: Set<String> = []
        var booleans: Set<String> = []
        for (index, line) in lines.enumerated() where line.contains("- name: ") {
            let name = line.components(separatedBy: "- name: ")[1].trimmingCharacters(in: .whitespaces)
            let following = lines[(index + 1)..<min(index + 8, lines.count)]
            guard following.contains(where: { $0.contains("in: query") }) else { continue }
            let scalar = following.first { $0.contains("type: ") && !$0.contains("type: array") }
            if scalar?.contains("type: integer") == true { integers.insert(name) }
            if scalar?.contains("type: boolean") == true { booleans.insert(name) }
        }

        // verify: a new integer parameter that does not parse is blamed on itself, not on its neighbour
        #expect(integers == APIProblem.integerQueryParameters)
        #expect(booleans == APIProblem.booleanQueryParameters)
    }

    @Test func everyPoseExerciseTheCatalogueMatcherNamesIsCountedByTheCamera() {
        for id in PoseExerciseMatching.countedExercises {
            #expect(PoseExercises.named(id)?.id == id, "\(id)")
        }
    }

    @Test func theCatalogueHasNoCopyInTheDatabase() async throws {
        try await withFormaApp { app in
            // act
            let sql = try #require(app.db as? any SQLDatabase)
            let tables = try await SchemaInspection.tablesWithColumn("name", on: sql)
            let search = try await APIClient(app: app).get("/v1/exercises?perPage=1")

            // verify: search is served from the bundled catalogue in memory
            #expect(!tables.contains("exercises"))
            #expect(search.status == .ok)
        }
    }
}
