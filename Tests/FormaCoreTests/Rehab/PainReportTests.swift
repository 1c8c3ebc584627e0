import Foundation
import Testing

@testable import FormaCore

@Suite struct PainReportTests {
    static let day = Date(timeIntervalSince1970: 1_790_000_000)

    static func report(
        _ region: BodyRegion, _ side: BodySide, _ intensity: Int, hoursAgo: Double, kind: PainKind = .aching
    ) -> PainReport {
        try! PainReport(
            region: region, side: side, intensity: intensity, kind: kind, when: .movement,
            reportedAt: day.addingTimeInterval(-hoursAgo * 3600))
    }

    @Test func init_fromStrings_namesTheFieldAtFault() {
        func field(_ make: () throws(PainReportError) -> PainReport) -> String? {
            do { _ = try make(); return nil } catch { return error.field }
        }
        let now = Self.day
        #expect(field { () throws(PainReportError) in try PainReport(region: "toe", side: "left", intensity: 3, kind: "dull", when: "rest", reportedAt: now) } == "region")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "middle", intensity: 3, kind: "dull", when: "rest", reportedAt: now) } == "side")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "left", intensity: 11, kind: "dull", when: "rest", reportedAt: now) } == "intensity")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "left", intensity: -1, kind: "dull", when: "rest", reportedAt: now) } == "intensity")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "left", intensity: 3, kind: "stabbing", when: "rest", reportedAt: now) } == "kind")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "left", intensity: 3, kind: "dull", when: "morning", reportedAt: now) } == "when")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "left", intensity: 3, kind: "dull", when: "rest", note: String(repeating: "a", count: 501), reportedAt: now) } == "note")
        #expect(field { () throws(PainReportError) in try PainReport(region: "knee", side: "left", intensity: 3, kind: "dull", when: "rest", note: "bad\u{0}", reportedAt: now) } == "note")
        #expect(field { () throws(PainReportError) in try PainReport(region: "lower back", side: "both", intensity: 10, kind: "burning", when: "night", note: "after lifting\nboxes", reportedAt: now) } == nil)
    }

    @Test func error_listsTheAllowedValues() {
        // act
        let error = PainReportError.unknownValue(field: "kind", "stabbing")

        // verify
        #expect(error.description == "kind must be one of sharp, dull, aching, burning (got 'stabbing')")
    }

    @Test func decoding_validatesLikeTheInitialiser() throws {
        // setup
        let good = #"{"region":"knee","side":"left","intensity":4,"kind":"sharp","when":"movement","note":"  stairs ","reportedAt":0}"#
        let bad = #"{"region":"knee","side":"left","intensity":40,"kind":"sharp","when":"movement","reportedAt":0}"#

        // act
        let report = try JSONDecoder().decode(PainReport.self, from: Data(good.utf8))

        // verify
        #expect(report.region == .knee && report.intensity == 4 && report.note == "stairs")
        #expect(throws: PainReportError.intensityOutOfRange(40)) {
            try JSONDecoder().decode(PainReport.self, from: Data(bad.utf8))
        }
    }

    @Test func painState_keepsTheLatestReportPerSideWithinTheWindow() {
        // setup
        let reports = [
            Self.report(.knee, .both, 7, hoursAgo: 48),
            Self.report(.knee, .left, 2, hoursAgo: 2),  // the left knee improved; the right is still at 7
            Self.report(.wrist, .right, 5, hoursAgo: 24 * 8),  // older than the 7-day window
            Self.report(.neck, .both, 4, hoursAgo: 30),
            Self.report(.neck, .both, 0, hoursAgo: 1),  // cleared
            Self.report(.ankle, .left, 6, hoursAgo: -1),  // in the future: ignored
            Self.report(.lowerBack, .left, 3, hoursAgo: 5, kind: .sharp),
        ]

        // act
        let state = PainState(reports: reports.shuffled(), now: Self.day)

        // verify
        #expect(state.regions.map(\.region) == [.lowerBack, .knee])
        #expect(state.intensity(of: .knee) == 7)
        #expect(state.regions[1].side == .both && state.regions[1].reportedAt == Self.day.addingTimeInterval(-7200))
        #expect(state.regions[0].side == .left && state.regions[0].kind == .sharp)
        #expect(state.intensity(of: .wrist) == 0 && state.intensity(of: .neck) == 0 && state.intensity(of: .ankle) == 0)
    }

    @Test func painState_aBothSidesReportReplacesEarlierOneSidedOnes() {
        // setup
        let reports = [Self.report(.hip, .left, 8, hoursAgo: 10), Self.report(.hip, .both, 3, hoursAgo: 1)]

        // act
        let state = PainState(reports: reports, now: Self.day)

        // verify
        #expect(state.intensity(of: .hip) == 3 && state.regions.first?.side == .both)
    }

    @Test func painState_expiresExactlyAtTheWindow() {
        // setup
        let edge = Self.report(.elbow, .right, 4, hoursAgo: PainState.window / 3600)
        let inside = Self.report(.elbow, .right, 4, hoursAgo: PainState.window / 3600 - 0.01)

        // verify
        #expect(PainState(reports: [edge], now: Self.day).regions.isEmpty)
        #expect(PainState(reports: [inside], now: Self.day).intensity(of: .elbow) == 4)
    }
}
