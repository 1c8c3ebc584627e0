import Foundation
import FormaCore

/// Clocks, zones and histories the trainer tests share.
enum TrainerFixtures {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// The instant `text` (`YYYY-MM-DDTHH:MM`) names in `zone`.
    static func instant(_ text: String, in zone: TimeZone = berlin) -> Date {
        LocalDateTime(text)!.resolved(in: zone)
    }

    /// Wednesday 25 November 2026, 09:00 in Berlin.
    static let wednesdayMorning = instant("2026-11-25T09:00")

    static func environment(now: Date = wednesdayMorning) -> TrainerEnvironment {
        TrainerEnvironment(now: now, catalog: Fixtures.catalog, generator: Fixtures.generator)
    }

    /// A check-in `hoursAgo` before `now`.
    static func session(
        hoursAgo: Double, rpe: Int, minutes: Int = 30, painBefore: [PainRating] = [], painAfter: [PainRating] = [],
        muscles: [Muscle] = [.chest], now: Date = wednesdayMorning
    ) -> SessionCheckIn {
        SessionCheckIn(
            endedAt: now.addingTimeInterval(-hoursAgo * 3600), minutes: minutes, sessionRPE: rpe, feeling: .good,
            painBefore: painBefore, painAfter: painAfter, trainedMuscles: muscles)
    }

    static let rested = HooperScores(sleepQuality: 2, fatigue: 2, muscleSoreness: 2, stress: 2)!

    /// A complete profile: strength, intermediate, dumbbells, Monday, Wednesday and Friday evenings, 30 minutes.
    static let completeProfile = TrainerProfile(
        ageYears: 32, heightCentimetres: 178, weightKilograms: 76, gender: .male, goal: .strength,
        experience: .intermediate, equipment: [.dumbbell], trainingDays: [.monday, .wednesday, .friday],
        sessionMinutes: 30, preferredTimes: [.evening], painfulRegions: [])
}
