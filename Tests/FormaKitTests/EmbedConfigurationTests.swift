import Foundation
import Testing

@testable import FormaKit

@Suite struct EmbedConfigurationTests {
    /// The JSON argument of the generated script, decoded back.
    private func payload(_ script: String) throws -> [String: String] {
        let prefix = "window.postMessage("
        let suffix = ", window.location.origin);"
        #expect(script.hasPrefix(prefix) && script.hasSuffix(suffix))
        let json = script.dropFirst(prefix.count).dropLast(suffix.count)
        return try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    @Test(arguments: ["Child's Pose", #"</script><script>alert("x")</script>"#, "line\nbreak \u{2028} sep", #"back\slash "quote""#])
    func valuesCannotBreakOutOfTheScript(_ hostile: String) throws {
        // setup
        let configuration = EmbedConfiguration(company: hostile, key: "fk_key", userId: hostile, planC: hostile)

        // act
        let script = try configuration.script()

        // verify: the values come back unchanged, and nothing in the source can end the script or the literal
        let decoded = try payload(script)
        #expect(decoded["company"] == hostile && decoded["userId"] == hostile && decoded["planC"] == hostile)
        #expect(!script.contains("</"))
        #expect(!script.contains("\n") && !script.contains("\u{2028}"))
    }

    @Test func optionalFieldsAreLeftOut() throws {
        let script = try EmbedConfiguration.token("ft_abc", company: "Acme").script()
        #expect(try payload(script) == ["company": "Acme", "token": "ft_abc"])
    }

    @Test func embedURLs_nameTheCompany_andEncodeTheirParts() throws {
        let kit = FormaKit(baseURL: URL(string: "https://forma.example.com/base/")!, token: "ft_x", companyName: "Acme & Co+")
        #expect(kit.embedURL(.workout(id: "a/b c")).absoluteString
            == "https://forma.example.com/base/embed/workout/a%2Fb%20c?company=Acme%20%26%20Co%2B")
        #expect(kit.embedURL(.challenge(exercise: "squat", seconds: 60), legacyEvents: true).absoluteString
            == "https://forma.example.com/base/embed/challenge?company=Acme%20%26%20Co%2B&exercise=squat&duration=60&events=2023")
        let replay = URL(string: "http://127.0.0.1:9000/squats.json")!
        let camera = kit.embedURL(.camera(exercise: "squat"), replay: replay)
        let items = URLComponents(url: camera, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "replay" }?.value == replay.absoluteString)
        #expect(kit.embedURL(.home).path == "/base/embed")
    }
}
