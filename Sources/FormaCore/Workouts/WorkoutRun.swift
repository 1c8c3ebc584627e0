import Foundation

/// Where one run of a workout stands. A workout can be run many times; each start begins a new run.
public enum WorkoutRunStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Started and being done now.
    case inProgress = "in_progress"
    /// Started, then paused; still counts as in progress for the one-at-a-time rule.
    case paused
    /// Finished and saved with its results; counts in history.
    case completed
    /// Quit before the end; kept for the record but never counted.
    case abandoned

    /// Whether the run still occupies the user's single in-progress slot.
    public var isActive: Bool { self == .inProgress || self == .paused }
}

/// What a person can do to a run that has started.
public enum WorkoutRunAction: String, Sendable, Hashable, Codable, CaseIterable {
    case pause, resume, quit, save
}

/// A request that does not fit the run's state, such as resuming a run that is not paused.
public struct InvalidWorkoutTransition: Error, Sendable, Hashable, CustomStringConvertible {
    public let action: WorkoutRunAction
    public let status: WorkoutRunStatus

    public init(action: WorkoutRunAction, status: WorkoutRunStatus) {
        self.action = action
        self.status = status
    }

    public var description: String {
        "cannot \(action.rawValue) a workout that is \(status.rawValue.replacingOccurrences(of: "_", with: " "))"
    }
}

/// The timing of a run: when it started, how long it has been active, and when it ended.
///
/// Elapsed time counts only active periods: pausing stops the clock, resuming restarts it. All times come from the
/// caller (the server's clock), never from the client, so a run's duration cannot be forged.
public struct WorkoutRunTimeline: Sendable, Hashable, Codable {
    public private(set) var status: WorkoutRunStatus
    public let startedAt: Date
    /// Start of the current active period; `nil` while paused or ended.
    public private(set) var activeSince: Date?
    /// Seconds of activity before `activeSince`.
    public private(set) var accumulatedSeconds: Double
    public private(set) var endedAt: Date?

    /// A run that starts now.
    public init(startedAt: Date) {
        self.status = .inProgress
        self.startedAt = startedAt
        self.activeSince = startedAt
        self.accumulatedSeconds = 0
        self.endedAt = nil
    }

    /// Restores a stored timeline.
    public init(
        status: WorkoutRunStatus, startedAt: Date, activeSince: Date?, accumulatedSeconds: Double, endedAt: Date?
    ) {
        self.status = status
        self.startedAt = startedAt
        self.activeSince = activeSince
        self.accumulatedSeconds = accumulatedSeconds
        self.endedAt = endedAt
    }

    /// Seconds of activity up to `now` (the final figure once the run has ended).
    public func elapsedSeconds(at now: Date) -> Double {
        guard let activeSince else { return accumulatedSeconds }
        return accumulatedSeconds + max(0, now.timeIntervalSince(activeSince))
    }

    /// Applies an action at `now`.
    ///
    /// - Throws: ``InvalidWorkoutTransition`` when the action does not fit the current status: pause needs a run in
    ///   progress, resume a paused one, and quit or save an active one.
    public mutating func apply(_ action: WorkoutRunAction, at now: Date) throws(InvalidWorkoutTransition) {
        switch (action, status) {
        case (.pause, .inProgress):
            accumulatedSeconds = elapsedSeconds(at: now)
            activeSince = nil
            status = .paused
        case (.resume, .paused):
            activeSince = now
            status = .inProgress
        case (.quit, .inProgress), (.quit, .paused):
            end(at: now, as: .abandoned)
        case (.save, .inProgress), (.save, .paused):
            end(at: now, as: .completed)
        default:
            throw InvalidWorkoutTransition(action: action, status: status)
        }
    }

    private mutating func end(at now: Date, as final: WorkoutRunStatus) {
        accumulatedSeconds = elapsedSeconds(at: now)
        activeSince = nil
        endedAt = now
        status = final
    }
}
