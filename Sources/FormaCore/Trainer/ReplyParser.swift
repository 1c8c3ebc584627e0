import Foundation

/// Why a free-text reply could not be read. The chat asks the question again, with choices.
public enum ReplyParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not the kind of answer the question expects.
    case notUnderstood
    /// A day was understood but no time of day, and there is no preferred time to fall back on.
    case missingTime
    /// The date and time were understood but are not in the future.
    case inThePast(LocalDateTime)

    public var description: String {
        switch self {
        case .notUnderstood: "not understood"
        case .missingTime: "a time of day is missing"
        case .inThePast(let time): "\(time) is not in the future"
        }
    }
}

/// Reads the free-text answers a chat needs: numbers with units, yes or no, dates and times.
///
/// Parsing only reads; it does not judge plausibility (an age of 3 is read as 3). Range checks belong to the field
/// (``ProfileFields``). Decimal commas are accepted (`76,5 kg`).
public enum ReplyParser {
    /// A height in centimetres from `5'11"`, `5 ft 11 in`, `5'11`, `180 cm`, `1.80 m`, `71 in`, or a bare number
    /// (centimetres when 50 or more, metres when below 3).
    public static func heightCentimetres(_ text: String) throws(ReplyParseError) -> Double {
        let input = normalized(text)
        if let match = input.wholeMatch(of: /(\d+)\s*(?:'|ft|feet|foot)\s*(?:(\d+(?:\.\d+)?)\s*(?:"|''|in|inch|inches)?)?/) {
            guard let feet = Double(match.1) else { throw .notUnderstood }
            let inches = match.2.flatMap { Double($0) } ?? 0
            guard inches < 12 else { throw .notUnderstood }
            return rounded((feet * 12 + inches) * 2.54)
        }
        guard let match = input.wholeMatch(of: /(\d+(?:\.\d+)?)\s*(cm|centimet(?:re|er)s?|m|met(?:re|er)s?|in|inch|inches|")?/),
            let value = Double(match.1)
        else { throw .notUnderstood }
        switch match.2.map(String.init) {
        case "cm"?, "centimetre"?, "centimetres"?, "centimeter"?, "centimeters"?: return rounded(value)
        case "m"?, "metre"?, "metres"?, "meter"?, "meters"?: return rounded(value * 100)
        case "in"?, "inch"?, "inches"?, "\""?: return rounded(value * 2.54)
        case nil where value >= 50: return rounded(value)
        case nil where value < 3: return rounded(value * 100)
        default: throw .notUnderstood
        }
    }

    /// A weight in kilograms from `76 kg`, `168 lb`, `168 lbs`, `12 st`, or a bare number (kilograms).
    public static func weightKilograms(_ text: String) throws(ReplyParseError) -> Double {
        let input = normalized(text)
        guard let match = input.wholeMatch(
            of: /(\d+(?:\.\d+)?)\s*(kg|kgs|kilos?|kilograms?|kilogrammes?|lb|lbs|pounds?|st|stone)?/),
            let value = Double(match.1)
        else { throw .notUnderstood }
        switch match.2.map(String.init) {
        case nil, "kg"?, "kgs"?, "kilo"?, "kilos"?, "kilogram"?, "kilograms"?, "kilogramme"?, "kilogrammes"?:
            return rounded(value)
        case "st"?, "stone"?: return rounded(value * 6.350_293_18)
        default: return rounded(value * 0.453_592_37)
        }
    }

    /// A whole number, optionally followed by one of `units` (`32`, `32 years`); words `one` to `ten` count too.
    public static func integer(_ text: String, units: [String] = []) throws(ReplyParseError) -> Int {
        var words = normalized(text).split(separator: " ").map(String.init)
        if words.count == 3, words[2] == "old" { words.removeLast() }  // "32 years old"
        if words.count == 2, units.contains(words[1]) { words.removeLast() }
        guard words.count == 1 else { throw .notUnderstood }
        let word = words[0]
        if let value = Int(word) { return value }
        if let value = numberWords.firstIndex(of: word) { return value }
        // "45min", "32y": digits glued to a unit.
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, units.contains(String(word.dropFirst(digits.count))), let value = Int(digits) { return value }
        throw .notUnderstood
    }

    /// Minutes from `45`, `45 min`, `1 hour`, `1.5 h`.
    public static func minutes(_ text: String) throws(ReplyParseError) -> Int {
        let input = normalized(text)
        if let match = input.wholeMatch(of: /(\d+(?:\.\d+)?|an?|one)\s*(h|hr|hrs|hours?)/) {
            let hours = match.1 == "a" || match.1 == "an" || match.1 == "one" ? 1 : Double(match.1) ?? -1
            // A day at most, so that the conversion to whole minutes cannot overflow.
            guard (0...24).contains(hours) else { throw .notUnderstood }
            return Int((hours * 60).rounded())
        }
        return try integer(input, units: ["m", "min", "mins", "minute", "minutes"])
    }

    /// `true` for yes, `false` for no, in the usual chat spellings.
    public static func yesNo(_ text: String) throws(ReplyParseError) -> Bool {
        let input = normalized(text).trimmingCharacters(in: CharacterSet(charactersIn: "!.?"))
        if yesWords.contains(input) { return true }
        if noWords.contains(input) { return false }
        throw .notUnderstood
    }

    static let yesWords: Set<String> = [
        "yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "of course", "definitely", "please", "yes please", "ja",
        "si", "oui", "true", "1",
    ]
    static let noWords: Set<String> = [
        "no", "n", "nope", "nah", "not now", "no thanks", "no thank you", "never", "false", "0", "nein", "non",
    ]
    static let numberWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// Lowercased, typographic quotes and primes made ASCII, decimal commas made points, whitespace collapsed.
    static func normalized(_ text: String) -> String {
        var result = text.lowercased()
        for (typographic, plain) in [("’", "'"), ("‘", "'"), ("′", "'"), ("”", "\""), ("“", "\""), ("″", "\"")] {
            result = result.replacingOccurrences(of: typographic, with: plain)
        }
        result = result.replacing(/(\d),(\d)/) { match in "\(match.1).\(match.2)" }
        return result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// One decimal place, so that `5'11"` reads as 180.3 cm rather than 180.34000000000003.
    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
