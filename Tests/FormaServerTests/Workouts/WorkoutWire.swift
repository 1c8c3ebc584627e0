import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Wire shapes of the workout and plan endpoints, as a client reads them.
struct WorkoutBody: Decodable {
    struct Item: Decodable {
        let exerciseId: String
        let name: String
        let block: String
        let sets: Int
        let reps: Int?
        let holdSeconds: Int?
        let estimatedSeconds: Int
    }

    struct PlanSession: Decodable {
        let planId: String
        let sessionId: String
    }

    let id: String
    let name: String
    let category: String
    let level: String
    let minutes: Int
    let estimatedSeconds: Int
    let seed: Int64
    let items: [Item]
    let planSession: PlanSession?
    let saved: Bool
    let timesCompleted: Int
    let activeRun: RunBody?
    let theme: ThemeReferenceBody?
}

struct RunBody: Decodable {
    struct Result: Codable, Equatable {
        var exerciseId: String
        var reps: Int?
        var seconds: Int?
        var formScore: Double?
        var rangeOfMotion: Double? = nil
        var rangeOfMotionUnit: String? = nil
    }

    let id: String
    let workoutId: String
    let status: String
    let startedAt: Date
    let endedAt: Date?
    let elapsedSeconds: Double
    let results: [Result]?
    let planUnlocked: UnlockBody?
    let theme: ThemeReferenceBody?
}

struct UnlockBody: Decodable, Equatable {
    let planId: String
    let title: String
    let image: String?
    let date: Date
    let level: Int
    let levelTitle: String
}

struct WorkoutListBody: Decodable {
    struct Item: Decodable {
        let id: String
        let name: String
        let level: String
        let minutes: Int
        let run: RunBody?
    }

    let status: String
    let items: [Item]
}

struct GenerateBody: Encodable {
    var categories: [String]?
    var muscles: [String]?
    var equipment: [String]?
    var level: String
    var minutes: Int
    var avoidRegions: [String]?
    var seed: Int64?
    var theme: String? = nil

    static let chest = GenerateBody(
        muscles: ["chest", "triceps"], equipment: ["dumbbell"], level: "beginner", minutes: 30, seed: 7)
}

/// One person with a token, and shortcuts for the workout endpoints.
struct Trainee {
    let api: APIClient
    let headers: [(String, String)]

    static func signUp(_ api: APIClient, _ email: String) async throws -> Trainee {
        Trainee(api: api, headers: Auth.bearer(try await api.signUpAndLogIn(email: email).token))
    }

    func generate(_ body: GenerateBody = .chest) async throws -> WorkoutBody {
        let reply = try await api.send(.POST, "/v1/workouts/generate", headers: headers, json: body)
        #expect(reply.status == .created, "generate: \(reply.text)")
        return try reply.json()
    }

    func act(_ action: String, _ workoutID: String, json: (any Encodable)? = nil) async throws -> APIClient.Reply {
        let reply = try await api.send(.POST, "/v1/workouts/\(workoutID)/\(action)", headers: headers, json: json)
        return reply
    }

    func list(_ status: String) async throws -> WorkoutListBody {
        let reply = try await api.get("/v1/workouts?status=\(status)", headers: headers)
        #expect(reply.status == .ok, "list: \(reply.text)")
        return try reply.json()
    }
}
