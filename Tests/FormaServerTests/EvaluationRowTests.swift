import Testing

@testable import FormaCLI

/// The accuracy tally and the manifest reader shared by `forma eval pose`, `eval spar` and `eval barbell`.
@Suite struct EvaluationRowTests {
    private struct Counted: EvaluatedSet {
        var group: String
        var expectedCount: Int?
        var counted: Int
        var countIsRight: Bool?
    }

    @Test func groupedRows_tallyEachGroupInFirstAppearanceOrder_andTheTableTotalsThem() {
        // setup: B first; one unlabelled set that must not be scored.
        let sets = [
            Counted(group: "B", expectedCount: 10, counted: 10), Counted(group: "A", expectedCount: 5, counted: 7),
            Counted(group: "B", expectedCount: 10, counted: 9), Counted(group: "A", expectedCount: nil, counted: 3),
        ]
        // act
        let rows = EvaluationRow.grouped(sets, by: \.group)
        let table = EvaluationRow.table(rows).split(separator: "\n").map(String.init)
        // verify
        #expect(rows.map(\.name) == ["B", "A"])
        #expect(rows[0].summary == "2 sets, exact 1, within ±1 2, MAE 0.500")
        #expect(rows[1].summary == "1 sets, exact 0, within ±1 0, MAE 2.000")
        #expect(table == [
            "| set | sets | exact | within ±1 | reps expected | reps counted | mean abs. error per set |",
            "|---|---|---|---|---|---|---|",
            "| B | 2 | 1 | 2 | 20 | 19 | 0.50 |",
            "| A | 1 | 0 | 0 | 5 | 7 | 2.00 |",
            "| **all** | 3 | 1 | 2 | 25 | 26 | 1.00 |",
        ])
    }

    @Test func rowsWithAnAcceptedRange_addARightColumn() {
        // setup
        let sets = [
            Counted(group: "squat", expectedCount: 4, counted: 5, countIsRight: true),
            Counted(group: "squat", expectedCount: 4, counted: 6, countIsRight: false),
            Counted(group: "dip", expectedCount: 3, counted: 3, countIsRight: true),
        ]
        let headings = EvaluationRow.Headings(
            name: "exercise", sets: "clips", expected: "complete reps", counted: "counted", meanError: "mean abs. error")
        // act
        let table = EvaluationRow.table(EvaluationRow.grouped(sets, by: \.group), headings: headings)
        // verify
        #expect(table.split(separator: "\n").map(String.init) == [
            "| exercise | clips | right | exact | within ±1 | complete reps | counted | mean abs. error |",
            "|---|---|---|---|---|---|---|---|",
            "| squat | 2 | 1 | 0 | 1 | 8 | 11 | 1.50 |",
            "| dip | 1 | 1 | 1 | 1 | 3 | 3 | 0.00 |",
            "| **all** | 3 | 2 | 1 | 2 | 11 | 14 | 1.00 |",
        ])
    }

    @Test func manifest_isReadByColumnName_withQuotedCommas() {
        // setup: columns in an unusual order, a quoted note holding a comma, a blank line and a short record.
        let text = "reps,file,note\n20,sets/a.csv,\"left, then right\"\n\n10,sets/b.csv\n"
        // act
        let records = ManifestCSV.records(text)
        // verify
        #expect(ManifestCSV.header(text) == ["reps", "file", "note"])
        #expect(records == [
            ["reps": "20", "file": "sets/a.csv", "note": "left, then right"],
            ["reps": "10", "file": "sets/b.csv"],
        ])
    }
}
