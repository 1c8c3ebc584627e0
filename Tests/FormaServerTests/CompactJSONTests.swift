import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import Vapor

@testable import FormaServer

/// JSON answers are compact unless a person asks to read them (`?pretty=true`, `FORMA_PRETTY_JSON`).
@Suite("Compact JSON")
struct CompactJSONTests {
    static func isCompact(_ body: Data) -> Bool {
        !body.contains(UInt8(ascii: "\n")) && !String(decoding: body, as: UTF8.self).contains("\" : ")
    }

    static func sameJSON(_ left: Data, _ right: Data) throws -> Bool {
        let a = try JSONSerialization.jsonObject(with: left) as? NSObject
        let b = try JSONSerialization.jsonObject(with: right) as? NSObject
        return a != nil && a == b
    }

    @Test func answers_areCompactByDefault() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            // act: a catalogue read, an authenticated read, a problem document
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            let exercise = try await client.get("/v1/exercises/Barbell_Squat")
            let me = try await client.get("/v1/me", headers: Auth.bearer(grant.token))
            let problem = try await client.get("/v1/exercises?muscle=wings")

            // verify
            #expect(exercise.status == .ok)
            #expect(Self.isCompact(exercise.body), "\(exercise.text)")
            #expect(me.status == .ok)
            #expect(Self.isCompact(me.body), "\(me.text)")
            #expect(problem.status == .badRequest)
            #expect(Self.isCompact(problem.body), "\(problem.text)")
        }
    }

    @Test func prettyQuery_indentsTheSameJSON() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            // setup
            let compact = try await client.get("/v1/exercises?q=curl")
            let tag = try #require(compact.headers.first(name: .eTag))

            // act
            let pretty = try await client.get("/v1/exercises?q=curl&pretty=true")
            let prettyProblem = try await client.get("/v1/exercises?muscle=wings&pretty=true")

            // verify: indented, the same document, and a weak tag (same JSON, other bytes)
            #expect(pretty.status == .ok)
            #expect(pretty.text.contains("\n  \"items\" : ["))
            #expect(try Self.sameJSON(pretty.body, compact.body))
            #expect(pretty.headers.first(name: .eTag) == "W/" + tag)
            #expect(prettyProblem.text.contains("\n  \"status\" : 400"))
        }
    }

    @Test func debugSetting_indentsEveryAnswer() async throws {
        try await withFormaApp(adjust: { $0.prettyJSON = true }) { app in
            // act
            let facets = try await APIClient(app: app).get("/v1/catalog/facets")

            // verify
            #expect(facets.status == .ok)
            #expect(facets.text.contains("\n  \"categories\" : ["))
        }
    }

    @Test func indentation_leavesStringsAndNumbersAlone() throws {
        // setup: punctuation and escaped quotes inside strings, empty containers, a number with an exponent
        let compact = #"{"a":"x,{\"y\"}:[1]","b":[],"c":{},"d":[1.5e-7,{"e":null}]}"#

        // act
        let indented = String(decoding: JSONIndentation.indent(Array(compact.utf8)), as: UTF8.self)

        // verify
        #expect(indented == """
            {
              "a" : "x,{\\"y\\"}:[1]",
              "b" : [],
              "c" : {},
              "d" : [
                1.5e-7,
                {
                  "e" : null
                }
              ]
            }
            """)
        #expect(try Self.sameJSON(Data(indented.utf8), Data(compact.utf8)))
    }

    @Test func answerOverTheLimit_goesOutCompactAndUntouched() async throws {
        // setup: a JSON answer of known length with a strong tag, asked for pretty
        let json = #"{"a":[1,2,3],"b":"text"}"#
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        response.headerFields[.eTag] = "\"t\""
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/v1/x?pretty=true")
        let answer = response
        func send(limit: Int) async throws -> (HTTPResponse, String) {
            let (answer, body) = try await PrettyJSONMiddleware(always: false, maximumBytes: limit).intercept(
                request, body: nil, metadata: .init(), operationID: "x"
            ) { _, _, _ in (answer, HTTPBody(json)) }
            let bytes = try await [UInt8](collecting: try #require(body), upTo: 1024)
            return (answer, String(decoding: bytes, as: UTF8.self))
        }

        // act
        let (small, smallBody) = try await send(limit: json.utf8.count - 1)
        let (large, largeBody) = try await send(limit: json.utf8.count)

        // verify: past the limit the answer is the compact one, strong tag and all; within it, indented
        #expect(smallBody == json)
        #expect(small.headerFields[.eTag] == "\"t\"")
        #expect(largeBody.contains("\n  \"a\" : ["))
        #expect(large.headerFields[.eTag] == "W/\"t\"")
    }
}
