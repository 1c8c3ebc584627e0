import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
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

    @Test func serverErrorsAreDescribedWithoutTheRequestTheyCameFrom() {
        // setup: what OpenAPIRuntime hands the error middleware when a handler fails
        let token = "ft_" + String(repeating: "T", count: 43)
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/accounts")
        request.headerFields[.authorization] = "Bearer \(token)"
        let error = ServerError(
            operationID: "createAccount", request: request, requestBody: HTTPBody(#"{"password": "hunter2-secret"}"#),
            requestMetadata: .init(), operationInput: ["password": "hunter2-secret"],
            causeDescription: "Unknown", underlyingError: APIProblem.serviceUnavailable("the instance has no default company"))

        // act
        let described = LogRedaction.describe(error)

        // verify
        #expect(described.contains("createAccount"))
        #expect(described.contains("no default company"))
        #expect(!described.contains("hunter2-secret"))
        #expect(!described.contains(token))
    }

    @Test func everyLineIsScrubbedOfCredentialShapedText() {
        // act
        let scrubbed = LogRedaction.scrub(
            #"failed: Authorization: Bearer abc.def X-Forma-Key: fk_0123456789abcdefghijKLMNOP password: "p@ss word" token=ft_0123456789abcdefghijKLMNOP {"passwordConfirmation":"x y"} status=503"#)

        // verify
        for secret in ["abc.def", "fk_0123456789", "p@ss word", "ft_0123456789", "x y"] {
            #expect(!scrubbed.contains(secret), "\(scrubbed)")
        }
        #expect(scrubbed.contains("status=503"))
        #expect(scrubbed.contains("<redacted>"))
    }
}
