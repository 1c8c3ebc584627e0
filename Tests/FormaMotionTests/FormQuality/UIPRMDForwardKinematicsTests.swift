import FormaMotion
import FormaMotionLab
import Testing

@Suite struct UIPRMDForwardKinematicsTests {
    @Test func rotation_composesZThenXThenY() {
        // setup: (x 90°, y 90°, z 0°) separates ZXY from the other orders: Rz·Rx·Ry sends x̂ to ŷ, Rz·Ry·Rx to −ẑ.
        let angles = Vector3(x: 90, y: 90, z: 0)

        // act
        let image = UIPRMDForwardKinematics.rotation(eulerDegrees: angles) * Vector3(x: 1, y: 0, z: 0)

        // verify
        #expect(abs(image.x) < 1e-12 && abs(image.y - 1) < 1e-12 && abs(image.z) < 1e-12)
    }

    @Test func skeleton_bonesKeepTheLengthsOfTheirOffsets() throws {
        // setup
        let offsets = try UIPRMDTextReader.parse(UIPRMDExcerpt.positions, source: "positions")

        // act
        let skeleton = try UIPRMDExcerpt.skeleton()

        // verify
        for (frame, pose) in skeleton.poses.enumerated() {
            for joint in UIPRMDJoint.allCases {
                guard let parent = joint.parent else { continue }
                let bone = (pose[joint.anatomicalJoint] - pose[parent.anatomicalJoint]).length
                #expect(abs(bone - offsets[frame, joint].length) < 1e-9, "frame \(frame), \(joint)")
            }
        }
    }

    @Test func skeleton_ofTheExcerptStandsUprightOnTheFloorFacingTheSensor() throws {
        // setup & act: the first frames of a deep squat, before the descent
        let skeleton = try UIPRMDExcerpt.skeleton()

        // verify
        for pose in skeleton.poses {
            // Joints are stacked from the floor up (y is up, in centimetres).
            #expect(pose[.headTop].y > pose[.neck].y && pose[.neck].y > pose[.pelvis].y)
            #expect(pose[.leftHip].y > pose[.leftKnee].y && pose[.leftKnee].y > pose[.leftAnkle].y)
            #expect(pose[.rightHip].y > pose[.rightKnee].y && pose[.rightKnee].y > pose[.rightAnkle].y)
            // The feet rest on a floor at y ≈ 0 (Kinect's foot joints hover a few centimetres above it) and a
            // standing adult is 150–200 cm tall.
            #expect(pose[.leftToe].y > -5 && pose[.leftToe].y < 12)
            #expect(pose[.rightToe].y > -5 && pose[.rightToe].y < 12)
            #expect(min(pose[.leftToe].y, pose[.rightToe].y) < 5)
            #expect(pose[.headTop].y > 150 && pose[.headTop].y < 200)
            // Facing the sensor (+z): the person's left is at +x and the toes point towards the sensor.
            #expect(pose[.leftShoulder].x > pose[.rightShoulder].x && pose[.leftHip].x > pose[.rightHip].x)
            #expect(pose[.leftToe].z > pose[.leftAnkle].z && pose[.rightToe].z > pose[.rightAnkle].z)
            // The deep squat starts with the dowel overhead: wrists above the head.
            #expect(pose[.leftWrist].y > pose[.headTop].y && pose[.rightWrist].y > pose[.headTop].y)
        }
    }

    @Test func skeleton_rejectsFilesOfDifferentLengths() throws {
        // setup
        let positions = try UIPRMDTextReader.parse(UIPRMDExcerpt.positions, source: "positions")
        var angles = try UIPRMDTextReader.parse(UIPRMDExcerpt.angles, source: "angles")
        angles.frames.removeLast()

        // act
        let error = #expect(throws: UIPRMDFormatError.self) {
            try UIPRMDForwardKinematics.skeleton(positions: positions, angles: angles)
        }

        // verify
        #expect(error == .frameCountMismatch(positionFrames: 3, angleFrames: 2))
    }

    @Test func pose_preservesBoneLengthsAndMovesChildrenWithParentsForRandomAngles() {
        withEveryFormSeed(1...300) { seed, generator in
            // setup: random offsets and angles
            let offsets = (0..<22).map { _ in
                Vector3(x: .random(in: -30...30, using: &generator), y: .random(in: -30...30, using: &generator),
                              z: .random(in: -30...30, using: &generator))
            }
            let angles = (0..<22).map { _ in
                Vector3(x: .random(in: -180...180, using: &generator),
                              y: .random(in: -180...180, using: &generator),
                              z: .random(in: -180...180, using: &generator))
            }

            // act
            let pose = UIPRMDForwardKinematics.pose(offsets: offsets, angles: angles)
            var turnedAngles = angles
            turnedAngles[UIPRMDJoint.leftForearm.rawValue].z += 40
            let turned = UIPRMDForwardKinematics.pose(offsets: offsets, angles: turnedAngles)

            // verify
            for joint in UIPRMDJoint.allCases {
                guard let parent = joint.parent else { continue }
                let bone = (pose[joint.anatomicalJoint] - pose[parent.anatomicalJoint]).length
                #expect(abs(bone - offsets[joint.rawValue].length) < 1e-9, "seed \(seed), \(joint)")
            }
            // Turning the elbow moves the wrist only; the elbow and everything else stay put.
            #expect((turned[.leftElbow] - pose[.leftElbow]).length < 1e-9, "seed \(seed)")
            #expect((turned[.rightWrist] - pose[.rightWrist]).length < 1e-9, "seed \(seed)")
            #expect((turned[.leftWrist] - turned[.leftElbow]).length - (pose[.leftWrist] - pose[.leftElbow]).length
                        < 1e-9, "seed \(seed)")
        }
    }

    @Test func anatomicalJoints_mapOneToOneAndOntoBlazePoseLimbLandmarks() {
        // setup & act
        let mapped = Set(UIPRMDJoint.allCases.map(\.anatomicalJoint))
        let blazePose = AnatomicalJoint.allCases.compactMap(\.blazePoseIndex)

        // verify
        #expect(mapped.count == 22)
        #expect(Set(blazePose) == [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28, 31, 32])
        #expect(UIPRMDJoint.leftUpperArm.anatomicalJoint == .leftShoulder)
        #expect(UIPRMDJoint.rightFoot.anatomicalJoint == .rightAnkle)
    }
}
