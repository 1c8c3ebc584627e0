import Foundation

/// The readiness rules and their thresholds, in one place so docs/trainer.md and the code cannot drift apart.
///
/// Each rule follows a published instrument; where a paper gives no cut-off, the threshold is Forma's choice and
/// docs/trainer.md says so.
/// - Hooper index (Hooper and Mackinnon 1995): the sum of four 1–7 ratings.
/// - Pain (the pain-monitoring model, Silbernagel et al., Am. J. Sports Med. 35(6), 2007): 0–2 safe, up to 5
///   acceptable during activity, above 5 too much; pain should settle by the next morning.
/// - Session RPE (Foster et al., J. Strength Cond. Res. 15(1), 2001): CR-10 rating × minutes is the session load.
/// - Acute:chronic workload ratio (Gabbett, Br. J. Sports Med. 50(5), 2016): 0.8–1.3 the "sweet spot", above 1.5
///   the "danger zone".
public enum ReadinessRules {
    /// Hooper index at or above which the session is reduced, switched to mobility, or skipped.
    public static let hooperReduceFrom = 17
    public static let hooperMobilityFrom = 21
    public static let hooperRestFrom = 25
    /// A single Hooper item at or above this ("very bad") reduces the session.
    public static let badHooperItem = 6

    /// Pain at or above these levels reduces the session, switches it to mobility, or calls for rest. Any pain above
    /// 0 keeps every exercise off the region.
    ///
    /// Reduce starts above the model's safe zone and mobility above its acceptable ceiling (``PainMonitoring``; the
    /// same level as ``PainRules/avoidFrom``); rest from 8 is Forma's choice within the model's "too much" band.
    public static let painReduceFrom = PainMonitoring.safeCeiling + 1
    public static let painMobilityFrom = PainMonitoring.acceptableCeiling + 1
    public static let painRestFrom = 8
    /// How recent the last session must be for its pain comparison to count: the model's "next morning", widened to
    /// cover a session two evenings ago.
    public static let painSettlingWindowHours = 72.0

    /// A last session at or above this CR-10 rating ("very hard") within ``hardSessionWindowHours`` reduces today's.
    public static let hardSessionRPE = 7
    public static let hardSessionWindowHours = 48.0

    /// Acute:chronic ratios, in hundredths, above which the session is reduced, or switched to mobility.
    public static let workloadReduceAbovePercent = 130
    public static let workloadMobilityAbovePercent = 150

    /// The decision a single finding calls for.
    public static func decision(for reason: ReadinessReason) -> ReadinessDecisionKind {
        switch reason {
        case .allClear: .trainAsPlanned
        case .hooperIndex(let index):
            index >= hooperRestFrom ? .rest : index >= hooperMobilityFrom ? .mobility
                : index >= hooperReduceFrom ? .reduce : .trainAsPlanned
        case .hooperItems(let items): items.isEmpty ? .trainAsPlanned : .reduce
        case .pain(_, let level):
            level >= painRestFrom ? .rest : level >= painMobilityFrom ? .mobility
                : level >= painReduceFrom ? .reduce : .trainAsPlanned
        case .profilePain: .trainAsPlanned
        case .painNotSettled: .reduce
        case .hardLastSession: .reduce
        case .workloadSpike(let percent):
            percent > workloadMobilityAbovePercent ? .mobility
                : percent > workloadReduceAbovePercent ? .reduce : .trainAsPlanned
        }
    }

    /// Assesses readiness at `now`.
    ///
    /// Every rule runs; the decision is the most cautious any finding calls for, and the reasons list each finding,
    /// most cautious first (ties in rule order); a train-as-planned decision opens with ``ReadinessReason/allClear``.
    /// `profilePain` are regions the profile lists as painful: they are avoided even when today's check reports no
    /// pain there, with a ``ReadinessReason/profilePain(_:)`` finding that tells the person so.
    public static func assess(
        _ input: ReadinessInput, profilePain: [BodyRegion] = [], now: Date
    ) -> ReadinessDecision {
        var reasons: [ReadinessReason] = []
        let hooper = input.hooper
        if hooper.index >= hooperReduceFrom { reasons.append(.hooperIndex(hooper.index)) }
        if !hooper.badItems.isEmpty { reasons.append(.hooperItems(hooper.badItems)) }

        let painful = input.pain.filter { $0.level > 0 }
        for rating in BodyRegion.allCases.compactMap({ region in painful.first { $0.region == region } }) {
            reasons.append(.pain(rating.region, level: rating.level))
        }

        let unreported = profilePain.filter { region in !painful.contains { $0.region == region } }
        if !unreported.isEmpty { reasons.append(.profilePain(distinctInCaseOrder(unreported))) }

        if let last = input.lastSession(before: now) {
            let hours = now.timeIntervalSince(last.endedAt) / 3600
            if hours < painSettlingWindowHours {
                for rating in painful where rating.level > last.painBefore(rating.region) {
                    reasons.append(.painNotSettled(rating.region, before: last.painBefore(rating.region), now: rating.level))
                }
            }
            if last.sessionRPE >= hardSessionRPE, hours < hardSessionWindowHours {
                reasons.append(.hardLastSession(rpe: last.sessionRPE, hoursAgo: Int(hours)))
            }
        }

        if let workload = WorkloadRatio(history: input.history, now: now) {
            let percent = Int((workload.ratio * 100).rounded())
            if percent > workloadReduceAbovePercent { reasons.append(.workloadSpike(ratioPercent: percent)) }
        }

        // Most cautious first; the standard library's sort is stable, so rule order stays within a level.
        let ranked = reasons.sorted { $0.decision > $1.decision }
        let kind = ranked.first?.decision ?? .trainAsPlanned
        return ReadinessDecision(
            kind: kind, reasons: kind == .trainAsPlanned ? [.allClear] + ranked : ranked,
            avoiding: painful.map(\.region) + profilePain)
    }
}
