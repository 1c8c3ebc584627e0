import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Wire shapes of the rehab endpoints, as a client reads them.
struct PainReportBody: Codable, Equatable {
    var id: String?
    var region: String
    var side: String
    var intensity: Int
    var kind: String
    var when: String
    var note: String?
    var reportedAt: Date?

    /// Dates as RFC 3339 strings, as clients send them (the test client's encoder would send seconds).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(region, forKey: .region)
        try container.encode(side, forKey: .side)
        try container.encode(intensity, forKey: .intensity)
        try container.encode(kind, forKey: .kind)
        try container.encode(when, forKey: .when)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(reportedAt?.formatted(.iso8601), forKey: .reportedAt)
    }
}

struct PainReportPageBody: Decodable {
    let items: [PainReportBody]
    let page: Int
    let perPage: Int
    let total: Int
    let pageCount: Int
}

struct PainStateBody: Decodable {
    struct Region: Decodable, Equatable {
        let region: String
        let label: String
        let intensity: Int
        let side: String
        let kind: String
        let when: String
        let restriction: String
    }

    let asOf: Date
    let windowDays: Int
    let regions: [Region]
}

struct PainAwareWorkoutBody: Decodable {
    struct Item: Decodable {
        let exerciseId: String
        let name: String
    }

    struct Request: Decodable {
        let avoidRegions: [String]?
    }

    struct Pain: Decodable, Equatable {
        struct Restriction: Decodable, Equatable {
            let region: String
            let intensity: Int
            let restriction: String
            let reason: String
        }

        struct LeftOut: Decodable, Equatable {
            let exerciseId: String
            let name: String
            let region: String
            let restriction: String
            let reason: String
        }

        let restrictions: [Restriction]
        let leftOut: [LeftOut]
    }

    let id: String
    let items: [Item]
    let request: Request
    let pain: Pain?
}

/// A person of a company, identified by the host app's id (cheap: no password hashing), with pain shortcuts.
struct PainPatient {
    let api: APIClient
    let headers: [(String, String)]

    static func of(_ api: APIClient, key: String, user: String) -> PainPatient {
        PainPatient(api: api, headers: Auth.key(key, user: user))
    }

    func report(
        _ region: String, side: String = "left", intensity: Int, kind: String = "aching", when: String = "movement",
        note: String? = nil, at date: Date? = nil
    ) async throws -> APIClient.Reply {
        let body = PainReportBody(
            region: region, side: side, intensity: intensity, kind: kind, when: when, note: note, reportedAt: date)
        return try await api.send(.POST, "/v1/me/pain-reports", headers: headers, json: body)
    }

    func state() async throws -> PainStateBody {
        let reply = try await api.get("/v1/me/pain", headers: headers)
        #expect(reply.status == .ok, "pain state: \(reply.text)")
        return try reply.json()
    }

    func list(_ query: String = "") async throws -> APIClient.Reply {
        try await api.get("/v1/me/pain-reports\(query.isEmpty ? "" : "?" + query)", headers: headers)
    }

    func generate(_ body: GenerateBody) async throws -> APIClient.Reply {
        try await api.send(.POST, "/v1/workouts/generate", headers: headers, json: body)
    }
}
