import Foundation

extension ReplyParser {
    /// A date and time in the person's local time from a chat reply, relative to `now` in `timeZone`.
    ///
    /// Understood, in any letter case and order of day and time:
    /// - days: `today`, `tonight`, `tomorrow`, `day after tomorrow`, `in 2 days`, `in a week`, a weekday (`thu`,
    ///   `thursday`, `this thursday`, `on thursday`), `next thursday`, an ISO date `2026-04-29`; or `in 2 hours`
    ///   (1 to 72) on its own;
    /// - times: `18:30`, `6:30pm`, `7am`, `7 am`, `at 7` (24-hour clock), `noon`, `midnight`, and the parts of the
    ///   day `morning` 07:00, `midday` 12:00, `afternoon` 15:00, `evening` and `tonight` 18:00, `night` 20:00; an
    ///   hour below 12 with `afternoon`, `evening` or `night` is read as p.m. (`at 6 in the evening`);
    /// - `YYYY-MM-DDTHH:MM` and `YYYY-MM-DD HH:MM`.
    ///
    /// A bare weekday is its next occurrence, today included while the time is still ahead; `next thursday` is the
    /// first Thursday after today. A time alone is today if still ahead, else tomorrow. A day without a time takes
    /// `defaultTime` (the person's preferred time), or throws ``ReplyParseError/missingTime``.
    ///
    /// The result is a wall time that exists in `timeZone`: one inside a spring-forward gap moves forward by the gap.
    /// - Throws: ``ReplyParseError/inThePast(_:)`` when the time is not after `now`;
    ///   ``ReplyParseError/notUnderstood`` for anything else.
    public static func dateTime(
        _ text: String, now: Date, timeZone: TimeZone, defaultTime: LocalTime? = nil
    ) throws(ReplyParseError) -> LocalDateTime {
        let today = LocalDateTime(now, in: timeZone)
        var input = normalized(text).trimmingCharacters(in: CharacterSet(charactersIn: ".!?,"))
        input = input.replacingOccurrences(of: ",", with: " ")
        let upper = input.uppercased()
        if let exact = LocalDateTime(upper) ?? LocalDateTime(upper.replacingOccurrences(of: " ", with: "T")) {
            return try future(exact, now: now, timeZone: timeZone)
        }

        if let match = input.wholeMatch(of: /in\s+(\w+)\s*(?:h|hr|hrs|hour|hours)/) {
            // "in 2 hours": an instant, read back on the local clock (so it always exists).
            guard let hours = countWord(String(match.1)), (1...72).contains(hours) else { throw .notUnderstood }
            return LocalDateTime(now.addingTimeInterval(Double(hours) * 3600), in: timeZone)
        }

        var time: LocalTime?
        var partOfDay: TrainingTime?
        var nightHour = false
        var explicitHour: (hour: Int, minute: Int, meridiem: Substring?)?
        input = input.replacingOccurrences(of: "in the ", with: "")
        // A number is a time only with minutes, a.m./p.m. or a leading "at": the 2 of "in 2 days" is not.
        let clock = /(?:^|\s)(?:at\s+)?(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.?|p\.m\.?)?(?=\s|$)/
        if let match = input.matches(of: clock).first(where: { match in
            match.2 != nil || match.3 != nil || input[match.range].contains("at ")
        }) {
            guard let hour = Int(match.1) else { throw .notUnderstood }
            explicitHour = (hour, match.2.flatMap { Int($0) } ?? 0, match.3)
            input.removeSubrange(match.range)
        }
        var words = input.split(separator: " ").map(String.init).filter { !fillerWords.contains($0) }
        if let position = words.firstIndex(where: { partOfDayWords[$0] != nil }) {
            let word = words[position]
            partOfDay = partOfDayWords[word]
            nightHour = word == "night"
            if word == "tonight" { words[position] = "today" } else { words.remove(at: position) }
        }
        if let position = words.firstIndex(of: "noon") {
            time = LocalTime(validHour: 12, minute: 0)
            words.remove(at: position)
        } else if let position = words.firstIndex(of: "midnight") {
            time = LocalTime(validHour: 0, minute: 0)
            words.remove(at: position)
        }

        if let explicit = explicitHour {
            var hour = explicit.hour
            switch explicit.meridiem?.first {
            case "a"?:
                guard (1...12).contains(hour) else { throw .notUnderstood }
                hour %= 12
            case "p"?:
                guard (1...12).contains(hour) else { throw .notUnderstood }
                hour = hour % 12 + 12
            default:
                if let part = partOfDay, part != .morning, hour < 12 { hour += 12 }
            }
            guard let parsed = LocalTime(hour: hour, minute: explicit.minute) else { throw .notUnderstood }
            time = parsed
        } else if time == nil, let part = partOfDay {
            time = nightHour ? LocalTime(validHour: 20, minute: 0) : part.startTime
        }

        let day = try dayOffset(words, today: today.date)
        switch (day, time) {
        case (nil, nil):
            throw .notUnderstood
        case (nil, let time?):
            let candidate = today.date.at(time)
            if candidate.normalized(in: timeZone).resolved(in: timeZone) > now {
                return try future(candidate, now: now, timeZone: timeZone)
            }
            return try future(today.date.adding(days: 1).at(time), now: now, timeZone: timeZone)
        case (let day?, _):
            guard let time = time ?? defaultTime else { throw .missingTime }
            var date = day.date
            if day.mayRollOverAWeek, date.at(time).normalized(in: timeZone).resolved(in: timeZone) <= now {
                date = date.adding(days: 7)
            }
            return try future(date.at(time), now: now, timeZone: timeZone)
        }
    }

    private static func future(
        _ wall: LocalDateTime, now: Date, timeZone: TimeZone
    ) throws(ReplyParseError) -> LocalDateTime {
        let existing = wall.normalized(in: timeZone)
        guard existing.resolved(in: timeZone) > now else { throw .inThePast(existing) }
        return existing
    }

    /// The date `words` name, or `nil` when they name none.
    private static func dayOffset(
        _ words: [String], today: LocalDate
    ) throws(ReplyParseError) -> (date: LocalDate, mayRollOverAWeek: Bool)? {
        let phrase = words.joined(separator: " ")
        switch phrase {
        case "": return nil
        case "today": return (today, false)
        case "tomorrow", "tmrw", "tmr", "tomorow": return (today.adding(days: 1), false)
        case "day after tomorrow", "overmorrow": return (today.adding(days: 2), false)
        default: break
        }
        if words.count == 3, words[0] == "in", let count = countWord(words[1]) {
            switch words[2] {
            case "day", "days": return (today.adding(days: count), false)
            case "week", "weeks": return (today.adding(days: 7 * count), false)
            default: throw .notUnderstood
            }
        }
        if words.count == 1, let date = isoDate(words[0]) { return (date, false) }
        let qualifier = words.count == 2 ? words[0] : nil
        guard words.count <= 2, let name = words.last, let weekday = weekdayNames[name],
            qualifier == nil || qualifier == "next" || qualifier == "this"
        else { throw .notUnderstood }
        let ahead = ((Weekday.allCases.firstIndex(of: weekday) ?? 0) - (Weekday.allCases.firstIndex(of: today.weekday) ?? 0) + 7) % 7
        if qualifier == "next" { return (today.adding(days: ahead == 0 ? 7 : ahead), false) }
        return (today.adding(days: ahead), ahead == 0)
    }

    private static func countWord(_ word: String) -> Int? {
        if word == "a" || word == "an" { return 1 }
        if let value = Int(word), (0...366).contains(value) { return value }
        return numberWords.firstIndex(of: word)
    }

    private static func isoDate(_ word: String) -> LocalDate? {
        LocalDateTime(word + "T00:00")?.date
    }

    static let fillerWords: Set<String> = ["at", "on", "around", "about", "the", "please", "for"]

    static let partOfDayWords: [String: TrainingTime] = [
        "morning": .morning, "midday": .midday, "lunchtime": .midday, "lunch": .midday, "afternoon": .afternoon,
        "evening": .evening, "tonight": .evening, "night": .evening,
    ]

    static let weekdayNames: [String: Weekday] = {
        var names: [String: Weekday] = [:]
        let extra: [Weekday: [String]] = [
            .tuesday: ["tue", "tues"], .wednesday: ["weds"], .thursday: ["thur", "thurs"],
        ]
        for day in Weekday.allCases {
            names[day.rawValue] = day
            names[String(day.rawValue.prefix(3))] = day
            for alias in extra[day] ?? [] { names[alias] = day }
        }
        return names
    }()
}
