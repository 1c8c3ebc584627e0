import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The trainer conversation as a client reads it.
struct TrainerConversationBody: Decodable, Equatable {
    struct QuickReply: Decodable, Equatable {
        let id: String
        let label: String
    }

    struct Message: Decodable, Equatable {
        let author: String
        let text: String
        let field: String?
        let expects: String?
        let quickReplies: [QuickReply]
        let allowsMultiple: Bool
        let unit: String?
    }

    struct Profile: Decodable, Equatable {
        let age: Int?
        let heightCm: Double?
        let weightKg: Double?
        let gender: String?
        let goal: String?
        let equipment: [String]?
        let trainingDays: [String]?
        let sessionMinutes: Int?
        let painfulRegions: [String]?
    }

    struct Decision: Decodable, Equatable {
        let kind: String
        let explanation: String
    }

    struct Workout: Decodable, Equatable {
        struct Item: Decodable, Equatable {
            let exerciseId: String
            let block: String
        }

        struct Request: Decodable, Equatable {
            let categories: [String]?
        }

        /// The stored workout (`GET /v1/workouts/{id}`).
        let workoutId: String
        let minutes: Int
        let request: Request
        let items: [Item]
        /// How pain shaped the workout, read as `POST /v1/workouts/generate`'s pain section.
        let pain: PainAwareWorkoutBody.Pain?
    }

    struct CheckIn: Decodable, Equatable {
        let minutes: Int
        let sessionRPE: Int
        let feeling: String
    }

    let id: String
    let status: String
    let step: String
    let timeZone: String
    let version: Int
    let currentField: String?
    let messages: [Message]
    let profile: Profile
    let decision: Decision?
    let workout: Workout?
    let checkIn: CheckIn?
    let proposals: [String]
    let scheduledFor: String?
    let createdAt: String
    let updatedAt: String

    /// The question being asked: the last trainer message.
    var question: Message? { messages.last { $0.author == "trainer" && $0.field != nil } }
}

struct TrainerReplyBody: Encodable {
    var clientId: String
    var field: String?
    var choices: [String]?
    var text: String?
}

/// A person talking to the trainer through the API.
struct TrainerClient {
    let api: APIClient
    let headers: [(String, String)]

    static func of(_ api: APIClient, key: String, user: String) -> TrainerClient {
        TrainerClient(api: api, headers: Auth.key(key, user: user))
    }

    func start(_ body: [String: AnyEncodable]? = nil) async throws -> APIClient.Reply {
        if let body {
            return try await api.send(.POST, "/v1/trainer/conversations", headers: headers, json: body)
        }
        return try await api.send(.POST, "/v1/trainer/conversations", headers: headers)
    }

    func get(_ id: String) async throws -> APIClient.Reply {
        try await api.get("/v1/trainer/conversations/\(id)", headers: headers)
    }

    func reply(_ id: String, _ body: TrainerReplyBody) async throws -> APIClient.Reply {
        try await api.send(.POST, "/v1/trainer/conversations/\(id)/replies", headers: headers, json: body)
    }

    /// A sensible answer to `question`: numbers typed with units, "none" for pain, good well-being, the first
    /// proposal for the next session, else the first quick reply.
    static func answer(
        to question: TrainerConversationBody.Message, clientID: String, wellBeing: String = "2", effort: String = "5"
    ) -> TrainerReplyBody {
        let field = question.field ?? ""
        var body = TrainerReplyBody(clientId: clientID, field: field)
        switch field {
        case "age": body.text = "34 years"
        case "height": body.text = "5'11\""
        case "weight": body.text = "168 lb"
        case "minutesTrained": body.text = "20 min"
        case "painfulRegions", "painRegions", "painAfterRegions", "equipment": body.choices = ["none"]
        case "sleepQuality", "fatigue", "muscleSoreness", "stress": body.choices = [wellBeing]
        case "sessionRPE": body.choices = [effort]
        case "sessionMinutes": body.choices = ["30"]
        case "trainingDays": body.text = "every day"
        default: body.choices = question.quickReplies.first.map { [$0.id] }
        }
        return body
    }
}

/// An encodable value of any type, for ad-hoc bodies.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
