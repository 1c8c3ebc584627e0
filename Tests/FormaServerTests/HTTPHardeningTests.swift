import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The HTTP findings of the outside probe (issue 12): each request here once crashed the server or got an answer
/// the docs did not promise.
@Suite("HTTP hardening")
struct HTTPHardeningTests {
    @Test func pageNumbersThatWouldOverflowAre400AndTheServerKeepsServing() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act: the two requests that trapped on (page - 1) * perPage
            let largest = try await client.get("/v1/exercises?page=9223372036854775807")
            let half = try await client.get("/v1/exercises?page=4611686018427387904&perPage=100")
            let lastAllowed: ExercisePageHead = try await client.get("/v1/exercises?page=10000&perPage=100").json()
            let health = try await client.get("/v1/health")

            // verify
            #expect(largest.status == .badRequest)
            #expect(try largest.problem().field == "page")
            #expect(half.status == .badRequest)
            #expect(try half.problem().field == "page")
            #expect(lastAllowed.items.isEmpty && lastAllowed.total == 873)
            #expect(health.status == .ok)
        }
    }

    @Test func aNumberTooLargeForAnIntegerIsBlamedOnItsOwnParameter() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")

            // act
            let reply = try await ada.api.get(
                "/v1/workouts?status=completed&limit=99999999999999999999", headers: ada.headers)
            let text = try await ada.api.get("/v1/exercises?q=abc&page=x")

            // verify
            #expect(reply.status == .badRequest)
            #expect(try reply.problem().field == "limit")
            #expect(try text.problem().field == "page")
        }
    }

    @Test func aJSONBodyWithoutContentTypeIs415() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let body = Data(#"{"email": "ada@example.com", "password": "correct horse battery"}"#.utf8)

            // act
            let reply = try await client.send(.POST, "/v1/login", raw: body)

            // verify
            #expect(reply.status == .unsupportedMediaType)
            #expect(try reply.problem().type == "urn:forma:problem:unsupported-media-type")
        }
    }

    @Test func picturesWithDamagedContentAreRefused() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let png = try Fixture.data("avatar-6x4.png")
            let jpeg = try Fixture.data("avatar-6x4.jpg")
            // setup: one bit of the PNG's pixel data flipped under an unchanged CRC
            var badCRC = png
            badCRC[45] ^= 0x01
            // setup: a PNG header with a bit depth its colour type does not allow (RGB at 3 bits)
            var impossible = png
            impossible[24] = 3
            // setup: the JPEG cut before its scan, then closed with an end marker
            let scanStart = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
            let noScan = jpeg.prefix(upTo: scanStart) + Data([0xFF, 0xD9])

            for (name, bytes, type) in [
                ("bad CRC", badCRC, "image/png"), ("impossible header", impossible, "image/png"),
                ("no scan", Data(noScan), "image/jpeg"),
            ] {
                // act
                let reply = try await ada.api.send(
                    .PUT, "/v1/me/avatar", headers: ada.headers, raw: bytes, contentType: type)

                // verify
                #expect(reply.status == .unprocessableEntity, "\(name)")
                #expect(try reply.problem().field == "body", "\(name)")
            }
            let none = try await ada.api.get("/v1/me/avatar", headers: ada.headers)
            #expect(none.status == .notFound)
        }
    }

    @Test func recordingsDatedImplausiblyAreRefusedNamingRecordedAt() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            for date in ["99999-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2027-01-17T08:00:00Z"] {
                var body = try MotionBody.set(repetitions: 5)
                body.recordedAt = date

                // act
                let reply = try await ada.api.send(
                    .POST, "/v1/fitness-tests/motion", headers: ada.headers, json: body)

                // verify
                #expect(reply.status.code >= 400 && reply.status.code < 500, "\(date)")
                #expect(try reply.problem().field == "recordedAt", "\(date)")
            }
            var tomorrow = try MotionBody.set(repetitions: 5)
            tomorrow.recordedAt = "2027-01-16T07:00:00Z"
            let accepted = try await ada.api.send(
                .POST, "/v1/fitness-tests/motion", headers: ada.headers, json: tomorrow)
            #expect(accepted.status == .created)
        }
    }

    @Test func nullInAProfileUpdateIsRefusedAndChangesNothing() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let zone = try await ada.api.send(
                .PATCH, "/v1/me", headers: ada.headers, json: ["timeZone": "Europe/Berlin"])
            #expect(zone.status == .ok)

            // act
            let reply = try await ada.api.send(
                .PATCH, "/v1/me", headers: ada.headers, raw: Data(#"{"timeZone": null, "age": 30}"#.utf8),
                contentType: "application/json")
            let profile: ProfileBody = try await ada.api.get("/v1/me", headers: ada.headers).json()

            // verify
            #expect(reply.status == .unprocessableEntity)
            #expect(try reply.problem().field == "timeZone")
            #expect(profile.timeZone == "Europe/Berlin")
            #expect(profile.age == nil)
        }
    }

    @Test func v1AnswersForbidContentSniffing() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let answers = [
                try await client.get("/v1/health"), try await client.get("/v1/exercises/No_Such_Exercise"),
                try await client.get("/v1/nowhere"), try await client.get("/v1/me"),
            ]

            // verify
            for answer in answers {
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(answer.status)")
            }
        }
    }
}

/// The part of an exercise page these tests read.
private struct ExercisePageHead: Decodable {
    struct Item: Decodable { let id: String }
    let items: [Item]
    let total: Int
}

@Suite("HTTP methods")
struct MethodTests {
    @Test func aMethodThePathDoesNotTakeIs405WithAllow() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let trace = try await client.send(.TRACE, "/v1/health")
            let delete = try await client.send(.DELETE, "/v1/workouts/3f1c9a52-0d7e-4b8e-9a55-2f0f7a1d6c11/start")
            let nowhere = try await client.send(.TRACE, "/v1/nowhere")
            let generate = try await client.send(.OPTIONS, "/v1/workouts/generate")

            // verify
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers.first(name: "Allow") == "GET")
            #expect(try trace.problem().type == "urn:forma:problem:method-not-allowed")
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers.first(name: "Allow") == "POST")
            #expect(nowhere.status == .notFound)
            // the constant path wins over /v1/workouts/{id}, as in the router
            #expect(generate.headers.first(name: "Allow") == "POST")
        }
    }
}
