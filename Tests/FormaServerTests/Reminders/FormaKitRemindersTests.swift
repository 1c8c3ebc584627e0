import FormaKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// FormaKit's reminder calls against a running server (the test clock starts at 2027-01-15T08:00Z).
@Suite("FormaKit's reminders against a running server")
struct FormaKitRemindersTests {
    static func kit(_ app: Application, _ server: LiveTestServer) async throws -> FormaKit {
        let key = try await APIClient(app: app).createCompany("Acme")
        return FormaKit(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
            companyName: "Acme", userId: "user-42")
    }

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    static func refusal(_ body: () async throws(FormaError) -> Void) async -> FormaError? {
        do throws(FormaError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func settingAKeyAgainReplacesItsReminder() async throws {
        try await withLiveServer { app, server in
            // setup
            let kit = try await Self.kit(app, server)

            // act: the trainer's next session, set in a spring-forward gap, then moved
            let first = try await kit.setReminder(
                key: FormaKit.nextWorkoutReminderKey, localTime: "2027-03-28T02:30", timeZone: "Europe/Berlin",
                title: "Time to train", body: "Legs today.")
            let moved = try await kit.setReminder(
                key: FormaKit.nextWorkoutReminderKey, localTime: "2027-01-20T18:30", timeZone: "Europe/Berlin",
                title: "Time to train")
            let listed = try await kit.reminders()

            // verify: 02:30 does not exist in Berlin that night, so it is due at 03:30 CEST; the second replaced it
            #expect(first.key == "trainer-next-workout")
            #expect(first.dueAt == (try Self.instant("2027-03-28T01:30:00Z")))
            #expect(first.localTime == "2027-03-28T02:30" && first.state == "pending" && first.body == "Legs today.")
            #expect(moved.dueAt == (try Self.instant("2027-01-20T17:30:00Z")))
            #expect(moved.body == "")
            #expect(listed.map(\.key) == ["trainer-next-workout"])
            #expect(listed.first?.localTime == "2027-01-20T18:30" && listed.first?.attempts == 0)
        }
    }

    @Test func listingIsSoonestFirstAndDeletingCancels() async throws {
        try await withLiveServer { app, server in
            // setup
            let kit = try await Self.kit(app, server)
            _ = try await kit.setReminder(
                key: "trainer-next-workout", localTime: "2027-01-20T18:30", timeZone: "Europe/Berlin",
                title: "Time to train")
            _ = try await kit.setReminder(
                key: "stretch", localTime: "2027-01-16T07:00", timeZone: "America/New_York", title: "Stretch")

            // act
            let before = try await kit.reminders()
            try await kit.deleteReminder(key: "trainer-next-workout")
            let after = try await kit.reminders()
            let again = await Self.refusal { () async throws(FormaError) in
                try await kit.deleteReminder(key: "trainer-next-workout")
            }

            // verify
            #expect(before.map(\.key) == ["stretch", "trainer-next-workout"])
            #expect(before.first?.dueAt == (try Self.instant("2027-01-16T12:00:00Z")))
            #expect(after.map(\.key) == ["stretch"])
            guard case .server(let status, _, _, _) = again else {
                Issue.record("deleting a missing reminder was not a 404: \(String(describing: again))")
                return
            }
            #expect(status == 404)
        }
    }

    @Test func aPastTimeIsRefusedNamingLocalTimeAndNothingIsStored() async throws {
        try await withLiveServer { app, server in
            // setup
            let kit = try await Self.kit(app, server)

            // act: 08:30 in Berlin is 07:30Z, half an hour before the clock's 08:00Z
            let refused = await Self.refusal { () async throws(FormaError) in
                _ = try await kit.setReminder(
                    key: "trainer-next-workout", localTime: "2027-01-15T08:30", timeZone: "Europe/Berlin",
                    title: "Time to train")
            }
            let badZone = await Self.refusal { () async throws(FormaError) in
                _ = try await kit.setReminder(
                    key: "trainer-next-workout", localTime: "2027-01-20T18:30", timeZone: "CEST", title: "Train")
            }
            let listed = try await kit.reminders()

            // verify
            guard case .server(let status, _, _, let fields) = refused,
                case .server(let zoneStatus, _, _, let zoneFields) = badZone
            else {
                Issue.record("not refused: \(String(describing: refused)), \(String(describing: badZone))")
                return
            }
            #expect(status == 422 && fields.map(\.field) == ["localTime"])
            #expect(zoneStatus == 422 && zoneFields.map(\.field) == ["timeZone"])
            #expect(listed.isEmpty)
        }
    }
}
