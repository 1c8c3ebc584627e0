import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

private struct ExercisePageBody: Decodable {
    struct Item: Decodable {
        let id: String
        let name: String
        let category: String
        let level: String
        let force: String?
        let mechanic: String?
        let equipment: String?
        let primaryMuscles: [String]
        let secondaryMuscles: [String]
        let instructions: [String]
    }

    let items: [Item]
    let page: Int
    let perPage: Int
    let total: Int
    let pageCount: Int
}

private struct FacetsBody: Decodable {
    struct Value: Decodable {
        let value: String
        let count: Int
        let primaryCount: Int?
    }

    let total: Int
    let categories: [Value]
    let muscles: [Value]
    let equipment: [Value]
    let levels: [Value]
    let forces: [Value]
    let mechanics: [Value]
}

@Suite("Exercise catalogue")
struct CatalogueTests {
    /// The vendored data, read independently of the database, to compare the API against.
    let catalogue = try! ExerciseCatalog.bundled()

    @Test func facets_countEveryValueOfTheData() async throws {
        try await withFormaApp { app in
            // act
            let facets: FacetsBody = try await APIClient(app: app).get("/v1/catalog/facets").json()

            // verify: the figures free-exercise-db's documentation gives
            #expect(facets.total == 873)
            let categories = Dictionary(uniqueKeysWithValues: facets.categories.map { ($0.value, $0.count) })
            #expect(categories == [
                "strength": 581, "stretching": 123, "plyometrics": 61, "powerlifting": 38,
                "olympic weightlifting": 35, "strongman": 21, "cardio": 14,
            ])
            let equipment = Dictionary(uniqueKeysWithValues: facets.equipment.map { ($0.value, $0.count) })
            #expect(equipment["barbell"] == 170)
            #expect(equipment["body only"] == 111)
            #expect(equipment["none"] == 77)
            #expect(equipment.values.reduce(0, +) == 873)
            #expect(facets.levels.map(\.value) == ["beginner", "intermediate", "expert"])
            #expect(facets.levels.map(\.count) == [523, 293, 57])
            #expect(Dictionary(uniqueKeysWithValues: facets.forces.map { ($0.value, $0.count) })
                == ["pull": 371, "push": 369, "static": 104, "none": 29])
            #expect(Dictionary(uniqueKeysWithValues: facets.mechanics.map { ($0.value, $0.count) })
                == ["compound": 489, "isolation": 297, "none": 87])

            // verify: every muscle, with counts recomputed from the data file
            #expect(Set(facets.muscles.map(\.value)) == Set(Muscle.allCases.map(\.rawValue)))
            for muscle in facets.muscles {
                let any = catalogue.exercises.filter { $0.allMuscles.map(\.rawValue).contains(muscle.value) }.count
                let primary = catalogue.exercises.filter { $0.primaryMuscles.map(\.rawValue).contains(muscle.value) }.count
                #expect(muscle.count == any, "\(muscle.value)")
                #expect(muscle.primaryCount == primary, "\(muscle.value)")
            }
        }
    }

    @Test func search_filtersCombineAndMatchTheData() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let page: ExercisePageBody = try await client.get(
                "/v1/exercises?category=strength&muscle=chest&muscle=triceps&equipment=dumbbell&level=beginner&perPage=100"
            ).json()

            // verify
            let expected = catalogue.exercises.filter {
                $0.category == .strength && $0.level == .beginner && $0.equipment == .dumbbell
                    && !Set($0.allMuscles).isDisjoint(with: [.chest, .triceps])
            }
            #expect(page.total == expected.count)
            #expect(Set(page.items.map(\.id)) == Set(expected.map(\.id)))
            #expect(page.items.map(\.name) == page.items.map(\.name).sorted())
        }
    }

    @Test func search_primaryOnlyNarrowsMuscleMatches() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let any: ExercisePageBody = try await client.get("/v1/exercises?muscle=glutes&perPage=1").json()
            let primary: ExercisePageBody = try await client.get(
                "/v1/exercises?muscle=glutes&primaryOnly=true&perPage=100").json()

            // verify
            #expect(any.total == catalogue.exercises.filter { $0.allMuscles.contains(.glutes) }.count)
            #expect(primary.total == catalogue.exercises.filter { $0.primaryMuscles.contains(.glutes) }.count)
            #expect(primary.total < any.total)
            #expect(primary.items.allSatisfy { $0.primaryMuscles.contains("glutes") })
        }
    }

    @Test func search_noneMatchesExercisesWithoutARecordedValue() async throws {
        try await withFormaApp { app in
            // act
            let page: ExercisePageBody = try await APIClient(app: app).get(
                "/v1/exercises?equipment=none&force=none&perPage=100").json()

            // verify
            let expected = catalogue.exercises.filter { $0.equipment == nil && $0.force == nil }
            #expect(page.total == expected.count)
            #expect(page.items.allSatisfy { $0.equipment == nil && $0.force == nil })
        }
    }

    @Test func search_freeTextIgnoresCaseAccentsAndPunctuation() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let expected = catalogue.exercises.filter {
                let name = $0.name.lowercased()
                return name.contains("sit") && name.contains("up")
            }.count

            // act
            let plain: ExercisePageBody = try await client.get("/v1/exercises?q=sit%20up&perPage=100").json()
            let shouted: ExercisePageBody = try await client.get("/v1/exercises?q=SÎT-UP&perPage=100".addingPercent()).json()
            let squats: ExercisePageBody = try await client.get("/v1/exercises?q=barbell%20squ%C3%A1t").json()

            // verify
            #expect(plain.total == expected)
            #expect(shouted.total == plain.total)
            #expect(squats.total > 0)
            #expect(squats.items.allSatisfy { $0.name.lowercased().contains("barbell") && $0.name.lowercased().contains("squat") })
            #expect(plain.items.contains { $0.id == "3_4_Sit-Up" })
        }
    }

    @Test func search_pagesCoverEveryMatchOnce() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            var seen: [String] = []
            var pageCount = 0

            // act
            var page = 1
            repeat {
                let reply: ExercisePageBody = try await client.get("/v1/exercises?category=stretching&perPage=25&page=\(page)").json()
                pageCount = reply.pageCount
                seen += reply.items.map(\.id)
                page += 1
            } while page <= pageCount
            let beyond: ExercisePageBody = try await client.get("/v1/exercises?category=stretching&perPage=25&page=99").json()

            // verify
            #expect(seen.count == 123)
            #expect(Set(seen).count == 123)
            #expect(pageCount == 5)
            #expect(beyond.items.isEmpty && beyond.total == 123)
        }
    }

    @Test func search_rejectsUnknownValuesNamingTheParameter() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let cases: [(String, String)] = [
                ("/v1/exercises?category=yoga", "category"),
                ("/v1/exercises?muscle=heart", "muscle"),
                ("/v1/exercises?equipment=spaceship", "equipment"),
                ("/v1/exercises?perPage=0", "perPage"),
                ("/v1/exercises?perPage=101", "perPage"),
                ("/v1/exercises?page=0", "page"),
            ]
            for (path, field) in cases {
                // act
                let reply = try await client.get(path)

                // verify
                #expect(reply.status == .badRequest, "\(path)")
                #expect(try reply.problem().field == field, "\(path)")
            }
            let notANumber = try await client.get("/v1/exercises?page=abc")
            #expect(notANumber.status == .badRequest)
            #expect(try notANumber.problem().field == "page")
            #expect(try notANumber.problem().detail == "page: must be an integer")
        }
    }

    @Test func search_acceptsSeedStyleSpellings() async throws {
        try await withFormaApp { app in
            // act
            let reply: ExercisePageBody = try await APIClient(app: app).get(
                "/v1/exercises?category=Strength&equipment=body_only&perPage=1").json()

            // verify
            #expect(reply.total == catalogue.exercises.filter { $0.category == .strength && $0.equipment == .bodyOnly }.count)
        }
    }

    @Test func exercise_byIdOrNotFound() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let squat: ExercisePageBody.Item = try await client.get("/v1/exercises/Barbell_Squat").json()
            let missing = try await client.get("/v1/exercises/No_Such_Exercise")

            // verify
            let expected = try #require(catalogue["Barbell_Squat"])
            #expect(squat.name == expected.name)
            #expect(squat.primaryMuscles == expected.primaryMuscles.map(\.rawValue))
            #expect(squat.instructions == expected.instructions)
            #expect(missing.status == .notFound)
            #expect(try missing.problem().status == 404)
        }
    }
}

extension String {
    /// Percent-encodes the query part of a test path.
    fileprivate func addingPercent() -> String {
        addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? self
    }
}
