import Foundation
import Testing

@testable import FormaCore

extension PainState {
    /// A state with these regions' intensities (others at 0), each from one report for both sides made now.
    init(intensities: [BodyRegion: Int]) {
        let now = Date(timeIntervalSince1970: 0)
        let reports = BodyRegion.allCases.compactMap { region in
            intensities[region].flatMap {
                try? PainReport(region: region, side: .both, intensity: $0, kind: .aching, when: .movement, reportedAt: now)
            }
        }
        precondition(reports.count == intensities.count, "intensities must be on the 0–10 scale")
        self.init(reports: reports, now: now)
    }
}

@Suite struct PainAwareGenerationTests {
    /// ``Exercise/loadedRegions`` by identifier, computed once.
    static let regions: [String: Set<BodyRegion>] = Dictionary(
        uniqueKeysWithValues: Fixtures.catalog.exercises.map { ($0.id, Set($0.loadedRegions)) })

    static func isAllowed(_ exercise: Exercise, _ restrictions: [PainRestriction]) -> Bool {
        PainRules.forbiddingRestriction(
            loaded: regions[exercise.id] ?? [], load: exercise.loadLevel, under: restrictions) == nil
    }

    /// Whether `item` keeps every restriction of `pain`: nothing loads a region at or above the threshold, and only
    /// low-load or mobility work loads a region in mild pain.
    static func breaks(_ item: WorkoutItem, _ pain: PainState) -> String? {
        guard let exercise = Fixtures.catalog[item.exerciseID] else { return "\(item.exerciseID) unknown" }
        let loaded = regions[exercise.id] ?? []
        for regionPain in pain.regions where loaded.contains(regionPain.region) {
            if regionPain.intensity >= PainRules.avoidFrom {
                return "\(exercise.name) loads \(regionPain.region.rawValue) at \(regionPain.intensity)/10"
            }
            if exercise.loadLevel > .low {
                return "\(exercise.name) loads mild \(regionPain.region.rawValue) with \(exercise.loadLevel)"
            }
        }
        return nil
    }

    static func randomPain(using rng: inout SplitMix64) -> PainState {
        var intensities: [BodyRegion: Int] = [:]
        for _ in 0..<Int(rng.next() % 4) {
            let region = BodyRegion.allCases[Int(rng.next() % UInt64(BodyRegion.allCases.count))]
            intensities[region] = Int(rng.next() % 11)
        }
        return PainState(intensities: intensities)
    }

    @Test func generate_neverLoadsARegionBeyondWhatItsPainAllows() {
        // setup
        var successes = 0, painBlamed = 0, impossible = 0
        for seed in 0..<400 {
            var rng = SplitMix64(seed: UInt64(seed))
            let request = WorkoutRequest.random(using: &rng)
            let pain = Self.randomPain(using: &rng)

            // act
            let result = Result { () throws(PainAwareGenerationError) in
                try Fixtures.generator.generate(request: request, pain: pain, using: &rng)
            }

            // verify
            switch result {
            case .success(let answer):
                successes += 1
                let broken = answer.workout.items.compactMap { Self.breaks($0, pain) }
                #expect(broken.isEmpty, "seed \(seed): \(broken)")
                // the generator's rules hold over the exercises pain allows
                let allowed = answer.restrictions.isEmpty ? Fixtures.catalog : try! ExerciseCatalog(
                    exercises: Fixtures.catalog.exercises.filter { Self.isAllowed($0, answer.restrictions) })
                let problems = violations(of: answer.workout, for: answer.workout.request, catalog: allowed)
                #expect(problems.isEmpty, "seed \(seed): \(problems)")
                let used = Set(answer.workout.items.map(\.exerciseID))
                #expect(answer.leftOut.allSatisfy { !used.contains($0.exerciseID) }, "seed \(seed)")
            case .failure(.painLeavesNothing(let regions, _)):
                painBlamed += 1
                let restricted = Set(PainRules.restrictions(for: pain))
                #expect(!regions.isEmpty && Set(regions).isSubset(of: restricted), "seed \(seed)")
                // the same request without pain can be filled, or pain would not be to blame
                var unused = SplitMix64(seed: 0)
                #expect((try? Fixtures.generator.generate(request: request, using: &unused)) != nil, "seed \(seed)")
            case .failure(.impossible):
                impossible += 1
                var unused = SplitMix64(seed: 0)
                #expect((try? Fixtures.generator.generate(request: request, using: &unused)) == nil, "seed \(seed)")
            case .failure(.invalidRequest(let error)):
                Issue.record("seed \(seed): valid request rejected: \(error)")
            }
        }
        #expect(successes > 200 && painBlamed > 5, "\(successes) workouts, \(painBlamed) blamed on pain, \(impossible) impossible")
    }

    @Test func generate_withMildKneePain_keepsOnlyGentleWorkThatLoadsTheKnee() throws {
        // setup
        let request = WorkoutRequest(muscles: [.quadriceps, .abdominals], level: .beginner, durationMinutes: 20, seed: 7)
        let pain = PainState(intensities: [.knee: 3])
        var rng = SplitMix64(seed: 1)

        // act
        let answer = try Fixtures.generator.generate(request: request, pain: pain, using: &rng)

        // verify
        #expect(answer.restrictions == [PainRestriction(region: .knee, intensity: 3, kind: .lowLoadOnly)])
        #expect(answer.workout.items.allSatisfy { Self.breaks($0, pain) == nil })
        #expect(!answer.workout.request.avoiding.contains(.knee), "mild pain does not ban the region")
        let squat = try #require(answer.leftOut.first { $0.exerciseID == "Barbell_Squat" || $0.exerciseID == "Bodyweight_Squat" })
        #expect(squat.restriction.kind == .lowLoadOnly && squat.explanation.contains("knee pain 3/10"))
    }

    @Test func generate_withSevereShoulderPain_avoidsTheShoulderAndSaysWhatWasLeftOut() throws {
        // setup
        let request = WorkoutRequest(categories: [.strength], equipment: [.dumbbell], level: .intermediate, durationMinutes: 30, seed: 3)
        let pain = PainState(intensities: [.shoulder: 7])
        var rng = SplitMix64(seed: 1)

        // act
        let answer = try Fixtures.generator.generate(request: request, pain: pain, using: &rng)

        // verify
        #expect(answer.workout.request.avoiding == [.shoulder])
        #expect(answer.workout.items.allSatisfy { !(Self.regions[$0.exerciseID]?.contains(.shoulder) ?? true) })
        #expect(answer.leftOut.count > 10)
        #expect(answer.leftOut.allSatisfy { $0.restriction.region == .shoulder && $0.restriction.kind == .avoid })
        #expect(answer.leftOut.contains { $0.name.contains("Shoulder Press") })
    }

    @Test func generate_whenPainLeavesNothing_namesTheRegion() {
        // setup: a chest-only workout with severe chest pain
        let request = WorkoutRequest(muscles: [.chest], equipment: [.barbell, .dumbbell], level: .expert, durationMinutes: 30, seed: 1)
        let pain = PainState(intensities: [.chest: 8, .ankle: 2])
        var rng = SplitMix64(seed: 1)

        // act, verify
        do {
            _ = try Fixtures.generator.generate(request: request, pain: pain, using: &rng)
            Issue.record("a chest workout was generated around chest pain 8/10")
        } catch {
            guard case .painLeavesNothing(let regions, _) = error else {
                Issue.record("expected painLeavesNothing, got \(error)")
                return
            }
            #expect(regions == [PainRestriction(region: .chest, intensity: 8, kind: .avoid)])
            #expect(error.field == "avoiding")
            #expect(error.description.contains("chest (pain 8/10)"))
        }
    }

    @Test func generate_withoutPain_isTheGeneratorsOwnWorkout() throws {
        var generated = 0
        for seed in 0..<50 {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            let request = WorkoutRequest.random(using: &rng)
            var first = SplitMix64(seed: 9), second = SplitMix64(seed: 9)

            // act
            let plain = try? Fixtures.generator.generate(request: request, using: &first)
            let aware = try? Fixtures.generator.generate(request: request, pain: PainState(intensities: [:]), using: &second)

            // verify
            #expect(aware?.workout == plain, "seed \(seed)")
            #expect(aware?.leftOut.isEmpty ?? true, "seed \(seed)")
            if plain != nil { generated += 1 }
        }
        // most random requests can be met, so the comparison above compared workouts, not two failures
        #expect(generated >= 25, "only \(generated) of 50 requests gave a workout")
    }

    @Test func restriction_followsTheDocumentedBands() {
        #expect(PainRules.restriction(forIntensity: 0) == nil)
        #expect(PainRules.restriction(forIntensity: 1) == .lowLoadOnly)
        #expect(PainRules.restriction(forIntensity: 5) == .lowLoadOnly)
        #expect(PainRules.restriction(forIntensity: 6) == .avoid)
        #expect(PainRules.restriction(forIntensity: 10) == .avoid)
    }
}
