/// Picks the side a per-side repetition signal is read from, following `SideSelection`.
///
/// For `mostVisible` and `mostActive` it keeps a start-position baseline per side (learnt while no repetition is in
/// progress), so that "most active" means "moved furthest from its own start", not "largest value": an arm held
/// away from the body, or a limb the tracker places badly, then does not win over the arm that is working. The side
/// only changes between repetitions, with a margin, and a change reports the baseline difference so the counter's
/// start position can move with it.
struct SideSelector: Sendable {
    let mode: SideSelection
    let direction: Double
    let nominalRange: Double
    private(set) var chosen = BodySide.left
    private var baseline: (left: Double?, right: Double?) = (nil, nil)
    /// Each side's value smoothed over about 0.3 s, so that tracker jitter on an idle limb never looks like work.
    private var smoothed: (left: Double?, right: Double?) = (nil, nil)
    private var lastTime: Double?

    init(signal: RepetitionSignal) {
        mode = signal.sides
        direction = signal.direction
        nominalRange = signal.nominalRange
    }

    struct Choice {
        var value: Double
        /// `nil` when both sides were averaged.
        var side: BodySide?
        /// How far the start position moved because the side changed (add it to the counter's start position).
        var rebase: Double
    }

    mutating func choose(
        left: Double?, right: Double?, visibility: (left: Double, right: Double), isMoving: Bool, time: Double
    ) -> Choice? {
        let elapsed = time - (lastTime ?? time)
        lastTime = time
        if mode == .average {
            switch (left, right) {
            case let (left?, right?): return Choice(value: (left + right) / 2, side: nil, rebase: 0)
            case let (side?, nil), let (nil, side?): return Choice(value: side, side: nil, rebase: 0)
            case (nil, nil): return nil
            }
        }
        let smoothing = min(1, elapsed / 0.3)
        smoothed.left = Self.smooth(smoothed.left, towards: left, by: smoothing)
        smoothed.right = Self.smooth(smoothed.right, towards: right, by: smoothing)
        if !isMoving {
            baseline.left = follow(baseline.left, smoothed.left, elapsed: elapsed)
            baseline.right = follow(baseline.right, smoothed.right, elapsed: elapsed)
        }
        var next = chosen
        let current = chosen == .left ? left : right
        let other = chosen == .left ? right : left
        if isMoving {
            // Never change sides inside a repetition: a briefly hidden joint is a gap, not the other limb.
        } else if current == nil, other != nil {
            next = chosen.opposite
        } else if !isMoving, other != nil {
            switch mode {
            case .mostVisible:
                let mine = chosen == .left ? visibility.left : visibility.right
                let theirs = chosen == .left ? visibility.right : visibility.left
                if theirs > mine + 0.15 { next = chosen.opposite }
            case .mostActive:
                let mine = excursion(chosen)
                if mine < 0.35 * nominalRange, excursion(chosen.opposite) > mine + 0.3 * nominalRange {
                    next = chosen.opposite
                }
            case .average:
                break
            }
        }
        var rebase = 0.0
        if next != chosen {
            if let from = base(chosen), let to = base(next) { rebase = to - from }
            chosen = next
        }
        guard let value = chosen == .left ? left : right else { return nil }
        return Choice(value: value, side: chosen, rebase: rebase)
    }

    /// A side's smoothed value after a new reading: forgotten when the side is not seen, the reading itself when
    /// nothing was smoothed yet.
    @inline(__always)
    private static func smooth(_ smoothed: Double?, towards value: Double?, by factor: Double) -> Double? {
        guard let value else { return nil }
        guard let smoothed else { return value }
        return smoothed + (value - smoothed) * factor
    }

    private func base(_ side: BodySide) -> Double? {
        side == .left ? baseline.left : baseline.right
    }

    private func excursion(_ side: BodySide) -> Double {
        guard let value = side == .left ? smoothed.left : smoothed.right, let start = base(side) else {
            return -.infinity
        }
        return direction * (value - start)
    }

    /// Follows a side's start position: quickly when the value moves towards the start side, slowly when it is
    /// near the start, and not at all when the limb is out in a movement (which is what the baseline measures).
    @inline(__always)
    private func follow(_ start: Double?, _ value: Double?, elapsed: Double) -> Double? {
        guard let value else { return start }
        guard let start else { return value }
        let excursion = direction * (value - start)
        if excursion > 0.15 * nominalRange { return start }
        let timeConstant = excursion < 0 ? 0.25 : 3.0
        return start + (value - start) * min(1, max(elapsed, 0) / timeConstant)
    }
}

extension BodySide {
    /// The other side.
    public var opposite: BodySide { self == .left ? .right : .left }
}
