import Testing

@testable import FormaCore

/// Which catalogue exercises the camera counter takes on.
@Suite("Pose exercises of catalogue items")
struct PoseExerciseMatchingTests {
    @Test(arguments: [
        ("Bodyweight Squat", "squat"), ("Barbell Full Squat", "squat"), ("Goblet Squat", "squat"),
        ("Dumbbell Lunges", "lunge"), ("Split Squats", "lunge"), ("Pushups", "push-up"),
        ("Push-Ups With Feet Elevated", "push-up"), ("Chin-Up", "pull-up"), ("Pullups", "pull-up"),
        ("Dips - Triceps Version", "dip"), ("Dumbbell Bicep Curl", "biceps-curl"), ("Hammer Curls", "biceps-curl"),
        ("Standing Military Press", "shoulder-press"), ("Arnold Dumbbell Press", "shoulder-press"),
        ("Sit-Up", "sit-up"), ("Butt Lift (Bridge)", "glute-bridge"), ("Barbell Glute Bridge", "glute-bridge"),
    ])
    func counted(name: String, exercise: String) {
        #expect(PoseExerciseMatching.poseExercise(forCatalogueName: name) == exercise)
    }

    @Test(arguments: [
        "Lying Leg Curls", "Seated Leg Curl", "Palms-Down Wrist Curl Over A Bench", "Barbell Bench Press - Medium Grip",
        "Kettlebell Turkish Get-Up (Squat style)", "Squat Jerk", "Freehand Jump Squat", "Hip Circles (prone)",
        "Single Leg Glute Bridge", "Handstand Push-Ups", "Machine Shoulder (Military) Press", "Plank",
    ])
    func notCounted(name: String) {
        #expect(PoseExerciseMatching.poseExercise(forCatalogueName: name) == nil)
    }
}
