import Foundation

/// A set whose repetitions were counted and can be scored against its label.
protocol EvaluatedSet {
    /// The repetitions performed; `nil` when the set has no label, which leaves it out of the tally.
    var expectedCount: Int? { get }
    /// The repetitions the engine counted.
    var counted: Int { get }
    /// Whether the count lies in the range the labels accept, for data that give a range; `nil` otherwise.
    var countIsRight: Bool? { get }
}

extension EvaluatedSet {
    var countIsRight: Bool? { nil }
}

/// One line of an accuracy table: sets counted exactly, within one, the total error and, for data whose labels
/// accept a range of counts, the sets counted right.
struct EvaluationRow: Sendable {
    var name: String
    var sets = 0
    var exact = 0
    var withinOne = 0
    /// Sets whose count lies in the accepted range; `nil` when no set of the row has one.
    var right: Int?
    var expectedTotal = 0
    var countedTotal = 0
    var absoluteError = 0

    init(name: String) {
        self.name = name
    }

    /// The tally of the labelled sets among `sets`.
    init(name: String, _ sets: some Sequence<some EvaluatedSet>) {
        self.name = name
        for set in sets {
            guard let expected = set.expectedCount else { continue }
            add(expected: expected, counted: set.counted, isRight: set.countIsRight)
        }
    }

    /// One row per value of `key`, in order of first appearance.
    static func grouped<Set: EvaluatedSet>(_ sets: [Set], by key: (Set) -> String) -> [EvaluationRow] {
        var order: [String] = []
        var groups: [String: [Set]] = [:]
        for set in sets {
            let name = key(set)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(set)
        }
        return order.map { EvaluationRow(name: $0, groups[$0] ?? []) }
    }

    mutating func add(expected: Int, counted: Int, isRight: Bool? = nil) {
        sets += 1
        expectedTotal += expected
        countedTotal += counted
        absoluteError += abs(counted - expected)
        if counted == expected { exact += 1 }
        if abs(counted - expected) <= 1 { withinOne += 1 }
        if let isRight { right = (right ?? 0) + (isRight ? 1 : 0) }
    }

    /// This row's tally plus `other`'s, under this row's name.
    func adding(_ other: EvaluationRow) -> EvaluationRow {
        var total = self
        total.sets += other.sets
        total.exact += other.exact
        total.withinOne += other.withinOne
        if let right = other.right { total.right = (total.right ?? 0) + right }
        total.expectedTotal += other.expectedTotal
        total.countedTotal += other.countedTotal
        total.absoluteError += other.absoluteError
        return total
    }

    /// The mean absolute counting error per set (0 for no sets).
    var meanAbsoluteError: Double {
        sets > 0 ? Double(absoluteError) / Double(sets) : 0
    }

    /// One line: sets, exact, within ±1 and mean absolute error.
    var summary: String {
        "\(sets) sets, exact \(exact), within ±1 \(withinOne), MAE " + String(format: "%.3f", meanAbsoluteError)
    }

    /// The column titles of a table.
    struct Headings: Sendable {
        var name: String
        var sets: String
        var expected: String
        var counted: String
        var meanError: String

        static let sets = Headings(
            name: "set", sets: "sets", expected: "reps expected", counted: "reps counted",
            meanError: "mean abs. error per set")
    }

    /// A Markdown table of `rows`, with a column of sets counted right when any row has one, and a total row when
    /// there is more than one row.
    static func table(_ rows: [EvaluationRow], headings: Headings = .sets) -> String {
        let showsRight = rows.contains { $0.right != nil }
        let titles = [headings.name, headings.sets] + (showsRight ? ["right"] : [])
            + ["exact", "within ±1", headings.expected, headings.counted, headings.meanError]
        var lines = [
            "| " + titles.joined(separator: " | ") + " |",
            "|" + String(repeating: "---|", count: titles.count),
        ]
        lines += rows.map { $0.line(showsRight: showsRight) }
        if rows.count > 1 {
            let total = rows.reduce(EvaluationRow(name: "**all**")) { $0.adding($1) }
            lines.append(total.line(showsRight: showsRight))
        }
        return lines.joined(separator: "\n")
    }

    private func line(showsRight: Bool) -> String {
        let cells = [name, "\(sets)"] + (showsRight ? ["\(right ?? 0)"] : [])
            + ["\(exact)", "\(withinOne)", "\(expectedTotal)", "\(countedTotal)"]
            + [String(format: "%.2f", meanAbsoluteError)]
        return "| " + cells.joined(separator: " | ") + " |"
    }
}
