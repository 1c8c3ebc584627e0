import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("POST /v1/fitness-tests/motion")
struct MotionTestAPITests {
    @Test(arguments: [(12.5, false), (50.0, true), (100.0, true)])
    func countsASetAndStoresIt(rate: Double, gyroscope: Bool) async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let body = try MotionBody.set(
                repetitions: 8, rate: rate, period: 2.5, exerciseId: "Barbell_Squat", gyroscope: gyroscope)

            let reply = try await ada.api.send(.POST, "/v1/fitness-tests/motion", headers: ada.headers, json: body)

            #expect(reply.status == .created, "\(reply.text)")
            let result: MotionResultBody = try reply.json()
            #expect(result.reps == 8)
            #expect(result.repetitions.map(\.number) == Array(1...8))
            #expect(abs(result.sampleRate - rate) < 0.01)
            // 8 repetitions of 2.5 s: about 24 a minute over the active part
            let ratePerMinute = try #require(result.ratePerMinute)
            #expect(abs(ratePerMinute - 24) < 2.5, "rate \(ratePerMinute)")
            #expect(result.exerciseName == "Barbell Squat")
            // the rest before the set is left out
            #expect((result.activeStartSeconds ?? 0) > 4)

            let listed: MotionTestListBody = try await ada.api
                .get("/v1/fitness-tests/motion?exerciseId=Barbell_Squat", headers: ada.headers).json()
            #expect(listed.items.map(\.id) == [result.id])
        }
    }

    @Test func explicitTimes_areAcceptedInsteadOfARate() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            var body = try MotionBody.set(repetitions: 6, rate: 25)
            body.t = body.accel.indices.map { 1_000 + Double($0) / 25 }
            body.sampleRate = nil

            let reply = try await ada.api.send(.POST, "/v1/fitness-tests/motion", headers: ada.headers, json: body)

            #expect(reply.status == .created, "\(reply.text)")
            #expect(try reply.json(MotionResultBody.self).reps == 6)
        }
    }

    @Test func aStillRecording_countsNothing() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let still = (0..<1_500).map { index in [0.002 * sin(Double(index)), -1.0, 0.001 * cos(Double(index))] }

            let reply = try await ada.api.send(
                .POST, "/v1/fitness-tests/motion", headers: ada.headers,
                json: MotionBody(sampleRate: 50, accel: still))

            #expect(reply.status == .created, "\(reply.text)")
            let result: MotionResultBody = try reply.json()
            #expect(result.reps == 0)
            #expect(result.ratePerMinute == nil)
        }
    }

    @Test func badRecordings_nameTheFieldAtFault() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let good = try MotionBody.set(repetitions: 5)
            var wrongArity = good
            wrongArity.accel[17] = [0.1, 0.2]
            var backwards = good
            backwards.sampleRate = nil
            backwards.t = good.accel.indices.map { Double($0) / 50 }
            backwards.t?[40] = 0.5
            var gyroShort = good
            gyroShort.gyro?.removeLast()
            var absurdRate = good
            absurdRate.sampleRate = 100_000
            var noTiming = good
            noTiming.sampleRate = nil
            var tooShort = good
            tooShort.accel = Array(good.accel.prefix(40))
            tooShort.gyro = nil
            let cases: [(MotionBody, String)] = [
                (wrongArity, "accel[17]"), (backwards, "t[40]"), (gyroShort, "gyro"), (absurdRate, "sampleRate"),
                (noTiming, "sampleRate"), (tooShort, "accel"), (MotionBody(sampleRate: 50, accel: []), "accel"),
            ]
            for (body, field) in cases {
                let reply = try await ada.api.send(
                    .POST, "/v1/fitness-tests/motion", headers: ada.headers, json: body)
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().errors?.first?.field == field, "\(reply.text)")
            }
            var unknownExercise = good
            unknownExercise.exerciseId = "Not_An_Exercise"
            let reply = try await ada.api.send(
                .POST, "/v1/fitness-tests/motion", headers: ada.headers, json: unknownExercise)
            #expect(try reply.problem().errors?.first?.field == "exerciseId")

            // nothing was stored by any of them
            let listed: MotionTestListBody = try await ada.api.get("/v1/fitness-tests/motion", headers: ada.headers)
                .json()
            #expect(listed.items.isEmpty)
        }
    }

    @Test func nonNumbersAndMissingFields_are4xxNot500() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            for raw in [
                #"{"recordedAt": "2027-01-15T08:00:00Z", "sampleRate": 50, "accel": [["a", 1, 2]]}"#,
                #"{"sampleRate": 50, "accel": [[0, 1, 2]]}"#,
                #"{"recordedAt": "yesterday", "sampleRate": 50, "accel": [[0, 1, 2]]}"#,
            ] {
                let reply = try await ada.api.send(
                    .POST, "/v1/fitness-tests/motion", headers: ada.headers, raw: Data(raw.utf8),
                    contentType: "application/json")
                #expect((400..<500).contains(reply.status.code), "\(raw) → \(reply.status)")
            }
        }
    }

    @Test func recordingsAboveTheBodyLimit_are413() async throws {
        try await withFormaApp(adjust: { $0.maximumMotionBodyBytes = 200_000 }) { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let body = try MotionBody.set(repetitions: 20, rate: 100)

            let reply = try await ada.api.send(.POST, "/v1/fitness-tests/motion", headers: ada.headers, json: body)

            #expect(reply.status == .payloadTooLarge)
        }
    }

    @Test func resultsBelongToTheirPerson() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            _ = try await ada.api.send(
                .POST, "/v1/fitness-tests/motion", headers: ada.headers, json: try MotionBody.set(repetitions: 5))

            let bobs: MotionTestListBody = try await api.get("/v1/fitness-tests/motion", headers: bob.headers).json()
            #expect(bobs.items.isEmpty)
            let unauthenticated = try await api.send(
                .POST, "/v1/fitness-tests/motion", json: try MotionBody.set(repetitions: 5))
            #expect(unauthenticated.status == .unauthorized)
        }
    }
}

struct MotionTestListBody: Decodable {
    let items: [MotionResultBody]
}
