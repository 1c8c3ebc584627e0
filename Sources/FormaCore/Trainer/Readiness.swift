import Foundation

/// The four well-being ratings of the Hooper index (Hooper and Mackinnon, Sports Med. 20(5), 1995), each 1–7 where 1
/// is "very, very good" (or low) and 7 "very, very bad" (or high): higher is always worse.
public struct HooperScores: Sendable, Hashable, Codable {
    public var sleepQuality: Int
    public var fatigue: Int
    public var muscleSoreness: Int
    public var stress: Int

    public static let scale = 1...7

    /// Scores, or `nil` when any is outside 1…7.
    public init?(sleepQuality: Int, fatigue: Int, muscleSoreness: Int, stress: Int) {
        guard [sleepQuality, fatigue, muscleSoreness, stress].allSatisfy(Self.scale.contains) else { return nil }
        self.sleepQuality = sleepQuality
        self.fatigue = fatigue
        self.muscleSoreness = muscleSoreness
        self.stress = stress
    }

    /// The Hooper index: the sum of the four ratings, 4 (best) to 28 (worst).
    public var index: Int { sleepQuality + fatigue + muscleSoreness + stress }

    /// The items rated 6 or 7, "very bad" or worse.
    public var badItems: [HooperItem] {
        HooperItem.allCases.filter { self[$0] >= ReadinessRules.badHooperItem }
    }

    public subscript(item: HooperItem) -> Int {
        switch item {
        case .sleepQuality: sleepQuality
        case .fatigue: fatigue
        case .muscleSoreness: muscleSoreness
        case .stress: stress
        }
    }
}

/// One item of the Hooper index.
public enum HooperItem: String, Sendable, Hashable, Codable, CaseIterable {
    case sleepQuality, fatigue, muscleSoreness, stress

    var words: String {
        switch self {
        case .sleepQuality: "your sleep"
        case .fatigue: "your fatigue"
        case .muscleSoreness: "your muscle soreness"
        case .stress: "your stress"
        }
    }
}

/// Everything a readiness check looks at: today's answers and the history of check-ins.
public struct ReadinessInput: Sendable, Hashable, Codable {
    public var hooper: HooperScores
    /// Pain today per region; regions not listed are at 0.
    public var pain: [PainRating]
    /// Earlier sessions' check-ins, in any order.
    public var history: [SessionCheckIn]

    public init(hooper: HooperScores, pain: [PainRating], history: [SessionCheckIn]) {
        self.hooper = hooper
        self.pain = pain
        self.history = history
    }

    /// The most recent check-in before `now`.
    func lastSession(before now: Date) -> SessionCheckIn? {
        history.filter { $0.endedAt <= now }.max { $0.endedAt < $1.endedAt }
    }
}

/// What today's session should be, from least to most cautious.
public enum ReadinessDecisionKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case trainAsPlanned = "train_as_planned"
    case reduce
    case mobility
    case rest

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// One finding of the readiness check, with the decision it calls for and a sentence for the person.
public enum ReadinessReason: Sendable, Hashable, Codable {
    /// Nothing calls for caution.
    case allClear
    /// The Hooper index is high.
    case hooperIndex(Int)
    /// One or more Hooper items are rated 6 or 7.
    case hooperItems([HooperItem])
    /// A region hurts today at the given level.
    case pain(BodyRegion, level: Int)
    /// Regions the profile lists as often painful, not reported today: they are spared all the same.
    case profilePain([BodyRegion])
    /// A region hurts more today than before the last session: the pain has not settled.
    case painNotSettled(BodyRegion, before: Int, now: Int)
    /// The last session was very hard and recent.
    case hardLastSession(rpe: Int, hoursAgo: Int)
    /// The acute:chronic workload ratio, in hundredths (135 = 1.35).
    case workloadSpike(ratioPercent: Int)

    /// The decision this finding alone calls for.
    public var decision: ReadinessDecisionKind { ReadinessRules.decision(for: self) }

    /// One sentence telling the person what was found and what it changes.
    public var explanation: String {
        switch self {
        case .allClear:
            return "You slept, recovered and feel well enough, so we'll train as planned."
        case .hooperIndex(let index):
            let action = ReadinessRules.decision(for: self).action
            return "Your sleep, fatigue, soreness and stress add up to \(index) of 28, so \(action)."
        case .hooperItems(let items):
            let list = items.map(\.words).joined(separator: " and ")
            return "You rated \(list) as very bad today, so we'll go easier than planned."
        case .pain(let region, let level):
            let (hurts, it) = Self.grammar(region)
            switch ReadinessRules.decision(for: self) {
            case .trainAsPlanned:
                return "\(hurts) a little (\(level)/10), so no exercise today will load \(it)."
            case .reduce:
                return "\(hurts) (\(level)/10), so we'll leave \(it) out and go lighter today."
            case .mobility:
                return "\(hurts) a lot (\(level)/10), more than is safe to train through, "
                    + "so today is gentle mobility that leaves \(it) alone."
            case .rest:
                return "\(hurts) badly (\(level)/10): rest today, and see a health "
                    + "professional if \(region.labelIsPlural ? "they do" : "it does") not ease."
            }
        case .profilePain(let regions):
            let plural = regions.count > 1 || regions.contains(where: \.labelIsPlural)
            return "You told me your \(BodyRegion.sentenceList(regions)) \(plural ? "are" : "is") often painful, so no "
                + "exercise today loads \(plural ? "them" : "it")."
        case .painNotSettled(let region, let before, let now):
            let (hurts, it) = Self.grammar(region)
            return "\(hurts) more now (\(now)/10) than before your last session (\(before)/10), "
                + "so we'll go lighter and leave \(it) out."
        case .hardLastSession(let rpe, let hours):
            return "Your last session was very hard (effort \(rpe)/10, \(hours) hours ago), "
                + "so today is a lighter one."
        case .workloadSpike(let percent):
            let ratio = String(format: "%.2f", Double(percent) / 100)
            let action = ReadinessRules.decision(for: self).action
            return "You trained much more this week than your usual (load ratio \(ratio)), so \(action)."
        }
    }

    /// "Your knee hurts" and "it", or "Your wrist and hand hurt" and "them": ``BodyRegion/label`` in a sentence.
    private static func grammar(_ region: BodyRegion) -> (hurts: String, it: String) {
        region.labelIsPlural
            ? ("Your \(region.sentenceLabel) hurt", "them") : ("Your \(region.sentenceLabel) hurts", "it")
    }
}

extension ReadinessDecisionKind {
    /// What the decision does, as the end of a sentence.
    var action: String {
        switch self {
        case .trainAsPlanned: "we'll train as planned"
        case .reduce: "we'll do a shorter, lighter session"
        case .mobility: "today is mobility and recovery work"
        case .rest: "today is a rest day"
        }
    }
}

/// The outcome of a readiness check: what to do today, why, and which regions to spare.
public struct ReadinessDecision: Sendable, Hashable, Codable {
    /// The most cautious decision any finding calls for.
    public var kind: ReadinessDecisionKind
    /// Every finding, most cautious first. When the decision is to train as planned, ``ReadinessReason/allClear``
    /// comes first, followed by the regions spared.
    public var reasons: [ReadinessReason]
    /// Regions no exercise may load today: every region in pain now, and every one the profile lists.
    public var avoiding: [BodyRegion]

    public init(kind: ReadinessDecisionKind, reasons: [ReadinessReason], avoiding: [BodyRegion]) {
        self.kind = kind
        self.reasons = reasons
        self.avoiding = distinctInCaseOrder(avoiding)
    }

    /// What the trainer tells the person: one sentence per finding.
    public var explanation: String { reasons.map(\.explanation).joined(separator: " ") }
}
