/// What a person trains for; it decides the focus of the workouts the trainer plans.
public enum TrainingGoal: String, Sendable, Hashable, Codable, CaseIterable {
    case strength, fitness, mobility, recovery
}

/// A part of the day a person likes to train in, with the clock time the trainer proposes for it.
public enum TrainingTime: String, Sendable, Hashable, Codable, CaseIterable {
    case morning, midday, afternoon, evening

    /// The time proposed for this part of the day: 07:00, 12:00, 15:00, 18:00.
    public var startTime: LocalTime {
        switch self {
        case .morning: LocalTime(validHour: 7, minute: 0)
        case .midday: LocalTime(validHour: 12, minute: 0)
        case .afternoon: LocalTime(validHour: 15, minute: 0)
        case .evening: LocalTime(validHour: 18, minute: 0)
        }
    }
}

extension ProfileFields.Gender: Codable {}

/// What the trainer knows about a person. `nil` means not known yet, and the trainer asks.
///
/// Painful regions distinguish `nil` (not asked) from `[]` (asked: nothing hurts). Lists are kept in their enum's
/// declaration order without repeats, so equal profiles encode to equal JSON.
public struct TrainerProfile: Sendable, Hashable, Codable {
    public var ageYears: Int?
    public var heightCentimetres: Double?
    public var weightKilograms: Double?
    public var gender: ProfileFields.Gender?
    public var goal: TrainingGoal?
    public var experience: Level?
    /// Equipment at hand; `[]` means body weight only.
    public var equipment: [Equipment]? { didSet { equipment = equipment.map(distinctInCaseOrder) } }
    /// The days of the week the person can train; their count is the person's "days a week".
    public var trainingDays: [Weekday]? { didSet { trainingDays = trainingDays.map(distinctInCaseOrder) } }
    /// Minutes a session: 10 to 60 in steps of 5, as a workout request allows.
    public var sessionMinutes: Int?
    public var preferredTimes: [TrainingTime]? { didSet { preferredTimes = preferredTimes.map(distinctInCaseOrder) } }
    public var painfulRegions: [BodyRegion]? { didSet { painfulRegions = painfulRegions.map(distinctInCaseOrder) } }

    public init(
        ageYears: Int? = nil, heightCentimetres: Double? = nil, weightKilograms: Double? = nil,
        gender: ProfileFields.Gender? = nil, goal: TrainingGoal? = nil, experience: Level? = nil,
        equipment: [Equipment]? = nil, trainingDays: [Weekday]? = nil, sessionMinutes: Int? = nil,
        preferredTimes: [TrainingTime]? = nil, painfulRegions: [BodyRegion]? = nil
    ) {
        self.ageYears = ageYears
        self.heightCentimetres = heightCentimetres
        self.weightKilograms = weightKilograms
        self.gender = gender
        self.goal = goal
        self.experience = experience
        self.equipment = equipment.map(distinctInCaseOrder)
        self.trainingDays = trainingDays.map(distinctInCaseOrder)
        self.sessionMinutes = sessionMinutes
        self.preferredTimes = preferredTimes.map(distinctInCaseOrder)
        self.painfulRegions = painfulRegions.map(distinctInCaseOrder)
    }

    /// The fields still unknown, in the order the trainer asks them.
    public var missingFields: [ProfileField] {
        ProfileField.allCases.filter { !isKnown($0) }
    }

    /// Whether `field` holds a usable answer. Zero, empty, out-of-range and non-finite values do not count, so a
    /// host that sends `0` for an unknown weight gets the question asked.
    public func isKnown(_ field: ProfileField) -> Bool {
        switch field {
        case .age: ageYears.map { ProfileFields.age($0) == nil } ?? false
        case .height: heightCentimetres.map { ProfileFields.heightCentimetres($0) == nil } ?? false
        case .weight: weightKilograms.map { ProfileFields.weightKilograms($0) == nil } ?? false
        case .gender: gender != nil
        case .goal: goal != nil
        case .experience: experience != nil
        case .equipment: equipment != nil
        case .trainingDays: !(trainingDays ?? []).isEmpty
        case .sessionMinutes: sessionMinutes.map(WorkoutRequest.allowedMinutes.contains) ?? false
        case .preferredTimes: !(preferredTimes ?? []).isEmpty
        case .painfulRegions: painfulRegions != nil
        }
    }

    /// This profile with every known field of `other` filled in where this one's is unknown.
    ///
    /// The trainer starts from the stored profile merged with the host's pre-fill, so neither is asked again.
    public func filling(from other: TrainerProfile) -> TrainerProfile {
        var merged = self
        for field in ProfileField.allCases where !isKnown(field) && other.isKnown(field) {
            switch field {
            case .age: merged.ageYears = other.ageYears
            case .height: merged.heightCentimetres = other.heightCentimetres
            case .weight: merged.weightKilograms = other.weightKilograms
            case .gender: merged.gender = other.gender
            case .goal: merged.goal = other.goal
            case .experience: merged.experience = other.experience
            case .equipment: merged.equipment = other.equipment
            case .trainingDays: merged.trainingDays = other.trainingDays
            case .sessionMinutes: merged.sessionMinutes = other.sessionMinutes
            case .preferredTimes: merged.preferredTimes = other.preferredTimes
            case .painfulRegions: merged.painfulRegions = other.painfulRegions
            }
        }
        return merged
    }
}

extension TrainerProfile {
    /// The profile a host's pre-fill describes (seed 002: age in years, height in cm, weight in kg, gender "male" or
    /// "female"). Omitted, empty, zero and unusable values stay unknown, so the trainer asks for them.
    public init(hostAge: Int?, heightCentimetres: Double?, weightKilograms: Double?, gender: String?) {
        self.init()
        ageYears = hostAge.flatMap { ProfileFields.age($0) == nil ? $0 : nil }
        self.heightCentimetres = heightCentimetres.flatMap { ProfileFields.heightCentimetres($0) == nil ? $0 : nil }
        self.weightKilograms = weightKilograms.flatMap { ProfileFields.weightKilograms($0) == nil ? $0 : nil }
        self.gender = gender.flatMap { try? ProfileFields.gender($0).get() }
    }
}

/// One thing the trainer's profile step can ask.
public enum ProfileField: String, Sendable, Hashable, Codable, CaseIterable {
    case age, height, weight, gender, goal, experience, equipment, trainingDays, sessionMinutes, preferredTimes
    case painfulRegions
}
