import Foundation
import Logging
import Testing

@testable import FormaServer

@Suite("Structured logs")
struct LoggingTests {
    @Test func jsonLinesAreOneParseableObjectWithMetadata() throws {
        // act
        let line = FormaLogHandler.jsonLine(
            label: "forma", level: .warning, message: "request \"quoted\"\nnext",
            metadata: ["status": .stringConvertible(503), "path": .string("/v1/health"), "ids": .array([.string("a")])],
            source: "FormaServer")

        // verify
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["message"] as? String == "request \"quoted\"\nnext")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["status"] as? String == "503")
        #expect(metadata["path"] as? String == "/v1/health")
        #expect(metadata["ids"] as? [String] == ["a"])
        #expect(object["timestamp"] is String)
    }

    @Test func textLinesQuoteValuesWithSpaces() {
        // act
        let line = FormaLogHandler.textLine(
            label: "forma", level: .info, message: "using database",
            metadata: ["database": .string("SQLite at /tmp/x y.sqlite"), "status": .stringConvertible(200)])

        // verify
        #expect(line.hasSuffix("INFO forma: using database database=\"SQLite at /tmp/x y.sqlite\" status=200"))
    }
}
