/// Everything the trainer can ask, with its wording, quick replies and expected input.
public enum TrainerQuestion: Sendable, Hashable, Codable {
    case profile(ProfileField)
    case hooper(HooperItem)
    /// Which regions hurt today (or none).
    case painRegions
    /// How much a region hurts today, 0–10.
    case painLevel(BodyRegion)
    /// Shown with the workout: the person finished it or stopped early.
    case workoutResult
    /// After stopping early: how many minutes were trained.
    case minutesTrained
    case sessionRPE
    case feeling
    /// Which regions hurt after the session (or none).
    case painAfterRegions
    case painAfterLevel(BodyRegion)
    case nextSession

    /// The field an answer fills, as errors and the API name it.
    public var field: String {
        switch self {
        case .profile(let field): field.rawValue
        case .hooper(let item): item.rawValue
        case .painRegions: "painRegions"
        case .painLevel(let region): "pain.\(region.rawValue)"
        case .workoutResult: "workoutResult"
        case .minutesTrained: "minutesTrained"
        case .sessionRPE: "sessionRPE"
        case .feeling: "feeling"
        case .painAfterRegions: "painAfterRegions"
        case .painAfterLevel(let region): "painAfter.\(region.rawValue)"
        case .nextSession: "scheduledFor"
        }
    }

    public var expects: TrainerInputKind {
        switch self {
        case .profile(.age), .profile(.height), .profile(.weight), .profile(.sessionMinutes), .minutesTrained:
            .numberWithUnit
        case .profile(.painfulRegions), .painRegions, .painAfterRegions: .bodyRegion
        case .nextSession: .dateTime
        default: .choice
        }
    }

    public var allowsMultiple: Bool {
        switch self {
        case .profile(.equipment), .profile(.trainingDays), .profile(.preferredTimes), .profile(.painfulRegions),
            .painRegions, .painAfterRegions:
            true
        default: false
        }
    }

    public var unit: String? {
        switch self {
        case .profile(.age): "years"
        case .profile(.height): "cm"
        case .profile(.weight): "kg"
        case .profile(.sessionMinutes), .minutesTrained: "minutes"
        default: nil
        }
    }

    /// The quick reply that answers "nothing" for multiple-choice questions where that is allowed.
    static let none = QuickReply(id: "none", label: "None")

    /// The quick reply that declines scheduling.
    static let skip = QuickReply(id: "skip", label: "Skip for now")

    /// The fixed quick replies; the next-session proposals are added by the conversation.
    public var quickReplies: [QuickReply] {
        switch self {
        case .profile(.age), .profile(.height), .profile(.weight), .minutesTrained, .nextSession: []
        case .profile(.gender):
            [QuickReply(id: "female", label: "Female"), QuickReply(id: "male", label: "Male"),
             QuickReply(id: "other", label: "Other")]
        case .profile(.goal):
            [QuickReply(id: "strength", label: "Get stronger"), QuickReply(id: "fitness", label: "Get fitter"),
             QuickReply(id: "mobility", label: "Move better"), QuickReply(id: "recovery", label: "Recover")]
        case .profile(.experience):
            [QuickReply(id: "beginner", label: "New to training"),
             QuickReply(id: "intermediate", label: "Train regularly"),
             QuickReply(id: "expert", label: "Experienced")]
        case .profile(.equipment):
            [Self.none] + Equipment.allCases.filter { $0 != .bodyOnly }.map {
                QuickReply(id: $0.rawValue, label: $0.rawValue.capitalized)
            }
        case .profile(.trainingDays):
            Weekday.allCases.map { QuickReply(id: $0.rawValue, label: $0.shortName) }
        case .profile(.sessionMinutes):
            [20, 30, 45, 60].map { QuickReply(id: String($0), label: "\($0) min") }
        case .profile(.preferredTimes):
            TrainingTime.allCases.map { QuickReply(id: $0.rawValue, label: $0.rawValue.capitalized) }
        case .profile(.painfulRegions), .painRegions, .painAfterRegions:
            [Self.none] + BodyRegion.allCases.map { QuickReply(id: $0.rawValue, label: $0.label) }
        case .hooper(let item):
            (HooperScores.scale).map { QuickReply(id: String($0), label: Self.hooperLabel(item, $0)) }
        case .painLevel, .painAfterLevel:
            PainRating.scale.map { QuickReply(id: String($0), label: $0 == 0 ? "0 none" : $0 == 10 ? "10 worst" : String($0)) }
        case .workoutResult:
            [QuickReply(id: "finished", label: "I finished"), QuickReply(id: "stopped", label: "I stopped early")]
        case .sessionRPE:
            SessionCheckIn.rpeScale.map { QuickReply(id: String($0), label: Self.rpeLabel($0)) }
        case .feeling:
            SessionFeeling.allCases.map { QuickReply(id: $0.rawValue, label: $0.rawValue.capitalized) }
        }
    }

    /// The question, as the trainer asks it.
    public var text: String {
        switch self {
        case .profile(.age): "How old are you?"
        case .profile(.height): "How tall are you? (for example 178 cm or 5'10\")"
        case .profile(.weight): "What do you weigh? (for example 76 kg or 168 lb)"
        case .profile(.gender): "What is your gender?"
        case .profile(.goal): "What do you want from training?"
        case .profile(.experience): "How much training experience do you have?"
        case .profile(.equipment): "What equipment do you have at hand? Pick all that apply, or none."
        case .profile(.trainingDays): "Which days of the week can you train?"
        case .profile(.sessionMinutes): "How many minutes do you have for a session?"
        case .profile(.preferredTimes): "When do you prefer to train?"
        case .profile(.painfulRegions): "Is any part of your body often painful or injured? Pick all, or none."
        case .hooper(.sleepQuality): "How well did you sleep last night? 1 very, very good … 7 very, very bad."
        case .hooper(.fatigue): "How tired do you feel? 1 very, very low … 7 very, very high."
        case .hooper(.muscleSoreness): "How sore are your muscles? 1 very, very low … 7 very, very high."
        case .hooper(.stress): "How stressed do you feel? 1 very, very low … 7 very, very high."
        case .painRegions: "Does anything hurt today? Pick every region, or none."
        case .painLevel(let region):
            "How much \(region.labelIsPlural ? "do" : "does") your \(region.sentenceLabel) hurt right now, from 0 (not "
                + "at all) to 10?"
        case .workoutResult: "Tell me when you are done."
        case .minutesTrained: "How many minutes did you train?"
        case .sessionRPE: "How hard was the whole session, from 0 (rest) to 10 (maximal)?"
        case .feeling: "How did it feel?"
        case .painAfterRegions: "Does anything hurt now? Pick every region, or none."
        case .painAfterLevel(let region):
            "How much \(region.labelIsPlural ? "do" : "does") your \(region.sentenceLabel) hurt now, from 0 to 10?"
        case .nextSession: "When shall we train next? Pick a time, type one (\"tomorrow 7am\"), or skip."
        }
    }

    static func hooperLabel(_ item: HooperItem, _ score: Int) -> String {
        let words = item == .sleepQuality
            ? ["very, very good", "very good", "good", "average", "bad", "very bad", "very, very bad"]
            : ["very, very low", "very low", "low", "average", "high", "very high", "very, very high"]
        return "\(score) \(words[score - 1])"
    }

    /// Foster's modified CR-10 wording (Foster et al. 2001).
    static func rpeLabel(_ rating: Int) -> String {
        let words = [0: "rest", 1: "very, very easy", 2: "easy", 3: "moderate", 4: "somewhat hard", 5: "hard",
                     7: "very hard", 10: "maximal"]
        return words[rating].map { "\(rating) \($0)" } ?? String(rating)
    }
}
