import Foundation

/// A reply read against the question it answers.
enum TrainerAnswer: Sendable, Hashable {
    /// A whole number: an age, a 1–7 or 0–10 rating, minutes.
    case integer(Int)
    /// A measurement in the question's unit (centimetres, kilograms).
    case measurement(Double)
    /// Quick-reply ids the question offers; empty for "none".
    case choices([String])
    case dateTime(LocalDateTime)
    /// The person declined (scheduling).
    case skip
}

/// What reading a reply needs besides the question: the clock, the zone and the offered choices.
struct TrainerReadingContext {
    var now: Date
    var timeZone: TimeZone
    /// The time a typed day without a time falls back on (the person's first preferred time).
    var defaultTime: LocalTime?
    var offered: [QuickReply]
}

/// Reads replies into answers, or throws a ``TrainerReplyError`` naming the question's field.
enum TrainerReplyReader {
    /// The longest free-text answer read, in UTF-8 bytes.
    static let maximumTextBytes = 500

    static func read(
        _ reply: TrainerReply, for question: TrainerQuestion, context: TrainerReadingContext
    ) throws(TrainerReplyError) -> TrainerAnswer {
        let field = question.field
        func failure(_ problem: TrainerReplyError.Problem, _ message: String) -> TrainerReplyError {
            TrainerReplyError(field: field, problem: problem, message: message, choices: context.offered)
        }
        // No answer the trainer understands is this long; refusing early bounds the parsing work.
        if (reply.text?.utf8.count ?? 0) > maximumTextBytes || reply.choices.count > 50 {
            throw failure(.notUnderstood, "That answer is too long; please pick from the choices.")
        }
        let text = reply.text.map(ReplyParser.normalized) ?? ""
        if reply.choices.isEmpty && text.isEmpty { throw failure(.empty, "Please answer with a choice or a few words.") }

        // Picked quick replies: each must be offered, and "none" stands alone.
        if !reply.choices.isEmpty {
            let offeredIDs = Set(context.offered.map(\.id))
            if let unknown = reply.choices.first(where: { !offeredIDs.contains($0) }) {
                throw failure(.unknownChoice, "'\(unknown)' is not one of the choices.")
            }
            return try answer(choosing: reply.choices, question, failure)
        }

        do {
            switch question {
            case .profile(.age):
                return .integer(try ReplyParser.integer(text, units: ["y", "yo", "yrs", "year", "years"]))
            case .profile(.height):
                return .measurement(try ReplyParser.heightCentimetres(text))
            case .profile(.weight):
                return .measurement(try ReplyParser.weightKilograms(text))
            case .profile(.sessionMinutes), .minutesTrained:
                return .integer(try ReplyParser.minutes(text))
            case .hooper, .painLevel, .painAfterLevel, .sessionRPE:
                let painless = ["none", "no", "no pain", "nothing"].contains(text)
                let value = painless && context.offered.first?.id == "0" ? 0 : try ReplyParser.integer(text)
                guard context.offered.contains(where: { $0.id == String(value) }) else {
                    throw failure(.outOfRange, "Please pick a number from \(context.offered.first?.id ?? "") to "
                        + "\(context.offered.last?.id ?? "").")
                }
                return .integer(value)
            case .nextSession:
                if isSkip(text) { return .skip }
                if let offered = context.offered.first(where: { $0.id == text || $0.label.lowercased() == text }) {
                    return try answer(choosing: [offered.id], question, failure)
                }
                return .dateTime(try ReplyParser.dateTime(
                    text, now: context.now, timeZone: context.timeZone, defaultTime: context.defaultTime))
            default:
                return try answer(choosing: try matchChoices(text, question: question, context.offered, failure), question, failure)
            }
        } catch let error as TrainerReplyError {
            throw error
        } catch let error as ReplyParseError {
            switch error {
            case .notUnderstood:
                throw failure(.notUnderstood, "Sorry, I didn't understand that. Please pick one of the choices.")
            case .missingTime:
                throw failure(.notUnderstood, "What time of day? For example \"tomorrow 7am\".")
            case .inThePast(let time):
                throw failure(.inThePast, "\(time.description.replacingOccurrences(of: "T", with: " ")) has "
                    + "already passed; please pick a time in the future.")
            }
        } catch {
            throw failure(.notUnderstood, "Sorry, I didn't understand that.")
        }
    }

    private static func answer(
        choosing ids: [String], _ question: TrainerQuestion,
        _ failure: (TrainerReplyError.Problem, String) -> TrainerReplyError
    ) throws(TrainerReplyError) -> TrainerAnswer {
        var unique: [String] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        if unique.count > 1 && !question.allowsMultiple { throw failure(.unknownChoice, "Please pick only one.") }
        if unique.contains(TrainerQuestion.none.id) {
            guard unique.count == 1 else { throw failure(.unknownChoice, "'None' cannot be picked with other choices.") }
            return .choices([])
        }
        if question == .nextSession {
            if unique == [TrainerQuestion.skip.id] { return .skip }
            guard let time = unique.first.flatMap(LocalDateTime.init) else {
                throw failure(.unknownChoice, "Please pick one of the proposed times.")
            }
            return .dateTime(time)
        }
        switch question {
        case .hooper, .painLevel, .painAfterLevel, .sessionRPE, .profile(.sessionMinutes):
            guard let value = unique.first.flatMap({ Int($0) }) else { throw failure(.unknownChoice, "Please pick a number.") }
            return .integer(value)
        default:
            return .choices(unique)
        }
    }

    /// Free text matched to offered choices: ids or labels, several separated by commas or "and"; "none", "no" and
    /// "nothing" for none; weekday abbreviations, "weekdays", "weekends" and "every day" for days.
    private static func matchChoices(
        _ text: String, question: TrainerQuestion, _ offered: [QuickReply],
        _ failure: (TrainerReplyError.Problem, String) -> TrainerReplyError
    ) throws(TrainerReplyError) -> [String] {
        if ["none", "no", "nothing", "nope", "no pain", "body weight", "bodyweight"].contains(text),
            offered.contains(TrainerQuestion.none)
        {
            return [TrainerQuestion.none.id]
        }
        if question == .profile(.trainingDays) {
            switch text {
            case "every day", "everyday", "daily", "all", "all days": return Weekday.allCases.map(\.rawValue)
            case "weekdays": return Weekday.allCases.prefix(5).map(\.rawValue)
            case "weekends", "weekend": return [Weekday.saturday.rawValue, Weekday.sunday.rawValue]
            default: break
            }
        }
        if question == .workoutResult {
            if (try? ReplyParser.yesNo(text)) == true || ["done", "finished"].contains(text) { return ["finished"] }
            if ["stopped", "stopped early", "quit"].contains(text) { return ["stopped"] }
        }
        // A label with an "and" of its own ("wrist and hand") would be split apart below: read it as its id first.
        var text = text
        for reply in offered where reply.label.lowercased().contains(" and ") {
            text = text.replacingOccurrences(of: reply.label.lowercased(), with: reply.id)
        }
        let parts = text.replacing(/\s+and\s+|\s*[,;&\/+]\s*/, with: ",").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        var ids: [String] = []
        for part in parts {
            // Singular or plural alike: "dumbbells" picks "dumbbell", "kettlebell" picks "kettlebells".
            let forms = [part, part.hasSuffix("s") ? String(part.dropLast()) : part + "s"]
            let match = offered.first { forms.contains($0.id) || forms.contains($0.label.lowercased()) }
                ?? ReplyParser.weekdayNames[part].flatMap { day in offered.first { $0.id == day.rawValue } }
            guard let match else { throw failure(.notUnderstood, "Sorry, I didn't understand '\(part)'. Please pick from the choices.") }
            ids.append(match.id)
        }
        guard !ids.isEmpty else { throw failure(.notUnderstood, "Please pick from the choices.") }
        return ids
    }

    private static func isSkip(_ text: String) -> Bool {
        ["skip", "skip for now", "later", "not now", "no", "no thanks", "nope", "none"].contains(text)
    }
}
