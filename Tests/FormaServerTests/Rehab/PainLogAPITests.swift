import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Body map and pain log API")
struct PainLogAPITests {
    @Test func theBodyMapIsServedAsTheCoresMapAndRevalidatesWithItsETag() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)

            // act: no credentials needed
            let first = try await api.get("/v1/body-map")
            let tag = try #require(first.headers.first(name: .eTag))
            let again = try await api.get("/v1/body-map", headers: [("If-None-Match", tag)])
            let stale = try await api.get("/v1/body-map", headers: [("If-None-Match", "\"body-map-v0\"")])

            // verify: the JSON decodes to exactly the map FormaCore hit-tests, with a label for every region
            #expect(first.status == .ok)
            #expect(first.headers.first(name: .cacheControl)?.contains("max-age") == true)
            #expect(try first.json(BodyMap.self) == BodyMap.standard)
            struct Labels: Decodable {
                struct Region: Decodable { let id: String; let label: String; let paired: Bool }
                let regions: [Region]
            }
            let labels = try first.json(Labels.self).regions
            #expect(labels.map(\.id) == BodyRegion.allCases.map(\.rawValue))
            #expect(labels.first { $0.id == "knee" }?.paired == true)
            #expect(labels.first { $0.id == "neck" }?.paired == false)
            #expect(again.status == .notModified && again.body.isEmpty)
            #expect(again.headers.first(name: .eTag) == tag)
            #expect(stale.status == .ok)
        }
    }

    @Test func reportsAreStoredListedNewestFirstFilteredAndPaged() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let ada = PainPatient.of(api, key: key, user: "ada")
            let start = clock.now

            // act: five reports an hour apart, three of the knee
            var created: [PainReportBody] = []
            for (index, region) in ["knee", "lower back", "knee", "wrist", "knee"].enumerated() {
                let reply = try await ada.report(
                    region, side: "right", intensity: index + 2, note: index == 0 ? "  after the run  " : nil)
                #expect(reply.status == .created, "\(reply.text)")
                created.append(try reply.json())
                clock.advance(seconds: 3_600)
            }
            let knees: PainReportPageBody = try await ada.list("region=knee").json()
            let page2: PainReportPageBody = try await ada.list("perPage=2&page=2").json()
            let window: PainReportPageBody = try await ada.list(
                "from=\(start.addingTimeInterval(3_600).formatted(.iso8601))"
                    + "&to=\(start.addingTimeInterval(3 * 3_600).formatted(.iso8601))").json()

            // verify
            #expect(created[0].note == "after the run" && created[0].reportedAt == start)
            #expect(created[0].side == "right" && created[0].intensity == 2 && created[0].kind == "aching")
            #expect(knees.items.map(\.intensity) == [6, 4, 2] && knees.total == 3 && knees.pageCount == 1)
            #expect(page2.items.map(\.region) == ["knee", "lower back"] && page2.total == 5 && page2.pageCount == 3)
            #expect(window.items.map(\.region) == ["knee", "lower back"])
        }
    }

    /// A browser writes dates with milliseconds (`Date.prototype.toISOString`); the API reads them as the instant
    /// they name and answers in whole seconds, as it always writes.
    @Test func aDateWithFractionalSecondsIsRead_asABrowserWritesIt() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let when = clock.now.addingTimeInterval(-90)
            let text = when.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            #expect(text.contains("."), "the test sends fractional seconds: \(text)")

            // act
            let reply = try await api.send(
                .POST, "/v1/me/pain-reports", headers: Auth.key(key, user: "ada"),
                raw: Data(#"{"region":"knee","side":"left","intensity":3,"kind":"aching","when":"movement","reportedAt":"\#(text)"}"#.utf8),
                contentType: "application/json")
            let garbled = try await api.send(
                .POST, "/v1/me/pain-reports", headers: Auth.key(key, user: "ada"),
                raw: Data(#"{"region":"knee","side":"left","intensity":3,"kind":"aching","when":"movement","reportedAt":"yesterday"}"#.utf8),
                contentType: "application/json")

            // verify
            #expect(reply.status == .created, "\(reply.text)")
            let created: PainReportBody = try reply.json()
            #expect(created.reportedAt.map { abs($0.timeIntervalSince(when)) < 1 } == true)
            #expect(reply.text.contains(#""reportedAt":""#) && !reply.text.contains(".000Z"), "answers in whole seconds")
            #expect(garbled.status == .badRequest || garbled.status == .unprocessableEntity)
        }
    }

    @Test func badReportsAndQueriesNameTheFieldAtFault() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let ada = PainPatient.of(api, key: key, user: "ada")

            // act and verify: each bad value is a 422 naming its field
            let cases: [(field: String, reply: APIClient.Reply)] = [
                ("region", try await ada.report("elbows", intensity: 3)),
                ("side", try await ada.report("knee", side: "middle", intensity: 3)),
                ("intensity", try await ada.report("knee", intensity: 11)),
                ("intensity", try await ada.report("knee", intensity: -1)),
                ("kind", try await ada.report("knee", intensity: 3, kind: "stabbing")),
                ("when", try await ada.report("knee", intensity: 3, when: "always")),
                ("note", try await ada.report("knee", intensity: 3, note: String(repeating: "a", count: 501))),
                ("reportedAt", try await ada.report("knee", intensity: 3, at: TestClock().now.addingTimeInterval(3_600))),
            ]
            for (field, reply) in cases {
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().field == field, "\(reply.text)")
            }
            #expect(try cases[0].reply.problem().detail?.contains("thigh front") == true)

            // act and verify: bad query parameters are 400s naming the parameter
            for (query, parameter) in [
                ("region=tail", "region"), ("from=yesterday", "from"), ("perPage=0", "perPage"),
                ("from=2027-01-02T00:00:00Z&to=2027-01-01T00:00:00Z", "to"),
            ] {
                let reply = try await ada.list(query)
                #expect(reply.status == .badRequest, "\(query): \(reply.text)")
                #expect(try reply.problem().field == parameter)
            }
            let nothing: PainReportPageBody = try await ada.list().json()
            #expect(nothing.total == 0)
        }
    }

    @Test func aPersonSeesAndDeletesOnlyTheirOwnReports() async throws {
        try await withFormaApp { app in
            // setup: Ada and Bo in one company, Cy in another, all with the host id "ada" for Cy
            let api = APIClient(app: app)
            let physio = try await api.createCompany("Physio")
            let other = try await api.createCompany("Other")
            let ada = PainPatient.of(api, key: physio, user: "ada")
            let bo = PainPatient.of(api, key: physio, user: "bo")
            let cy = PainPatient.of(api, key: other, user: "ada")
            let report: PainReportBody = try await ada.report("knee", intensity: 7).json()
            let id = try #require(report.id)

            // act
            let boList: PainReportPageBody = try await bo.list().json()
            let cyList: PainReportPageBody = try await cy.list().json()
            let boDelete = try await api.send(.DELETE, "/v1/me/pain-reports/\(id)", headers: bo.headers)
            let cyDelete = try await api.send(.DELETE, "/v1/me/pain-reports/\(id)", headers: cy.headers)
            let garbage = try await api.send(.DELETE, "/v1/me/pain-reports/not-an-id", headers: ada.headers)
            let boState = try await bo.state()
            let adaDelete = try await api.send(.DELETE, "/v1/me/pain-reports/\(id)", headers: ada.headers)
            let adaAfter: PainReportPageBody = try await ada.list().json()

            // verify
            #expect(boList.total == 0 && cyList.total == 0 && boState.regions.isEmpty)
            #expect(boDelete.status == .notFound && cyDelete.status == .notFound && garbage.status == .notFound)
            #expect(adaDelete.status == .noContent && adaAfter.total == 0)
        }
    }

    @Test func concurrentDeletesOfOneReportSucceedExactlyOnce() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let ada = PainPatient.of(api, key: key, user: "ada")
            let report: PainReportBody = try await ada.report("knee", intensity: 7).json()
            let id = try #require(report.id)

            // act: eight deletes at once
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await api.send(.DELETE, "/v1/me/pain-reports/\(id)", headers: ada.headers).status
                    }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify
            #expect(statuses.filter { $0 == .noContent }.count == 1)
            #expect(statuses.filter { $0 == .notFound }.count == 7)
        }
    }

    @Test func theCurrentStateKeepsEachSidesLatestReportForSevenDays() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let ada = PainPatient.of(api, key: key, user: "ada")

            // act: an old shoulder report, a knee on both sides then the left settling, a wrist cleared with 0
            #expect(try await ada.report("shoulder", intensity: 8).status == .created)
            clock.advance(seconds: 2 * 86_400)
            #expect(try await ada.report("knee", side: "both", intensity: 7, kind: "sharp").status == .created)
            #expect(try await ada.report("wrist", side: "right", intensity: 4).status == .created)
            clock.advance(seconds: 3_600)
            #expect(try await ada.report("knee", side: "left", intensity: 2).status == .created)
            #expect(try await ada.report("wrist", side: "right", intensity: 0).status == .created)
            let soon = try await ada.state()
            clock.advance(seconds: 5 * 86_400)  // the shoulder report is now seven days and an hour old
            let later = try await ada.state()

            // verify
            #expect(soon.windowDays == 7)
            #expect(soon.regions.map(\.region) == ["shoulder", "knee"])
            let knee = try #require(soon.regions.last)
            #expect(knee.intensity == 7 && knee.side == "both" && knee.kind == "sharp" && knee.restriction == "avoid")
            #expect(soon.regions.first?.restriction == "avoid")
            #expect(later.regions.map(\.region) == ["knee"])
        }
    }
}
