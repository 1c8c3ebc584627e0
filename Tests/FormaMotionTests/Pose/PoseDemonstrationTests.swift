import Testing

@testable import FormaMotion

/// The demonstrations the pages animate: what a person copies from them is what the counter counts.
@Suite struct PoseDemonstrationTests {
    @Test(arguments: PoseExercises.all.map(\.id))
    func theDemonstrationPlayedOverAndOverIsCountedOncePerLoop(exerciseID: String) throws {
        // setup
        let exercise = try #require(PoseExercises.named(exerciseID))
        let demonstration = try #require(PoseDemonstration.make(exerciseID: exerciseID, framesPerSecond: 30))

        // act
        let analysis = PoseAnalyzer.analyze(demonstration.looped(4), exercise: exercise)

        // verify
        #expect(analysis.count == 4, "\(exerciseID): \(analysis.count) counted in 4 loops")
        #expect(analysis.mistakes.isEmpty, "\(exerciseID): the demonstration shows good form: \(analysis.mistakes)")
    }

    @Test func everyFrameHasTheWholeBodyInThePicture_andTheMeasuredJointsAreNamed() throws {
        for exercise in PoseExercises.all {
            let demonstration = try #require(PoseDemonstration.make(exerciseID: exercise.id))
            #expect(demonstration.recording.framesPerSecond == 20)
            for frame in demonstration.recording.frames {
                let landmarks = try #require(frame.landmarks)
                #expect(landmarks.count == PoseLandmark.count)
                #expect(landmarks.allSatisfy { (0...1).contains($0.x) && (0...1).contains($0.y) }, "\(exercise.id)")
            }
            #expect((2...3).contains(demonstration.measuredLandmarks.count))
            #expect(demonstration.startValue == exercise.signal.startValue)
        }
        #expect(PoseDemonstration.make(exerciseID: "juggling") == nil)
        #expect(PoseDemonstration.make(exerciseID: "squat", framesPerSecond: 0) == nil)
    }
}
