import Foundation
import Testing
import Vapor

@testable import FormaCore
@testable import FormaMotion
@testable import FormaServer

/// `GET /v1/exercises/{id}/guide`: what a page needs to show a person an exercise: its muscles on the body map, and
/// for an exercise the camera counts, the counter's own demonstration.
@Suite("Exercise guide")
struct ExerciseGuideTests {
    struct Guide: Decodable {
        struct Regions: Decodable {
            let primary: [String]
            let secondary: [String]
        }
        struct Demonstration: Decodable {
            let poseExercise: String
            let framesPerSecond: Double
            let frames: [[Double]]
            let bones: [[Int]]
            let measuredLandmarks: [Int]
            let startValue: Double
            let targetValue: Double
            let unit: String
        }
        let exerciseId: String
        let regions: Regions
        let demonstration: Demonstration?
    }

    @Test func aCountedExerciseHasItsMusclesOnTheMap_andADemonstrationTheCounterCountsOncePerLoop() async throws {
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).get("/v1/exercises/Barbell_Squat/guide")

            // verify
            #expect(reply.status == .ok)
            #expect(reply.headers.first(name: .cacheControl) == CatalogueResponseCache.cacheControl)
            let guide = try reply.json(Guide.self)
            #expect(guide.exerciseId == "Barbell_Squat")
            // quadriceps; calves, glutes, hamstrings, lower back (the catalogue's entry)
            #expect(guide.regions.primary == ["thigh front"])
            #expect(guide.regions.secondary == ["lower back", "glute", "thigh back", "lower leg"])
            let demonstration = try #require(guide.demonstration)
            #expect(demonstration.poseExercise == "squat")
            #expect(demonstration.unit == "degrees" && demonstration.startValue == 170 && demonstration.targetValue == 100)
            #expect(demonstration.measuredLandmarks == [24, 26, 28], "right hip, knee, ankle (the side nearer the viewer): the knee angle")
            #expect(demonstration.bones.allSatisfy { $0.count == 2 && $0.allSatisfy((0..<33).contains) })
            #expect(demonstration.frames.allSatisfy { frame in
                frame.count == 99 && stride(from: 0, to: 99, by: 3).allSatisfy { (0...1).contains(frame[$0]) && (0...1).contains(frame[$0 + 1]) }
            })
            // What the page draws, read back as landmarks and played four times, is counted four times.
            let frames = demonstration.frames.enumerated().map { index, numbers in
                PoseFrame(
                    timeSeconds: Double(index) / demonstration.framesPerSecond,
                    landmarks: stride(from: 0, to: numbers.count, by: 3).map {
                        Landmark(x: numbers[$0], y: numbers[$0 + 1], z: numbers[$0 + 2])
                    })
            }
            let loop = PoseRecording(framesPerSecond: demonstration.framesPerSecond, frames: frames)
            let looped = PoseDemonstration(
                exerciseID: "squat", recording: loop, measuredLandmarks: [], startValue: 0, targetValue: 0, unit: "")
                .looped(4)
            let squat = try #require(PoseExercises.named("squat"))
            #expect(PoseAnalyzer.analyze(looped, exercise: squat).count == 4)
        }
    }

    @Test func anExerciseTheCameraDoesNotCountHasNoDemonstration_andAnUnknownOneIs404() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let catalogue = try ExerciseCatalog.bundled()
            let uncounted = try #require(catalogue.exercises.first {
                PoseExerciseMatching.poseExercise(forCatalogueName: $0.name) == nil && $0.primaryMuscles == [.biceps]
            })

            // act
            let plain = try await api.get("/v1/exercises/\(uncounted.id)/guide")
            let unknown = try await api.get("/v1/exercises/No_Such_Thing/guide")
            let first = try await api.get("/v1/exercises/Barbell_Squat/guide")
            let tag = try #require(first.headers.first(name: .eTag))
            let again = try await api.get("/v1/exercises/Barbell_Squat/guide", headers: [("If-None-Match", tag)])

            // verify
            let guide = try plain.json(Guide.self)
            #expect(guide.demonstration == nil)
            #expect(guide.regions.primary == ["elbow"], "the body map shows the biceps at the elbow")
            #expect(unknown.status == .notFound)
            #expect(try unknown.problem().detail?.contains("No_Such_Thing") == true)
            #expect(again.status == .notModified && again.body.isEmpty)
        }
    }
}
