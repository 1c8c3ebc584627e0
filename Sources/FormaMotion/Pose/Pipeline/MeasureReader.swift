/// Reads one `PoseMeasure` from skeletons with its landmark lists worked out once, so the per-frame path does not
/// allocate: the visibility check walks two small fixed arrays.
struct MeasureReader: Sendable {
    let measure: PoseMeasure
    private let left: [Int]
    private let right: [Int]

    init(_ measure: PoseMeasure) {
        self.measure = measure
        let joints = measure.joints
        if measure.isPerSide {
            left = joints.map { $0.landmark(.left).rawValue }
            right = joints.map { $0.landmark(.right).rawValue }
        } else {
            let both = joints.flatMap { [$0.landmark(.left).rawValue, $0.landmark(.right).rawValue] }
            left = both
            right = both
        }
    }

    /// Every landmark index the measure reads, on both sides.
    var landmarkIndices: [Int] { Array(Set(left + right)) }

    @inline(__always)
    func visibility(_ skeleton: SkeletonView, side: BodySide) -> Double {
        skeleton.lowestVisibility(side == .left ? left : right)
    }

    /// Whether every landmark the measure reads on `side` is seen and inside the image: enough to count, even when
    /// the trunk is not (a pull-up filmed at the bar, whose hips leave the bottom of the picture at each hang).
    @inline(__always)
    func isInPicture(_ skeleton: SkeletonView, side: BodySide) -> Bool {
        skeleton.showsAll(side == .left ? left : right)
    }

    @inline(__always)
    func value(_ skeleton: SkeletonView, side: BodySide) -> Double? {
        guard visibility(skeleton, side: side) >= SkeletonView.visibilityThreshold else { return nil }
        return skeleton.geometry(measure, side: side)
    }
}
