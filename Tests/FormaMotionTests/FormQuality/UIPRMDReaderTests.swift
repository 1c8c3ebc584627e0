import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@Suite struct UIPRMDReaderTests {
    @Test func parse_readsEveryFrameAndJointOfTheExcerpt() throws {
        // setup
        let text = UIPRMDExcerpt.positions

        // act
        let table = try UIPRMDTextReader.parse(text, source: "m01_s01_e01_positions.txt")

        // verify
        #expect(table.frames.count == 3)
        #expect(table.frames.allSatisfy { $0.count == 22 })
        #expect(table[0, .waist] == Vector3(x: -3.502800, y: 85.597550, z: -235.881530))
        #expect(table[2, .rightToes] == Vector3(x: 0.000000, y: 0.000010, z: 12.030300))
    }

    @Test func parse_acceptsCarriageReturnsBlankLinesAndSpaces() throws {
        // setup
        let row = (0..<66).map { " \(Double($0) / 2) " }.joined(separator: ",")
        let text = "\r\n" + row + "\r\n\n  \n" + row + "\r\n"

        // act
        let table = try UIPRMDTextReader.parse(text, source: "spaced.txt")

        // verify
        #expect(table.frames.count == 2)
        #expect(table[1, .rightToes] == Vector3(x: 31.5, y: 32, z: 32.5))
    }

    @Test func parse_rejectsAnEmptyFile() {
        // setup
        let text = "\n  \n"

        // act
        let error = #expect(throws: UIPRMDFormatError.self) { try UIPRMDTextReader.parse(text, source: "empty.txt") }

        // verify
        #expect(error == .empty(source: "empty.txt"))
        #expect(error?.description.contains("no data rows") == true)
    }

    @Test func parse_rejectsARowWithTheWrongNumberOfValuesNamingTheLine() {
        // setup
        let good = (0..<66).map { _ in "1.0" }.joined(separator: ",")
        let short = (0..<65).map { _ in "1.0" }.joined(separator: ",")

        // act
        let error = #expect(throws: UIPRMDFormatError.self) {
            try UIPRMDTextReader.parse(good + "\n" + short + "\n", source: "short.txt")
        }

        // verify
        #expect(error == .wrongColumnCount(source: "short.txt", line: 2, found: 65))
        #expect(error?.description == "short.txt, line 2: 65 values, expected 66 (22 joints × 3, comma-separated)")
    }

    @Test func parse_rejectsNaNAndInfinityNamingLineAndColumn() {
        // setup
        var fields = (0..<66).map { _ in "0.5" }
        fields[4] = "NaN"
        let withNaN = fields.joined(separator: ",")
        fields[4] = "0.5"
        fields[65] = "inf"
        let withInfinity = fields.joined(separator: ",")

        // act
        let nanError = #expect(throws: UIPRMDFormatError.self) {
            try UIPRMDTextReader.parse(withNaN, source: "nan.txt")
        }
        let infinityError = #expect(throws: UIPRMDFormatError.self) {
            try UIPRMDTextReader.parse(withInfinity, source: "inf.txt")
        }

        // verify
        #expect(nanError == .nonFinite(source: "nan.txt", line: 1, column: 5))
        #expect(infinityError == .nonFinite(source: "inf.txt", line: 1, column: 66))
        #expect(nanError?.description.contains("line 1, column 5") == true)
    }

    @Test func parse_rejectsTextThatIsNotANumber() {
        // setup
        var fields = (0..<66).map { _ in "0.5" }
        fields[10] = "1.2.3"
        fields[11] = ""

        // act
        let error = #expect(throws: UIPRMDFormatError.self) {
            try UIPRMDTextReader.parse(fields.joined(separator: ","), source: "bad.txt")
        }

        // verify
        #expect(error == .notANumber(source: "bad.txt", line: 1, column: 11, text: "1.2.3"))
        #expect(error?.description == "bad.txt, line 1, column 11: \"1.2.3\" is not a number")
    }

    @Test func parse_rejectsAnEmptyField() {
        // setup
        var fields = (0..<66).map { _ in "0.5" }
        fields[0] = "  "

        // act
        let error = #expect(throws: UIPRMDFormatError.self) {
            try UIPRMDTextReader.parse(fields.joined(separator: ","), source: "gap.txt")
        }

        // verify
        #expect(error == .notANumber(source: "gap.txt", line: 1, column: 1, text: ""))
    }

    @Test func fileName_parsesCorrectAndIncorrectNamesAndRoundTrips() throws {
        // setup
        let names = ["m01_s02_e03_positions.txt.gz", "m10_s10_e10_angles_inc.txt.gz", "m07_s01_e01_angles.txt"]

        // act
        let parsed = names.map(UIPRMDFileName.init)

        // verify
        let first = try #require(parsed[0])
        #expect(first.movement == .deepSquat && first.subject == 2 && first.episode == 3)
        #expect(first.kind == .positions && first.isCorrect && first.isCompressed)
        #expect(first.partnerName == "m01_s02_e03_angles.txt.gz")
        let second = try #require(parsed[1])
        #expect(second.movement == .standingShoulderScaption && !second.isCorrect && second.kind == .angles)
        #expect(second.partnerName == "m10_s10_e10_positions_inc.txt.gz")
        #expect(parsed.compactMap { $0?.name } == names)
        #expect(UIPRMDFileName("m11_s01_e01_positions.txt") == nil)
        #expect(UIPRMDFileName("m01_s01_e01_velocities.txt") == nil)
        #expect(UIPRMDFileName("notes.txt") == nil)
    }
}

@Suite struct GzipInflaterTests {
    private func bytes(_ base64: String) throws -> [UInt8] {
        [UInt8](try #require(Data(base64Encoded: base64)))
    }

    @Test func decompress_readsFixedHuffmanStoredAndNamedMembers() throws {
        // setup
        let fixed = try bytes("H4sIAAAAAAACA8tIzcnJV8hAItPyi3ITuQDElmRUGAAAAA==")
        let stored = try bytes("H4sIAAAAAAAEAwEXAOj/c3RvcmVkIGJsb2NrIGZvciBGb3JtYQp+h+2mFwAAAA==")
        let named = try bytes("H4sICAAAAAAC/20wMV9zMDFfZTAxX3Bvc2l0aW9ucy50eHQAy0vMTU1RyE3NTUot4gIA59L07Q0AAAA=")

        // act
        let texts = try [fixed, stored, named].map { String(decoding: try GzipInflater.decompress($0), as: UTF8.self) }

        // verify
        #expect(texts == ["hello hello hello forma\n", "stored block for Forma\n", "named member\n"])
    }

    @Test func decompress_readsDynamicHuffmanBlocksOfRealData() throws {
        // setup: the excerpt's positions text compressed by `gzip -9` (dynamic Huffman codes, back-references)
        let compressed = try bytes(Self.excerptGzip)

        // act
        let text = String(decoding: try GzipInflater.decompress(compressed), as: UTF8.self)

        // verify
        #expect(text == UIPRMDExcerpt.positions + "\n")
    }

    @Test func decompress_concatenatesMembers() throws {
        // setup
        let member = try bytes("H4sIAAAAAAACA8tIzcnJV8hAItPyi3ITuQDElmRUGAAAAA==")

        // act
        let output = try GzipInflater.decompress(member + member)

        // verify
        #expect(String(decoding: output, as: UTF8.self) == "hello hello hello forma\nhello hello hello forma\n")
    }

    @Test func decompress_rejectsCorruptAndTruncatedData() throws {
        // setup
        let member = try bytes("H4sIAAAAAAACA8tIzcnJV8hAItPyi3ITuQDElmRUGAAAAA==")
        var corruptChecksum = member
        corruptChecksum[member.count - 8] ^= 0xff

        // act & verify
        #expect(throws: GzipInflater.Failure.notGzip) { try GzipInflater.decompress(Array("plain text".utf8)) }
        #expect(throws: GzipInflater.Failure.checksumMismatch) { try GzipInflater.decompress(corruptChecksum) }
        #expect(throws: GzipInflater.Failure.truncated) { try GzipInflater.decompress(Array(member.prefix(20))) }
    }

    static let excerptGzip = """
        H4sIAAAAAAACA5XVWXKDMAwA0P+eJWi0L/e/WMXShAbUTPPlwdha/HAWAUNOxEcaWIUZPhYWg0wy6TEC9o/wwQGJrD3aH/HPoNcy\
        ArMr3s0huIXEc6vznEFhvJadB6SgVMXPdZ0YAZdn7Y84Vbf3o6h3JwIPRP3Zgs7pGRBK+jWHHrBDOQpeFvZgIUjyo2YylVPAhRzE\
        Peou+27hmqHjuYOvWaquROJXqH3U+Xv3vmqf674lPvqMurQ8v90nVK7d8ru2LtrnkYlxl9pzj+5waWwd9k4Hj83MiuQSc91VHMgl\
        7D6mJGQXJbezr6AMIt79+1oEND1pk+fk6/ubvC6d9E1eVLd6lMeWk7xcSxjkeeUgT8pP+A95az/e5CX7Ls/b5SAPUygneZLlOspr\
        6m/yku2Q17vivTxuGY7xh7wIH+V1JducYvIoT415lCdSv2J+kpeBfMhLw1FesNcsr6r8ozym6kZu8tQ6y02eO9Mmz/tzY73IS6bx\
        zhNjGuUlT/LIkiZ5EkXv8igudx6vplZ5amXTndff2SDPQJ3KJ3kcccjbctgD+i5vPXsd5fXV4aO8vmQpRnlxhDKlWZ4RyyhPQzz/\
        IS+o5JCH6ydxL0+QC0d5pV78UV7/v3TxX9+7l4CLbgcAAA==
        """
}
