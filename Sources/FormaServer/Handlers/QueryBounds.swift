import FormaCore

/// The integer query parameters whose bounds openapi.yaml declares (`limit`, `weeks`, `seconds`).
///
/// A value outside them is a 400 naming the parameter, as docs/errors.md says of every query parameter; 422 is for
/// bodies and headers.
enum QueryBounds {
    /// `value`, or `defaultValue` when the parameter is absent; ``InputError/badParameter(_:)`` outside `range`.
    static func value(_ value: Int?, of name: String, in range: ClosedRange<Int>, default defaultValue: Int)
        throws(InputError) -> Int
    {
        try Self.value(value ?? defaultValue, of: name, in: range)
    }

    /// `value`; ``InputError/badParameter(_:)`` outside `range`.
    static func value(_ value: Int, of name: String, in range: ClosedRange<Int>) throws(InputError) -> Int {
        guard range.contains(value) else {
            throw .badParameter(FieldIssue(field: name, message: "must be \(range.lowerBound) to \(range.upperBound)"))
        }
        return value
    }
}
