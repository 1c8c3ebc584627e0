import Foundation
import Testing

@testable import FormaMotion
@testable import FormaMotionLab

@Suite struct PoseGeometryTests {
    @Test func angle_isRightAngleStraightAndPlanar() {
        // setup
        let origin = Vector3(x: 0, y: 0, z: 0)
        // act
        let right = JointGeometry.angle(Vector3(x: 1, y: 0, z: 0), origin, Vector3(x: 0, y: 1, z: 0))
        let straight = JointGeometry.angle(Vector3(x: 1, y: 0, z: 0), origin, Vector3(x: -2, y: 0, z: 0))
        let planar = JointGeometry.planarAngle(Vector3(x: 1, y: 0, z: 5), origin, Vector3(x: 0, y: 1, z: -3))
        let degenerate = JointGeometry.angle(origin, origin, Vector3(x: 1, y: 0, z: 0))
        // verify
        #expect(abs((right ?? 0) - 90) < 1e-9)
        #expect(abs((straight ?? 0) - 180) < 1e-9)
        #expect(abs((planar ?? 0) - 90) < 1e-9)
        #expect(degenerate == nil)
    }

    @Test func measures_readKneeAnglesInThreeAndTwoDimensions() {
        // setup: a knee bent 90° towards the camera (the shank points at it), seen from the front.
        var landmarks = Array(repeating: Landmark(x: 0.5, y: 0.5), count: 33)
        landmarks[PoseLandmark.leftHip.rawValue] = Landmark(x: 0.5, y: 0.3, z: 0)
        landmarks[PoseLandmark.leftKnee.rawValue] = Landmark(x: 0.5, y: 0.5, z: 0)
        landmarks[PoseLandmark.leftAnkle.rawValue] = Landmark(x: 0.5, y: 0.5, z: -0.2)
        // act
        let (spatial, planar) = landmarks.withUnsafeBufferPointer { buffer in
            let skeleton = SkeletonView(landmarks: buffer, aspectRatio: 1, torsoLength: 0.3)
            return (
                skeleton.value(.jointAngle(.hip, .knee, .ankle), side: .left),
                skeleton.value(.planarJointAngle(.hip, .knee, .ankle), side: .left))
        }
        // verify
        #expect(abs((spatial ?? 0) - 90) < 1e-9)
        #expect(planar == nil, "the shank has no extent in the image plane")
    }

    @Test func oneEuroFilter_smoothsStillNoiseAndFollowsMovement() {
        // setup
        var rng = SeededGenerator(seed: 1)
        var filter = OneEuroFilter(minimumCutoffHertz: 1.5, beta: 1.5 / 90)
        var rawError = 0.0
        var filteredError = 0.0
        // act: 3 s of noise around 100, then a 60° ramp over 0.5 s
        for frame in 0..<90 {
            let noise = PoseSynthesizer.gaussian(&rng) * 3
            let filtered = filter.filter(100 + noise, at: Double(frame) / 30)
            if frame > 15 {
                rawError += noise * noise
                filteredError += (filtered - 100) * (filtered - 100)
            }
        }
        var last = 0.0
        for frame in 90..<120 {
            let value = 100 - 60 * min(1, Double(frame - 90) / 15)
            last = filter.filter(value, at: Double(frame) / 30)
        }
        // verify
        #expect(filteredError < rawError / 4, "still jitter should drop by more than half its amplitude")
        #expect(abs(last - 40) < 4, "after the ramp the filter should have caught up, got \(last)")
    }

    @Test func visionMapping_flipsYAndDropsNeckAndRoot() {
        // act
        let frame = VisionBodyJoint.poseFrame(
            timeSeconds: 1, joints: [.leftKnee: (0.3, 0.2, 0.8), .neck: (0.5, 0.9, 1), .root: (0.5, 0.5, 1)])
        // verify
        #expect(frame[.leftKnee] == Landmark(x: 0.3, y: 0.8, z: 0, visibility: 0.8))
        #expect(frame.landmarks?.filter { $0.visibility > 0 }.count == 1)
        #expect(VisionBodyJoint.allCases.count == 19)
    }

    @Test func kinectMapping_projectsLeftToImageRightAndHeadAboveFeet() {
        // setup: a person 2.5 m away facing the sensor, left hand out to the sensor's right.
        var joints = Array(repeating: (x: 0.0, y: 0.0, z: 2.5), count: 25)
        joints[KinectV2Joint.head.rawValue] = (0, 0.7, 2.5)
        joints[KinectV2Joint.footLeft.rawValue] = (0.1, -0.9, 2.5)
        joints[KinectV2Joint.wristLeft.rawValue] = (0.6, 0.3, 2.4)
        joints[KinectV2Joint.hipLeft.rawValue] = (0.1, 0, 2.5)
        joints[KinectV2Joint.hipRight.rawValue] = (-0.1, 0, 2.5)
        // act
        let frame = DepthCameraProjection().poseFrame(timeSeconds: 0, kinectJoints: joints)
        // verify
        #expect(frame[.nose].y < frame[.leftFootIndex].y)
        #expect(frame[.leftWrist].x > 0.5)
        #expect(frame[.leftWrist].z < 0, "nearer the camera than the hips")
        #expect(frame[.leftEye].visibility == 0)
        #expect(KinectV2Joint.allCases.count == 25)
    }

    @Test func uiprmdForwardKinematics_keepsBoneLengths() {
        // setup: a straight chain with rotations everywhere; offsets of length 10.
        let offsets = (0..<22).map { joint in joint == 0 ? Vector3(x: 0, y: 100, z: -250) : Vector3(x: 0, y: 10, z: 0) }
        let angles = (0..<22).map { joint in Vector3(x: Double(joint) * 3, y: Double(joint) * -2, z: 7) }
        // act
        let joints = UIPRMDForwardKinematics.absolutePositions(offsets: offsets, angles: angles)
        // verify
        for joint in 1..<22 {
            let parent = UIPRMDJoint.allCases[joint].parent?.rawValue ?? 0
            #expect(abs((joints[joint] - joints[parent]).length - 10) < 1e-9)
        }
    }

    @Test func uiprmdKinect_projectsFifteenJointsOntoTheirLandmarks_headAsNose() throws {
        // setup: a standing skeleton 2.5 m in front of the camera, left hand raised to the side.
        var positions = [Vector3](repeating: Vector3(x: 0, y: 100, z: 250), count: AnatomicalJoint.count)
        positions[AnatomicalJoint.head.rawValue] = Vector3(x: 0, y: 170, z: 250)
        positions[AnatomicalJoint.leftWrist.rawValue] = Vector3(x: 60, y: 150, z: 250)
        positions[AnatomicalJoint.rightToe.rawValue] = Vector3(x: -15, y: 2, z: 240)
        let pose = try #require(SkeletonPose(positions: positions))
        // act
        let frame = try #require(UIPRMDKinect.recording(SkeletonSequence(framesPerSecond: 30, poses: [pose])).frames.first)
        // verify
        let visible = PoseLandmark.allCases.filter { frame[$0].visibility > 0 }
        #expect(visible.count == 15)
        #expect(Set(visible).isSuperset(of: [.nose, .leftWrist, .rightFootIndex, .leftHip, .rightShoulder]))
        #expect(frame[.leftEye].visibility == 0 && frame[.leftIndex].visibility == 0)
        #expect(frame[.nose].y < frame[.leftWrist].y && frame[.leftWrist].y < frame[.rightFootIndex].y)
        #expect(frame[.leftWrist].x > 0.5 && frame[.rightFootIndex].x < 0.5)
    }
}
