import Foundation
import Testing

@testable import FormaCore

@Suite struct PlanLibraryTests {
    static let library: PlanLibrary = try! PlanLibrary(generator: Fixtures.generator)

    @Test func builtIn_coversEveryPlanCategoryWithStableIdentifiers() {
        // act
        let ids = Self.library.plans.map(\.id)

        // verify: servers store these; a rename strands every enrolment
        #expect(ids == [
            "strength-bodyweight", "strength-dumbbell", "strength-gym", "cardio-bodyweight", "cardio-machines",
            "rehabilitation-mobility", "rehabilitation-mobility--avoid-neck", "rehabilitation-mobility--avoid-shoulder",
            "rehabilitation-mobility--avoid-elbow", "rehabilitation-mobility--avoid-wrist",
            "rehabilitation-mobility--avoid-lower-back", "rehabilitation-mobility--avoid-hip",
            "rehabilitation-mobility--avoid-knee", "rehabilitation-mobility--avoid-ankle",
        ])
        for category in PlanCategory.allCases { #expect(!Self.library.plans(in: category).isEmpty, "\(category)") }
    }

    @Test func everySession_isAValidWorkoutForItsPlan() {
        for plan in Self.library.plans {
            #expect(plan.levels.map(\.number) == Array(1...plan.levels.count), "\(plan.id)")
            #expect(plan.levels.count >= 3, "\(plan.id)")
            for level in plan.levels {
                #expect(level.sessions.count == level.weeks * 3, "\(plan.id) level \(level.number)")
                for session in level.sessions {
                    // verify: the workout keeps every generator rule, at the level's difficulty, for the plan's
                    // equipment and avoided regions
                    let request = session.workout.request
                    #expect(request.level == level.difficulty && request.equipment == plan.equipment)
                    #expect(request.avoiding == plan.avoiding)
                    #expect(session.id == "\(plan.id)/l\(level.number)/w\(session.week)/d\(session.day)")
                    let problems = violations(of: session.workout, for: request, catalog: Fixtures.catalog)
                    #expect(problems.isEmpty, "\(session.id): \(problems)")
                }
            }
        }
        let ids = Self.library.plans.flatMap(\.sessions).map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func levels_progressInDifficultyOrDuration() {
        for plan in Self.library.plans {
            for (previous, next) in zip(plan.levels, plan.levels.dropFirst()) {
                // setup
                let before = previous.sessions[0].workout.request
                let after = next.sessions[0].workout.request

                // verify
                #expect(after.level >= before.level && after.durationMinutes >= before.durationMinutes, "\(plan.id)")
                #expect(after.level > before.level || after.durationMinutes > before.durationMinutes, "\(plan.id)")
            }
        }
    }

    @Test func rehabilitation_favoursStretchingAndLowImpactBodyWeight() throws {
        for plan in Self.library.plans(in: .rehabilitation) {
            // setup
            let exercises = try plan.sessions.flatMap(\.workout.items).map { try #require(Fixtures.catalog[$0.exerciseID]) }

            // act
            let stretching = exercises.filter { $0.category == .stretching }.count

            // verify
            #expect(stretching * 2 > exercises.count, "\(plan.id): \(stretching) stretches of \(exercises.count)")
            #expect(exercises.allSatisfy { $0.isBodyWeight && $0.level == .beginner }, "\(plan.id)")
            #expect(!exercises.contains { $0.category == .plyometrics || $0.category == .cardio }, "\(plan.id)")
            for region in plan.avoiding {
                #expect(!exercises.contains { Fixtures.loads($0, anyOf: [region]) }, "\(plan.id)")
            }
            #expect(plan.category.workoutCategory == .rehabilitation)
        }
    }

    @Test func build_isDeterministic() throws {
        // act
        let again = try PlanLibrary(generator: Fixtures.generator)

        // verify
        #expect(again.plans == Self.library.plans)
    }

    @Test func planForRegions_isNamedCanonicallyAndRebuiltFromItsIdentifier() throws {
        // setup
        let library = Self.library

        // act
        let plan = try library.rehabilitationPlan(avoiding: [.knee, .wrist, .knee])
        let rebuilt = try library.plan(id: plan.id)

        // verify
        #expect(plan.id == "rehabilitation-mobility--avoid-wrist_knee")
        #expect(plan.avoiding == [.wrist, .knee])
        #expect(plan.title == "Gentle Mobility (sparing wrist, knee)")
        #expect(rebuilt == plan)
        #expect(throws: PlanBuildError.unknownPlan("rehabilitation-mobility--avoid-knee_wrist")) {
            try library.plan(id: "rehabilitation-mobility--avoid-knee_wrist")
        }
        #expect(throws: PlanBuildError.unknownPlan("yoga-for-cats")) { try library.plan(id: "yoga-for-cats") }
    }

    @Test func planForRegions_namesTheSessionItCannotFill() {
        // act
        let result = Result { () throws(PlanBuildError) in
            try Self.library.plan(basedOn: "strength-bodyweight", avoiding: BodyRegion.jointRegions)
        }

        // verify
        guard case .failure(.sessionImpossible(let sessionID, .impossible(let impossibility))) = result else {
            Issue.record("expected an impossible session, got \(result)")
            return
        }
        #expect(sessionID.hasPrefix("strength-bodyweight--avoid-neck_shoulder_elbow_wrist_lower-back_hip_knee_ankle/l1/"))
        #expect(!impossibility.suggestions.isEmpty)
    }
}
