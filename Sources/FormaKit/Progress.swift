import FormaAPI
import Foundation

/// Pain over time (`GET /v1/me/progress/pain`): per body-map region with reports in the range, head to foot, the
/// highest pain of each calendar day that had reports, in the person's time zone (docs/rehab.md#progress-charts).
public struct PainProgress: Sendable, Hashable, Codable {
    public struct Day: Sendable, Hashable, Codable {
        /// `YYYY-MM-DD` in ``PainProgress/timeZone``.
        public var date: String
        /// The day's highest intensity, 0–10.
        public var intensity: Int
        public var reports: Int
    }

    public struct Region: Sendable, Hashable, Codable {
        public var region: String
        public var label: String
        public var days: [Day]
    }

    public var timeZone: String
    /// The first and last day of the range, `YYYY-MM-DD`, both included.
    public var from: String
    public var to: String
    public var regions: [Region]
}

/// Training per week (`GET /v1/me/progress/training`): saved runs per Monday-to-Sunday week of the person's time
/// zone, oldest first, every week of the range listed.
public struct TrainingProgress: Sendable, Hashable, Codable {
    public struct Week: Sendable, Hashable, Codable {
        /// The week's Monday, `YYYY-MM-DD`.
        public var weekStart: String
        public var workouts: Int
        /// Active time, pauses excluded.
        public var activeSeconds: Int
        /// ``activeSeconds`` in minutes, to one decimal.
        public var minutes: Double
        public var repetitions: Int
    }

    public var timeZone: String
    /// The Monday of the first week and the Sunday of the last.
    public var from: String
    public var to: String
    public var weeks: [Week]
    /// Sums over ``weeks``.
    public var workouts: Int
    public var activeSeconds: Int
    public var minutes: Double
    public var repetitions: Int
}

/// Fitness-test results over time (`GET /v1/me/progress/fitness-tests`): per exercise, each completed test's result
/// beside the previous result of the same exercise.
public struct FitnessTestProgress: Sendable, Hashable, Codable {
    public struct Previous: Sendable, Hashable, Codable {
        public var testId: String
        public var date: String
        public var reps: Int
        public var ratePerMinute: Double?
    }

    public struct Result: Sendable, Hashable, Codable {
        public var testId: String
        /// The day the test completed, `YYYY-MM-DD` in the person's time zone.
        public var date: String
        public var completedAt: Date
        public var reps: Int
        /// Repetitions per minute; `nil` below two repetitions.
        public var ratePerMinute: Double?
        public var previous: Previous?
        /// `ratePerMinute / previous.ratePerMinute − 1` (0.12 is 12 % faster); `nil` without both.
        public var change: Double?
    }

    public struct Exercise: Sendable, Hashable, Codable {
        public var exerciseId: String
        public var name: String
        public var results: [Result]
    }

    public var timeZone: String
    public var from: String
    public var to: String
    public var exercises: [Exercise]
}

extension FormaKit {
    /// Pain per region per day. `from` and `to` are calendar days `YYYY-MM-DD` (both included, at most 731 days
    /// apart; default the 90 days to today), `timeZone` an IANA identifier (default the profile's, else UTC). A bad
    /// value is ``FormaError/server(status:title:detail:fields:)`` 400 naming the parameter.
    public func painProgress(
        from: String? = nil, to: String? = nil, timeZone: String? = nil, region: String? = nil
    ) async throws(FormaError) -> PainProgress {
        try await call { client in
            let body = try await client.getPainProgress(
                query: .init(from: from, to: to, timeZone: timeZone, region: region)
            ).ok.body.json
            return PainProgress(body)
        }
    }

    /// Saved training per week; the range (default the 12 weeks to this one) is widened to whole weeks.
    public func trainingProgress(
        from: String? = nil, to: String? = nil, timeZone: String? = nil
    ) async throws(FormaError) -> TrainingProgress {
        try await call { client in
            let body = try await client.getTrainingProgress(query: .init(from: from, to: to, timeZone: timeZone))
                .ok.body.json
            return TrainingProgress(body)
        }
    }

    /// Completed fitness tests' results per exercise (default: the year to today), each with the previous result.
    public func fitnessTestProgress(
        from: String? = nil, to: String? = nil, timeZone: String? = nil, exerciseId: String? = nil
    ) async throws(FormaError) -> FitnessTestProgress {
        try await call { client in
            let body = try await client.getFitnessTestProgress(
                query: .init(from: from, to: to, timeZone: timeZone, exerciseId: exerciseId)
            ).ok.body.json
            return FitnessTestProgress(body)
        }
    }
}
