/// Reads the `manifest.csv` files of the evaluation data sets: a header row naming the columns, then one record per
/// line; a field may be quoted to hold commas. Blank lines are skipped.
enum ManifestCSV {
    /// The column names of the header row (empty for an empty text).
    static func header(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).first.map { fields(String($0)) } ?? []
    }

    /// One dictionary per record, from column name to field; a record shorter than the header lacks the last columns.
    static func records(_ text: String) -> [[String: String]] {
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = fields(lines.removeFirst())
        return lines.map { line in
            Dictionary(zip(header, fields(line)), uniquingKeysWith: { first, _ in first })
        }
    }

    private static func fields(_ line: String) -> [String] {
        var result: [String] = [], current = "", quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                result.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        result.append(current)
        return result
    }
}
