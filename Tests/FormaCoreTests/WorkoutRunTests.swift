import Foundation
import Testing

@testable import FormaCore

@Suite("Workout run lifecycle")
struct WorkoutRunTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func pausesStopTheClock() throws {
        // setup
        var run = WorkoutRunTimeline(startedAt: start)

        // act: 60 s active, 300 s paused, 90 s active, then saved
        try run.apply(.pause, at: start + 60)
        let whilePaused = run.elapsedSeconds(at: start + 200)
        try run.apply(.resume, at: start + 360)
        try run.apply(.save, at: start + 450)

        // verify
        #expect(whilePaused == 60)
        #expect(run.status == .completed)
        #expect(run.elapsedSeconds(at: start + 10_000) == 150)
        #expect(run.endedAt == start + 450)
    }

    @Test func everyActionIsLegalOnlyFromItsStates() throws {
        let legal: [WorkoutRunAction: Set<WorkoutRunStatus>] = [
            .pause: [.inProgress], .resume: [.paused], .quit: [.inProgress, .paused], .save: [.inProgress, .paused],
        ]
        for status in WorkoutRunStatus.allCases {
            for action in WorkoutRunAction.allCases {
                // setup
                var run = WorkoutRunTimeline(
                    status: status, startedAt: start, activeSince: status == .inProgress ? start : nil,
                    accumulatedSeconds: 10, endedAt: status.isActive ? nil : start + 10)
                let before = run

                // act
                let outcome = Result { () throws(InvalidWorkoutTransition) in try run.apply(action, at: start + 30) }

                // verify
                if legal[action, default: []].contains(status) {
                    #expect((try? outcome.get()) != nil, "\(action) from \(status) should be allowed")
                } else {
                    #expect(throws: InvalidWorkoutTransition(action: action, status: status)) { try outcome.get() }
                    #expect(run == before, "a refused \(action) must not change a \(status) run")
                }
            }
        }
    }

    @Test func quittingEndsTheRunAsAbandoned() throws {
        var run = WorkoutRunTimeline(startedAt: start)
        try run.apply(.quit, at: start + 42)
        #expect(run.status == .abandoned)
        #expect(!run.status.isActive)
        #expect(run.elapsedSeconds(at: start + 100) == 42)
    }
}
