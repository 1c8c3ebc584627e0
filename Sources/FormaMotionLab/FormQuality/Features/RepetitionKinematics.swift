import FormaMotion

/// The frame-by-frame kinematic signals of one repetition, measured in a body-fixed frame.
///
/// The frame is set once from the first frames (up to five) of the repetition: *up* is the data's vertical axis,
/// *lateral* runs from the right hip to the left hip projected onto the floor, *forward* is lateral × up. Measuring
/// against the starting stance makes the signals independent of where the person stands and which way they face.
/// Only joints every full-body tracker provides are used (shoulders, elbows, wrists, hips, knees, ankles), so the
/// same definitions apply to BlazePose landmarks; trunk angles use the hip centre → shoulder centre line.
///
/// Angle conventions follow the joint-coordinate ideas of Wu et al., "ISB recommendation on definitions of joint
/// coordinate systems", J. Biomech. 2002/2005, simplified to segment angles measured against the body frame.
public struct RepetitionKinematics: Sendable, Hashable {
    /// The side whose limb moves most; the `active…` signals describe it.
    public var activeSide: BodySide
    /// One array per signal, each with one value per frame.
    public var signals: [FormSignal: [Double]]
    /// Frames per second of the source.
    public var framesPerSecond: Double
    /// The number of frames.
    public var frameCount: Int

    /// Measures every `FormSignal` over a repetition.
    ///
    /// - Complexity: O(frames).
    /// - Throws: `FormQualityInputError` when the sequence is empty, its rate is not positive, or a position is not
    ///   finite.
    public init(_ sequence: SkeletonSequence) throws(FormQualityInputError) {
        guard sequence.framesPerSecond.isFinite, sequence.framesPerSecond > 0 else {
            throw .invalidFrameRate(sequence.framesPerSecond)
        }
        guard !sequence.poses.isEmpty else { throw .emptyRepetition }
        for (index, pose) in sequence.poses.enumerated() {
            if let joint = AnatomicalJoint.allCases.first(where: { !pose[$0].isFinite }) {
                throw .nonFinitePosition(frame: index, joint: joint)
            }
        }
        let poses = sequence.poses
        let frame = BodyFrame(startingPoses: poses.prefix(5))
        let activeSide = Self.activeSide(of: poses, in: frame)
        let passiveSide = activeSide.opposite
        let towardsActive: Double = activeSide == .left ? 1 : -1
        let first = poses[0]
        let legLength = max(
            1e-6,
            (first[.limb(.knee, side: activeSide)] - first[.limb(.hip, side: activeSide)]).length
                + (first[.limb(.ankle, side: activeSide)] - first[.limb(.knee, side: activeSide)]).length
        )
        let startingHipHeight = poses.prefix(5).map(\.hipCentre.y).reduce(0, +) / Double(min(5, poses.count))

        var signals: [FormSignal: [Double]] = [:]
        func record(_ signal: FormSignal, _ value: Double) { signals[signal, default: []].append(value) }

        for pose in poses {
            let trunk = frame.express(pose.shoulderCentre - pose.hipCentre)
            record(.trunkForwardLean, FormMath.atan2Degrees(trunk.forward, trunk.up))
            record(.trunkLateralLean, FormMath.atan2Degrees(towardsActive * trunk.lateral, trunk.up))
            let shoulderLine = frame.express(
                pose[.limb(.shoulder, side: activeSide)] - pose[.limb(.shoulder, side: passiveSide)])
            let hipLine = frame.express(pose[.limb(.hip, side: activeSide)] - pose[.limb(.hip, side: passiveSide)])
            record(.trunkRotation,
                   FormMath.atan2Degrees(shoulderLine.forward, abs(shoulderLine.lateral))
                       - FormMath.atan2Degrees(hipLine.forward, abs(hipLine.lateral)))
            record(.pelvisTilt, FormMath.atan2Degrees(hipLine.up, abs(hipLine.lateral)))
            record(.pelvisHeight, (pose.hipCentre.y - startingHipHeight) / legLength * 100)

            for (role, side) in [(LimbRole.active, activeSide), (LimbRole.passive, passiveSide)] {
                // Left limbs lie at +lateral, so "outwards" is +lateral for them and −lateral for right limbs.
                let outwards: Double = side == .left ? 1 : -1
                let hip = pose[.limb(.hip, side: side)]
                let knee = pose[.limb(.knee, side: side)]
                let ankle = pose[.limb(.ankle, side: side)]
                let thighVector = knee - hip
                let thigh = frame.express(thighVector)
                record(role.knee, JointGeometry.angle(between: thighVector, and: ankle - knee) ?? 0)
                record(role.hipFlexion, FormMath.atan2Degrees(thigh.forward, -thigh.up))
                record(role.hipAbduction, FormMath.atan2Degrees(outwards * thigh.lateral, -thigh.up))
                record(role.kneeValgus, Self.kneeValgus(hip: hip, knee: knee, ankle: ankle, frame: frame,
                                                        outwards: outwards, legLength: legLength))

                let shoulder = pose[.limb(.shoulder, side: side)]
                let elbow = pose[.limb(.elbow, side: side)]
                let wrist = pose[.limb(.wrist, side: side)]
                let upperArmVector = elbow - shoulder
                let upperArm = frame.express(upperArmVector)
                record(role.shoulderElevation,
                       JointGeometry.angle(between: upperArmVector, and: pose.hipCentre - pose.shoulderCentre) ?? 0)
                record(role.elbow, JointGeometry.angle(between: upperArmVector, and: wrist - elbow) ?? 0)
                record(role.shoulderPlane, FormMath.atan2Degrees(upperArm.forward, outwards * upperArm.lateral))
            }
        }
        self.activeSide = activeSide
        self.signals = signals
        self.framesPerSecond = sequence.framesPerSecond
        self.frameCount = poses.count
    }

    /// The values of `signal`, one per frame.
    public subscript(signal: FormSignal) -> [Double] { signals[signal] ?? [] }

    /// The side whose wrist or ankle travels furthest relative to the hip centre: arm movements are judged by the
    /// arms when the arms move more than the legs, and by the legs otherwise.
    static func activeSide(of poses: [SkeletonPose], in frame: BodyFrame) -> BodySide {
        func travel(_ joint: AnatomicalJoint) -> Double {
            var low = (Double.infinity, Double.infinity, Double.infinity)
            var high = (-Double.infinity, -Double.infinity, -Double.infinity)
            for pose in poses {
                let v = frame.express(pose[joint] - pose.hipCentre)
                low = (min(low.0, v.lateral), min(low.1, v.up), min(low.2, v.forward))
                high = (max(high.0, v.lateral), max(high.1, v.up), max(high.2, v.forward))
            }
            return (high.0 - low.0) + (high.1 - low.1) + (high.2 - low.2)
        }
        let leftArm = travel(.leftWrist), rightArm = travel(.rightWrist)
        let leftLeg = travel(.leftAnkle), rightLeg = travel(.rightAnkle)
        if max(leftArm, rightArm) > max(leftLeg, rightLeg) {
            return leftArm >= rightArm ? .left : .right
        }
        return leftLeg >= rightLeg ? .left : .right
    }

    /// The knee's medial distance from the hip–ankle line, in the frontal plane, in percent of leg length.
    static func kneeValgus(
        hip: Vector3, knee: Vector3, ankle: Vector3, frame: BodyFrame, outwards: Double,
        legLength: Double
    ) -> Double {
        let hipToAnkle = ankle - hip
        let hipToKnee = knee - hip
        let lengthSquared = hipToAnkle.dot(hipToAnkle)
        guard lengthSquared > 1e-9 else { return 0 }
        let along = hipToKnee.dot(hipToAnkle) / lengthSquared
        let deviation = frame.express(hipToKnee - hipToAnkle * along)
        return -outwards * deviation.lateral / legLength * 100
    }
}

/// The body-fixed axes of a repetition: lateral (towards the person's left), up, forward.
struct BodyFrame: Sendable, Hashable {
    var lateralAxis: Vector3
    var upAxis: Vector3
    var forwardAxis: Vector3

    /// A vector's components along the three axes.
    struct Components: Sendable, Hashable {
        var lateral: Double
        var up: Double
        var forward: Double
    }

    init(startingPoses: ArraySlice<SkeletonPose>) {
        let up = Vector3(x: 0, y: 1, z: 0)
        var hipLine = Vector3.zero
        for pose in startingPoses { hipLine = hipLine + (pose[.leftHip] - pose[.rightHip]) }
        hipLine.y = 0
        let lateral = hipLine.normalized ?? Vector3(x: 1, y: 0, z: 0)
        self.lateralAxis = lateral
        self.upAxis = up
        self.forwardAxis = lateral.cross(up)
    }

    func express(_ vector: Vector3) -> Components {
        Components(lateral: vector.dot(lateralAxis), up: vector.dot(upAxis), forward: vector.dot(forwardAxis))
    }
}

/// Whether a limb signal describes the active or the passive side.
private enum LimbRole {
    case active, passive

    var knee: FormSignal { self == .active ? .activeKneeFlexion : .passiveKneeFlexion }
    var hipFlexion: FormSignal { self == .active ? .activeHipFlexion : .passiveHipFlexion }
    var hipAbduction: FormSignal { self == .active ? .activeHipAbduction : .passiveHipAbduction }
    var kneeValgus: FormSignal { self == .active ? .activeKneeValgus : .passiveKneeValgus }
    var shoulderElevation: FormSignal { self == .active ? .activeShoulderElevation : .passiveShoulderElevation }
    var elbow: FormSignal { self == .active ? .activeElbowFlexion : .passiveElbowFlexion }
    var shoulderPlane: FormSignal { self == .active ? .activeShoulderPlane : .passiveShoulderPlane }
}
