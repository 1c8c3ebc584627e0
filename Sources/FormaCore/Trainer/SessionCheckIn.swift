import Foundation

/// How much one body region hurts, on the 0–10 numeric rating scale (0 no pain, 10 worst imaginable).
public struct PainRating: Sendable, Hashable, Codable {
    public var region: BodyRegion
    public var level: Int

    public static let scale = PainMonitoring.scale

    /// A rating, or `nil` when `level` is outside 0…10.
    public init?(region: BodyRegion, level: Int) {
        guard Self.scale.contains(level) else { return nil }
        self.region = region
        self.level = level
    }
}

/// How a session felt overall, the check-in's one-tap answer.
public enum SessionFeeling: String, Sendable, Hashable, Codable, CaseIterable {
    case great, good, okay, tough, painful
}

/// What a person reports after a session: its effort, how it felt and their pain before and after.
///
/// The next readiness check reads it: the effort and minutes give the session's training load (Foster 2001), and
/// pain that has not settled since ``painBefore`` is a reason to go easier (Silbernagel et al. 2007).
public struct SessionCheckIn: Sendable, Hashable, Codable {
    /// When the session ended.
    public var endedAt: Date
    /// Minutes actually trained.
    public var minutes: Int
    /// Session RPE on Foster's CR-10 scale: 0 rest … 10 maximal.
    public var sessionRPE: Int
    public var feeling: SessionFeeling
    /// Pain per region before the session (from the readiness check); regions not listed were at 0.
    public var painBefore: [PainRating]
    /// Pain per region after the session; regions not listed are at 0.
    public var painAfter: [PainRating]
    /// The muscles the session's main block worked, which decide the recovery before the next session.
    public var trainedMuscles: [Muscle]

    public static let rpeScale = 0...10

    public init(
        endedAt: Date, minutes: Int, sessionRPE: Int, feeling: SessionFeeling, painBefore: [PainRating],
        painAfter: [PainRating], trainedMuscles: [Muscle]
    ) {
        self.endedAt = endedAt
        self.minutes = minutes
        self.sessionRPE = sessionRPE
        self.feeling = feeling
        self.painBefore = painBefore
        self.painAfter = painAfter
        self.trainedMuscles = distinctInCaseOrder(trainedMuscles)
    }

    /// Foster's session load in arbitrary units: session RPE × minutes, with the rating clamped to 0…10 and the
    /// minutes to one day, so that a corrupt stored value cannot overflow the sums.
    public var load: Int { min(max(0, sessionRPE), 10) * min(max(0, minutes), 1440) }

    /// Pain in `region` before the session (0 when not reported).
    public func painBefore(_ region: BodyRegion) -> Int { painBefore.first { $0.region == region }?.level ?? 0 }
}

/// The acute:chronic workload ratio of a history of sessions (Gabbett 2016), from session-RPE loads.
///
/// Acute load is the sum of the last 7 days; chronic load the weekly average of the last 28 days (the coupled
/// rolling average Gabbett uses). Windows end at `now` and include sessions that ended in them.
public struct WorkloadRatio: Sendable, Hashable {
    public var acuteLoad: Int
    /// Average weekly load over 28 days.
    public var chronicWeeklyLoad: Double
    public var ratio: Double

    /// Days of history the ratio needs before it means anything: Forma's choice, see docs/trainer.md.
    public static let minimumHistoryDays = 21

    /// The ratio at `now`, or `nil` when the first session is fewer than ``minimumHistoryDays`` days old or there
    /// is no chronic load to divide by.
    public init?(history: [SessionCheckIn], now: Date) {
        guard let first = history.map(\.endedAt).min(),
            now.timeIntervalSince(first) >= Double(Self.minimumHistoryDays) * 86_400
        else { return nil }
        func load(withinDays days: Double) -> Int {
            history.filter { session in
                let age = now.timeIntervalSince(session.endedAt)
                return age >= 0 && age < days * 86_400
            }.reduce(0) { $0 + $1.load }
        }
        let chronic = Double(load(withinDays: 28)) / 4
        guard chronic > 0 else { return nil }
        acuteLoad = load(withinDays: 7)
        chronicWeeklyLoad = chronic
        ratio = Double(acuteLoad) / chronic
    }
}
