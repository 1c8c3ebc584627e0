import Foundation
import Testing

@testable import FormaServer

/// The progress series as a client reads them.
struct PainProgressBody: Decodable {
    struct Point: Decodable, Equatable {
        let date: String
        let intensity: Int
        let reports: Int
    }

    struct Region: Decodable {
        let region: String
        let label: String
        let points: [Point]
    }

    let timeZone: String
    let from: String
    let to: String
    let regions: [Region]
}

struct TrainingProgressBody: Decodable {
    struct Week: Decodable, Equatable {
        let weekStart: String
        let workouts: Int
        let activeSeconds: Int
        let minutes: Double
        let repetitions: Int
    }

    struct Totals: Decodable, Equatable {
        let workouts: Int
        let activeSeconds: Int
        let minutes: Double
        let repetitions: Int
    }

    let timeZone: String
    let from: String
    let to: String
    let weeks: [Week]
    let totals: Totals
}

struct FitnessProgressBody: Decodable {
    struct Previous: Decodable, Equatable {
        let testId: String
        let date: String
        let reps: Int
        let ratePerMinute: Double?
    }

    struct Point: Decodable {
        let testId: String
        let date: String
        let completedAt: Date
        let reps: Int
        let ratePerMinute: Double?
        let previous: Previous?
        let change: Double?
    }

    struct Exercise: Decodable {
        let exerciseId: String
        let name: String
        let points: [Point]
    }

    let timeZone: String
    let from: String
    let to: String
    let exercises: [Exercise]
}

extension APIClient {
    /// `GET /v1/me/progress/<series>?<query>`, checked to be a 200 and decoded.
    func progress<Body: Decodable>(
        _ series: String, _ query: String = "", headers: [(String, String)], as type: Body.Type = Body.self
    ) async throws -> Body {
        let reply = try await get("/v1/me/progress/\(series)\(query.isEmpty ? "" : "?" + query)", headers: headers)
        #expect(reply.status == .ok, "\(series)?\(query): \(reply.text)")
        return try reply.json()
    }
}
