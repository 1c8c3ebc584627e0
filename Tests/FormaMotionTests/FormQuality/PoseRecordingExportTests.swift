import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@Suite struct PoseRecordingExportTests {
    @Test func camera_mapsTheOpticalAxisToTheCentreAndTheFieldEdgeToTheImageEdge() throws {
        // setup
        let camera = VirtualPinholeCamera(position: Vector3(x: 0, y: 100, z: 0), fieldOfViewDegrees: 60)
        let edge = 200 * tan(30 * Double.pi / 180)

        // act
        let centre = try #require(camera.project(Vector3(x: 0, y: 100, z: -200)))
        let right = try #require(camera.project(Vector3(x: edge, y: 100 + edge, z: -200)))

        // verify
        #expect(centre.x == 0.5 && centre.y == 0.5 && centre.depth == 200)
        #expect(abs(right.x - 1) < 1e-12 && abs(right.y) < 1e-12)
        #expect(camera.project(Vector3(x: 0, y: 100, z: 10)) == nil)
    }

    @Test func landmarks_placeTheKinectJointsInBlazePoseOrderAndHideTheRest() throws {
        // setup
        let pose = try #require(try UIPRMDExcerpt.skeleton().poses.first)

        // act
        let landmarks = PoseRecordingExporter.landmarks(for: pose, camera: VirtualPinholeCamera())

        // verify
        #expect(landmarks.count == 33 && landmarks.allSatisfy { $0.count == 4 })
        let visible = Set(landmarks.indices.filter { landmarks[$0][3] == 1 })
        #expect(visible == [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28, 31, 32])
        #expect(landmarks.indices.filter { !visible.contains($0) }.allSatisfy { landmarks[$0] == [0, 0, 0, 0] })
        // Facing the camera, the person's left shoulder (11) appears to the right of the right one (12), the
        // shoulders above the hips and the hips above the ankles (image y grows downwards).
        #expect(landmarks[11][0] > landmarks[12][0])
        #expect(landmarks[11][1] < landmarks[23][1] && landmarks[23][1] < landmarks[27][1])
        // z is depth relative to the hip midpoint: the two hips straddle 0.
        #expect(abs(landmarks[23][2] + landmarks[24][2]) < 0.01)
        #expect(landmarks.flatMap { $0 }.allSatisfy { $0.isFinite && abs($0 * 10_000 - ($0 * 10_000).rounded()) < 1e-6 })
    }

    @Test func recording_concatenatesRepetitionsOnOneClockAndMarksTheirBoundaries() throws {
        // setup
        let first = SyntheticSkeleton.repetition(frames: 40) { skeleton, amount in
            skeleton.rightArmElevation = 90 * amount
        }
        let second = SyntheticSkeleton.repetition(frames: 50) { skeleton, amount in
            skeleton.rightArmElevation = 60 * amount
        }

        // act
        let recording = PoseRecordingExporter.recording(
            [.init(episode: 1, isCorrect: true, skeleton: first), .init(episode: 2, isCorrect: false, skeleton: second)],
            source: "synthetic", licence: "none")

        // verify
        #expect(recording.fps == 30 && recording.frames.count == 90)
        let times = recording.frames.map(\.t)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-4 })
        let repetitions = try #require(recording.repetitions)
        #expect(repetitions.map(\.episode) == [1, 2] && repetitions.map(\.correct) == [true, false])
        #expect(repetitions[0].start == 0 && abs(repetitions[0].end - 39.0 / 30) < 1e-4)
        #expect(abs(repetitions[1].start - 40.0 / 30) < 1e-4 && abs(repetitions[1].end - 89.0 / 30) < 1e-4)
        // The raised right wrist (16) climbs above the right shoulder (12) at the top of the first repetition.
        let top = try #require(recording.frames[20].landmarks)
        #expect(top[16][1] < top[12][1] + 0.02)
    }

    @Test func committedFixtures_areValidPoseRecordingsWithThreeRepetitions() throws {
        // setup
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/ui-prmd").standardized
        let names = ["m01_s01_e01-e03_correct.json", "m07_s01_e01-e03_correct.json"]

        for name in names {
            // act
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let recording = try JSONDecoder().decode(ExportedPoseRecording.self, from: data)

            // verify
            #expect(recording.fps == 30, "\(name)")
            #expect(recording.licence == "ODC-PDDL-1.0", "\(name)")
            #expect(recording.repetitions?.count == 3 && recording.repetitions?.allSatisfy(\.correct) == true)
            #expect(recording.frames.count > 90, "\(name)")
            #expect(recording.frames.allSatisfy { $0.landmarks?.count == 33 && $0.landmarks?.allSatisfy { $0.count == 4 } == true })
            let times = recording.frames.map(\.t)
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "\(name)")
        }
    }
}
