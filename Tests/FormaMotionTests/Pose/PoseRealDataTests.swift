import Foundation
import Testing

@testable import FormaMotion
import FormaMotionLab

/// Real recordings: the committed KERAAL fixtures always; UI-PRMD from ../shared/data when it is there.
@Suite struct PoseRealDataTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/pose")
    static let sharedData = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    static let hasUIPRMD = FileManager.default.fileExists(
        atPath: sharedData.appendingPathComponent("ui-prmd/kinect/correct/positions").path)
    static let hasKERAAL = FileManager.default.fileExists(
        atPath: sharedData.appendingPathComponent("keraal-samples").path)

    static func fixture(_ code: String) throws -> PoseRecording {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("keraal-\(code).json"))
        return try PoseRecordingParser.parse(data)
    }

    static func repeated(_ recording: PoseRecording, times: Int) -> PoseRecording {
        let period = recording.durationSeconds + 1 / recording.framesPerSecond
        var frames: [PoseFrame] = []
        for pass in 0..<times {
            for var frame in recording.frames {
                frame.timeSeconds += Double(pass) * period
                frames.append(frame)
            }
        }
        return PoseRecording(framesPerSecond: recording.framesPerSecond, frames: frames)
    }

    @Test(arguments: [("ctk", "hiding-face"), ("elk", "flank-stretch"), ("rtk", "torso-rotation")])
    func keraalRepetition_repeatedFiveTimes_countsFive(code: String, exerciseID: String) throws {
        // setup
        let exercise = try #require(PoseExercises.named(exerciseID))
        let set = Self.repeated(try Self.fixture(code), times: 5)
        // act
        let analysis = PoseAnalyzer.analyze(set, exercise: exercise)
        // verify
        #expect(analysis.count == 5)
        #expect(analysis.presenceChanges.isEmpty)
    }

    @Test(.enabled(if: hasKERAAL, "../shared/data/keraal-samples is absent"))
    func keraalFixtures_matchTheSharedOriginals() throws {
        for code in ["CTK", "ELK", "RTK"] {
            // setup
            let original = Self.sharedData.appendingPathComponent("keraal-samples/G3-BP-\(code)-P1T1-Unknown-C-0.json")
            // act
            let imported = try NamedLandmarkImport.recording(from: try Data(contentsOf: original))
            let fixture = try Self.fixture(code.lowercased())
            // verify
            #expect(imported.frames.count == fixture.frames.count)
            for (a, b) in zip(imported.frames, fixture.frames) {
                for landmark in [PoseLandmark.nose, .leftWrist, .rightKnee] {
                    #expect(abs(a[landmark].x - b[landmark].x) < 0.0006 && abs(a[landmark].y - b[landmark].y) < 0.0006)
                }
            }
        }
    }

    /// Subject 1's ten deep squats (correct), concatenated from the ten segmented UI-PRMD episodes.
    @Test(.enabled(if: hasUIPRMD, "../shared/data/ui-prmd is absent; `forma eval pose ui-prmd` runs the full table"))
    func uiprmdDeepSquats_subjectOne_countsTen() throws {
        // setup
        let root = Self.sharedData.appendingPathComponent("ui-prmd/kinect/correct")
        var frames: [PoseFrame] = []
        for episode in 1...10 {
            let name = String(format: "m01_s01_e%02d", episode)
            let positions = try Self.table(root.appendingPathComponent("positions/\(name)_positions.txt.gz"))
            let angles = try Self.table(root.appendingPathComponent("angles/\(name)_angles.txt.gz"))
            let skeleton = try UIPRMDForwardKinematics.skeleton(positions: positions, angles: angles)
            let start = frames.last.map { $0.timeSeconds + 1.0 / 30 } ?? 0
            frames += UIPRMDKinect.recording(skeleton, startSeconds: start).frames
        }
        let exercise = try #require(PoseExercises.named("deep-squat"))
        // act
        let analysis = PoseAnalyzer.analyze(PoseRecording(framesPerSecond: 30, frames: frames), exercise: exercise)
        // verify
        #expect(analysis.count == 10)
        #expect(analysis.repetitions.allSatisfy { $0.turningValue < 100 }, "UI-PRMD deep squats bend the knee below 100°")
    }

    /// One gzip-compressed UI-PRMD file, decompressed with the system's gzip and read with `UIPRMDTextReader`.
    static func table(_ url: URL) throws -> UIPRMDTable {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try UIPRMDTextReader.parse(utf8: [UInt8](data), source: url.lastPathComponent)
    }
}
