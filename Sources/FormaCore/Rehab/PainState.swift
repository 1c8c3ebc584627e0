import Foundation

/// The pain a region has now: the latest report for each of its sides, within ``PainState/window``.
public struct RegionPain: Sendable, Hashable, Codable {
    public var region: BodyRegion
    /// The higher of the two sides' intensities, 0–10.
    public var intensity: Int
    /// The side or sides in pain: `both` when both sides hurt, or for a report that covered both.
    public var side: BodySide
    /// The kind and timing of the report that set ``intensity`` (the latest, on a tie).
    public var kind: PainKind
    public var when: PainTiming
    /// When the latest report for the region was made.
    public var reportedAt: Date
}

/// The current pain of every region, from a person's pain log.
///
/// Rules (docs/rehab.md):
/// - Each side of a region keeps its latest report; a report for `both` sides sets both. Midline regions (neck,
///   back, chest, abdomen) have sides too — a person may hurt left of the spine — and a midline `both` report
///   means the whole region.
/// - A report stops counting ``window`` after it was made: pain not reported again for a week is treated as gone,
///   so an old log does not restrict training for ever. A report with intensity 0 clears its side at once.
/// - Reports dated after `now` are ignored (a clock skew must not decide today's training).
public struct PainState: Sendable, Hashable {
    /// How long a report stays current: 7 days. Forma's choice, matching the week-on-week review of the
    /// pain-monitoring model (Silbernagel et al. 2007), in which pain is re-rated at least weekly.
    public static let window: TimeInterval = 7 * 86_400

    /// Regions with pain above 0, head to foot.
    public let regions: [RegionPain]

    /// The state at `now` from `reports`, in any order.
    public init(reports: [PainReport], now: Date, window: TimeInterval = PainState.window) {
        // Latest first; on equal times the later entry of the log wins.
        let ordered = reports.enumerated()
            .filter { $0.element.reportedAt <= now && now.timeIntervalSince($0.element.reportedAt) < window }
            .sorted { lhs, rhs in
                lhs.element.reportedAt != rhs.element.reportedAt
                    ? lhs.element.reportedAt > rhs.element.reportedAt : lhs.offset > rhs.offset
            }
            .map(\.element)
        var latest: [BodyRegion: [BodySide: PainReport]] = [:]
        var newest: [BodyRegion: Date] = [:]
        for report in ordered {
            newest[report.region] = newest[report.region] ?? report.reportedAt
            for side in report.coveredSides where latest[report.region]?[side] == nil {
                latest[report.region, default: [:]][side] = report
            }
        }
        regions = BodyRegion.allCases.compactMap { region -> RegionPain? in
            guard let sides = latest[region], let date = newest[region] else { return nil }
            let reported: [PainReport] = [sides[.left], sides[.right]].compactMap { $0 }
            let strongest = reported.max(by: Self.weaker)
            let leftHurts = (sides[.left]?.intensity ?? 0) > 0
            let rightHurts = (sides[.right]?.intensity ?? 0) > 0
            guard let strongest, strongest.intensity > 0 else { return nil }
            let side: BodySide = leftHurts && rightHurts ? .both : leftHurts ? .left : .right
            return RegionPain(
                region: region, intensity: strongest.intensity, side: side, kind: strongest.kind,
                when: strongest.when, reportedAt: date)
        }
    }

    /// Orders reports by intensity, then by date.
    private static func weaker(_ lhs: PainReport, _ rhs: PainReport) -> Bool {
        lhs.intensity != rhs.intensity ? lhs.intensity < rhs.intensity : lhs.reportedAt < rhs.reportedAt
    }

    /// The current intensity of `region`, 0 when it does not hurt.
    public func intensity(of region: BodyRegion) -> Int {
        regions.first { $0.region == region }?.intensity ?? 0
    }
}
