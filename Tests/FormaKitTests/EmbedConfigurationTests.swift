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

    /// A light page is asked for in its URL, so it is drawn light from the first frame; dark, the pages' own default,
    /// adds nothing.
    @Test func aLightStyleIsNamedInTheURL_darkIsTheDefault() throws {
        let kit = FormaKit(baseURL: URL(string: "https://forma.example.com/")!, token: "ft_x", companyName: "Acme")
        let light = URLComponents(url: kit.embedURL(.trainer(user: nil), style: .light), resolvingAgainstBaseURL: false)
        let dark = URLComponents(url: kit.embedURL(.trainer(user: nil), style: .dark), resolvingAgainstBaseURL: false)
        #expect(light?.queryItems?.first { $0.name == "style" }?.value == "light")
        #expect(dark?.queryItems?.contains { $0.name == "style" } == false)
        #expect(EmbedStyle.allCases.map(\.rawValue) == ["dark", "light"], "the styles the pages know (style.js)")
    }

    /// The pages' language is asked for in the URL (or the configuration) only when the host names one; without it
    /// the device's languages choose (docs/embed.md, "Languages").
    @Test func aLanguageIsNamedInTheURLAndTheConfiguration_onlyWhenGiven() throws {
        let kit = FormaKit(baseURL: URL(string: "https://forma.example.com/")!, token: "ft_x", companyName: "Acme")
        let german = URLComponents(url: kit.embedURL(.home, style: .light, language: "de-AT"), resolvingAgainstBaseURL: false)
        let device = URLComponents(url: kit.embedURL(.home), resolvingAgainstBaseURL: false)
        #expect(german?.queryItems?.first { $0.name == "language" }?.value == "de-AT")
        #expect(german?.queryItems?.first { $0.name == "style" }?.value == "light")
        #expect(device?.queryItems?.contains { $0.name == "language" } == false)
        let configuration = EmbedConfiguration(company: "Acme", token: "ft_abc", language: "de")
        #expect(try payload(configuration.script()) == ["company": "Acme", "token": "ft_abc", "language": "de"])
    }

    /// The trainer page's URL (what createTrainerChatView loads): the company, and the pre-fill the page sends as the
    /// conversation's start (docs/embed.md); zero, negative and missing values stay out, so the trainer asks them.
    @Test func trainerURL_carriesOnlyTheUsablePreFill() throws {
        let kit = FormaKit(baseURL: URL(string: "https://forma.example.com")!, token: "ft_x", companyName: "Acme")
        func items(_ page: EmbedPage) -> [String: String] {
            let components = URLComponents(url: kit.embedURL(page), resolvingAgainstBaseURL: false)
            return Dictionary(uniqueKeysWithValues: (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        }
        let full = UserDetails(age: 32, height: 178, weight: 76.5, gender: .male)
        #expect(kit.embedURL(.trainer(user: full)).absoluteString
            == "https://forma.example.com/embed/trainer?company=Acme&age=32&heightCm=178&weightKg=76.5&gender=male")
        #expect(items(.trainer(user: UserDetails(age: 0, height: 0, weight: -3, gender: .female)))
            == ["company": "Acme", "gender": "female"])
        #expect(items(.trainer(user: UserDetails(height: .nan, weight: .infinity))) == ["company": "Acme"])
        #expect(items(.trainer()) == ["company": "Acme"])
        #expect(kit.embedURL(.trainer(user: nil), legacyEvents: true).absoluteString
            == "https://forma.example.com/embed/trainer?company=Acme&events=2023")
    }

    /// What the trainer page sends when the person picks the next session, in seed 002's shape (the field beside
    /// `type`) and inside `data`, and its exit request.
    @Test func trainerEvents_decodeToTheirCases() throws {
        #expect(try FormaEvent(message: #"{"type":"trainer_schedule_next_workout","scheduledFor":"2026-11-27T18:00"}"#)
            == .trainerScheduleNextWorkout(scheduledFor: "2026-11-27T18:00"))
        #expect(try FormaEvent(message: #"{"type":"trainer_schedule_next_workout","data":{"scheduledFor":"2026-11-27T07:00"}}"#)
            == .trainerScheduleNextWorkout(scheduledFor: "2026-11-27T07:00"))
        #expect(try FormaEvent(message: #"{"type":"workout_exit_request","data":{"workoutId":"w1"}}"#) == .workoutExitRequest)
        let missing = try FormaEvent(message: #"{"type":"trainer_schedule_next_workout"}"#)
        guard case .unknown(let type, _) = missing else { Issue.record("\(missing)"); return }
        #expect(type == "trainer_schedule_next_workout")
    }
}
