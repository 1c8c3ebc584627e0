import Foundation
import Testing
import Vapor

@testable import FormaServer

/// JSON answers are compact unless a person asks to read them (`?pretty=true`, `FORMA_PRETTY_JSON`).
@Suite("Compact JSON")
struct CompactJSONTests {
    static func isCompact(_ body: Data) -> Bool {
        !body.contains(UInt8(ascii: "\n")) && !String(decoding: body, as: UTF8.self).contains("\": ")
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
}
