import Foundation

/// Which pose exercise, if any, the camera counts for a catalogue exercise, from the exercise's name.
///
/// The catalogue (free-exercise-db) names movements freely ("Dumbbell Bicep Curl", "Pullups", "Dips - Triceps
/// Version"), so the match is on words, with exclusions where a name shares a word with a different movement
/// (leg curls, wrist curls and bench presses are not counted as biceps curls or shoulder presses). Items without a
/// match are timed or ticked off by the person in the player; docs/embed.md lists the rules.
public enum PoseExerciseMatching {
    /// The identifiers of the exercises the camera counts (FormaMotion's `PoseExercises`); a test holds the two
    /// lists together, since FormaCore does not import FormaMotion.
    public static let countedExercises: Set<String> = [
        "squat", "push-up", "lunge", "jumping-jack", "biceps-curl", "shoulder-press", "sit-up", "glute-bridge",
        "pull-up", "dip",
    ]

    /// The pose exercise the camera counts for the catalogue exercise named `name`, or `nil` when none fits.
    ///
    /// Remembered per name: the server asks for every item of every workout it answers with, and matching the words
    /// (Foundation's case-folding and substring search) was a tenth of a release server's CPU time under
    /// `POST /v1/workouts/generate` (perf, docs/performance.md). Names come from the catalogue, so the memory is
    /// small; it stops growing at ``Memo/capacity`` names all the same.
    public static func poseExercise(forCatalogueName name: String) -> String? {
        if let known = memo.answer(for: name) { return known }
        let answer = match(name)
        memo.remember(answer, for: name)
        return answer
    }

    private static let memo = Memo()

    /// Answers already worked out, by name; safe to use from any thread.
    final class Memo: @unchecked Sendable {
        static let capacity = 4096
        private let lock = NSLock()
        private var answers: [String: String?] = [:]

        func answer(for name: String) -> String?? {
            lock.lock()
            defer { lock.unlock() }
            return answers[name]
        }

        func remember(_ answer: String?, for name: String) {
            lock.lock()
            defer { lock.unlock() }
            if answers.count < Self.capacity { answers[name] = .some(answer) }
        }
    }

    private static func match(_ name: String) -> String? {
        // Folded words between spaces, so " word " matches whole words.
        let text = " " + SearchText.fold(name) + " "
        func has(_ words: String...) -> Bool { words.contains { text.contains(" \($0) ") || text.contains(" \($0)s ") } }
        func hasPart(_ parts: String...) -> Bool { parts.contains { text.contains($0) } }

        // Compound lifts and get-ups whose name contains a counted movement but whose motion is another.
        if hasPart(" get up ", " jerk ", " sprint ", " pulldown") { return nil }
        let id: String?
        if has("jumping jack") {
            id = "jumping-jack"
        } else if has("lunge", "split squat") {
            id = "lunge"
        } else if has("squat") && !hasPart("jump", "sissy", "hack", "zercher", "box", "lying", "kneeling") {
            id = "squat"
        } else if has("push up", "pushup") && !hasPart("handstand", "plyo", "clap", "side plank", "depth jump") {
            id = "push-up"
        } else if has("pull up", "pullup", "chin up", "chinup") && !hasPart("band", "kipping", "scapular") {
            id = "pull-up"
        } else if has("dip") && !hasPart("hip", "machine") {
            id = "dip"
        } else if has("curl")
            && hasPart("bicep", "dumbbell", "barbell", "hammer", "concentration", "preacher", "ez bar", "cable")
            && !hasPart("leg", "wrist", "hamstring", "lying", "ab ", "glute", "calf", "toe", "reverse")
        {
            id = "biceps-curl"
        } else if has("shoulder press", "military press", "overhead press", "arnold dumbbell press", "push press")
            && !hasPart("machine", "smith", "kneeling", "seated barbell")
        {
            id = "shoulder-press"
        } else if has("sit up", "situp") {
            id = "sit-up"
        } else if has("bridge") && hasPart("glute", "hip", "butt") && !hasPart("single", "one leg") {
            id = "glute-bridge"
        } else {
            id = nil
        }
        guard let id, countedExercises.contains(id) else { return nil }
        return id
    }
}
