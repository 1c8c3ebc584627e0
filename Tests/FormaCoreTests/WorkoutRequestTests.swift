import Foundation
import Testing

@testable import FormaCore

@Suite struct WorkoutRequestTests {
    @Test func validate_rejectsBothCategoriesAndMuscles() {
        // setup
        let request = WorkoutRequest(categories: [.strength], muscles: [.chest], level: .beginner, durationMinutes: 30)

        // act, verify
        #expect(throws: WorkoutRequestError.bothCategoriesAndMuscles) { try request.validate() }
        #expect(WorkoutRequestError.bothCategoriesAndMuscles.field == "categories")
    }

    @Test func validate_rejectsNeitherCategoriesNorMuscles() {
        // setup
        let request = WorkoutRequest(equipment: [.dumbbell], level: .beginner, durationMinutes: 30)

        // act, verify
        #expect(throws: WorkoutRequestError.neitherCategoriesNorMuscles) { try request.validate() }
    }

    @Test(arguments: [0, 5, 12, 33, 65, 90, -10])
    func validate_rejectsDurationsOffTheFiveMinuteGrid(_ minutes: Int) {
        // setup
        let request = WorkoutRequest(muscles: [.chest], level: .beginner, durationMinutes: minutes)

        // act, verify
        #expect(throws: WorkoutRequestError.durationNotAllowed(minutes)) { try request.validate() }
        #expect(WorkoutRequestError.durationNotAllowed(minutes).field == "durationMinutes")
        #expect(WorkoutRequestError.durationNotAllowed(minutes).description.contains("\(minutes)"))
    }

    @Test func validate_acceptsEveryAllowedDuration() throws {
        for minutes in WorkoutRequest.allowedMinutes {
            // setup
            let request = WorkoutRequest(muscles: [.chest], level: .beginner, durationMinutes: minutes)

            // act, verify
            try request.validate()
        }
        #expect(Array(WorkoutRequest.allowedMinutes) == [10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60])
    }

    @Test func generate_turnsAnInvalidRequestIntoATypedError() {
        // setup
        let request = WorkoutRequest(muscles: [.chest], level: .beginner, durationMinutes: 32)
        var rng = SplitMix64(seed: 1)

        // act, verify
        #expect(throws: WorkoutGenerationError.invalidRequest(.durationNotAllowed(32))) {
            try Fixtures.generator.generate(request: request, using: &rng)
        }
    }

    @Test func init_normalizesListsSoEqualRequestsEncodeEqually() throws {
        // setup
        let a = WorkoutRequest(muscles: [.triceps, .chest, .triceps], equipment: [.dumbbell, .bands], level: .beginner,
                               durationMinutes: 30, avoiding: [.knee, .wrist])
        let b = WorkoutRequest(muscles: [.chest, .triceps], equipment: [.bands, .dumbbell], level: .beginner,
                               durationMinutes: 30, avoiding: [.wrist, .knee, .knee])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys

        // act
        let (left, right) = (try encoder.encode(a), try encoder.encode(b))

        // verify
        #expect(a == b)
        #expect(left == right)
        #expect(a.muscles == [.chest, .triceps])
    }

    @Test func decode_readsTheWireFormatWithOptionalListsMissing() throws {
        // setup
        let json = #"{"muscles": ["lower back", "chest"], "level": "beginner", "durationMinutes": 20, "seed": 7}"#

        // act
        let request = try JSONDecoder().decode(WorkoutRequest.self, from: Data(json.utf8))

        // verify
        #expect(request == WorkoutRequest(muscles: [.chest, .lowerBack], level: .beginner, durationMinutes: 20, seed: 7))
    }

    @Test func random_alwaysDrawsValidRequests() throws {
        // setup
        var rng = SplitMix64(seed: 11)

        for _ in 0..<1_000 {
            // act
            let request = WorkoutRequest.random(using: &rng)

            // verify
            try request.validate()
        }
    }
}
