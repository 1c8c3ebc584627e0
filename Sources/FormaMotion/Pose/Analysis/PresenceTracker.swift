/// Decides when the person has left the camera's view and when they are back, with debouncing so that a few
/// dropped frames do not raise events.
struct PresenceTracker: Sendable {
    /// Absence needed before `leftFrame`, and presence needed before `returnedToFrame`.
    var leaveAfterSeconds = 0.5
    var returnAfterSeconds = 0.3

    private enum State { case neverSeen, present, absent }
    private var state = State.neverSeen
    private var lastSeen = 0.0
    private var absentSince: Double?
    private var presentSince: Double?

    /// Whether the person currently counts as in the picture (false before they are first seen).
    var isPresent: Bool { state == .present }

    mutating func update(isVisible: Bool, time: Double) -> PoseEvent? {
        switch state {
        case .neverSeen:
            if isVisible {
                state = .present
                lastSeen = time
            }
            return nil
        case .present:
            if isVisible {
                lastSeen = time
                absentSince = nil
                return nil
            }
            let since = absentSince ?? time
            absentSince = since
            guard time - since >= leaveAfterSeconds else { return nil }
            state = .absent
            absentSince = nil
            return .leftFrame(sinceSeconds: lastSeen)
        case .absent:
            guard isVisible else {
                presentSince = nil
                return nil
            }
            let since = presentSince ?? time
            presentSince = since
            guard time - since >= returnAfterSeconds else { return nil }
            state = .present
            presentSince = nil
            lastSeen = time
            return .returnedToFrame(atSeconds: since)
        }
    }
}
