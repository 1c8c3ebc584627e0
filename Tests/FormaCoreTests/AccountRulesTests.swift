import Foundation
import Testing

@testable import FormaCore

@Suite("Email addresses")
struct EmailAddressTests {
    @Test(arguments: ["ada@example.com", "Ada.Lovelace+forma@Mail.Example.co.uk", "  x_y@sub-domain.example.org  "])
    func acceptsRealAddresses(_ raw: String) throws {
        let email = try EmailAddress.parse(raw).get()
        #expect(email.value == email.value.lowercased())
        #expect(!email.value.hasPrefix(" "))
    }

    @Test(arguments: [
        ("", "is required"),
        ("ada", "must contain exactly one @, as in name@example.com"),
        ("ada@@example.com", "must contain exactly one @, as in name@example.com"),
        ("@example.com", "needs a name of 1 to 64 characters before the @"),
        ("ada@localhost", "needs a domain such as example.com after the @"),
        ("ada@exa_mple.com", "has a domain after the @ that is not valid"),
        ("a da@example.com", "has characters before the @ that an email address cannot contain"),
        ("ada@example.c0m", "has a domain after the @ that is not valid"),
    ])
    func explainsWhatIsWrong(_ raw: String, _ message: String) {
        #expect(EmailAddress.parse(raw) == .failure(FieldIssue(field: "email", message: message)))
    }
}

@Suite("Password policy")
struct PasswordPolicyTests {
    @Test func acceptsLongPassphrasesWithoutCompositionRules() {
        #expect(PasswordPolicy.standard.issues(password: "correct horse battery", email: nil).isEmpty)
        #expect(PasswordPolicy.standard.issues(password: "ünïcödé pässwörd", email: nil).isEmpty)
    }

    @Test func namesEachBrokenRule() throws {
        let email = try EmailAddress.parse("lovelace@example.com").get()
        #expect(PasswordPolicy.standard.issues(password: "short", email: nil).map(\.message) == ["must be at least 8 characters"])
        #expect(PasswordPolicy.standard.issues(password: "Password123", email: nil).map(\.message)
            == ["is one of the most common passwords; choose another"])
        #expect(PasswordPolicy.standard.issues(password: "aaaaaaaaaa", email: nil).map(\.message) == ["must not repeat a single character"])
        #expect(PasswordPolicy.standard.issues(password: "my lovelace pass", email: email).map(\.message) == ["must not contain your email address"])
        #expect(PasswordPolicy.standard.issues(password: String(repeating: "éü", count: 20), email: nil).map(\.message)
            == ["must be at most 72 bytes long"])
    }
}

@Suite("Web origins")
struct WebOriginTests {
    @Test(arguments: [
        ("https://app.example.com", "https://app.example.com"),
        ("HTTPS://App.Example.com:443/", "https://app.example.com"),
        ("http://localhost:3000", "http://localhost:3000"),
        ("http://127.0.0.1:80", "http://127.0.0.1"),
    ])
    func normalises(_ raw: String, _ expected: String) throws {
        #expect(try WebOrigin.parse(raw).get().value == expected)
    }

    @Test(arguments: ["*", "https://*.example.com", "ftp://example.com", "https://example.com/app", "https://user@example.com",
                      "https://example.com:99999", "example.com", "https://"])
    func refusesAnythingButAnExactOrigin(_ raw: String) {
        #expect(throws: FieldIssue.self) { try WebOrigin.parse(raw).get() }
    }
}

@Suite("Profile fields")
struct ProfileFieldsTests {
    @Test func boundsAreInclusiveAndNamed() throws {
        #expect(ProfileFields.age(5) == nil && ProfileFields.age(120) == nil)
        #expect(ProfileFields.age(4)?.field == "age")
        #expect(ProfileFields.heightCentimetres(.nan)?.field == "heightCm")
        #expect(ProfileFields.weightKilograms(.infinity)?.field == "weightKg")
        #expect(try ProfileFields.lifestyle("Very-Active").get() == .veryActive)
        #expect(try ProfileFields.timeZone("America/New_York").get() == "America/New_York")
        #expect(throws: FieldIssue.self) { try ProfileFields.timeZone("Nowhere/Land").get() }
        #expect(throws: FieldIssue.self) { try ProfileFields.displayName("bell\u{7}").get() }
    }
}

@Suite("Time zones")
struct TimeZoneRuleTests {
    /// A profile and a reminder follow one rule: a zone one takes the other takes, and both refuse the same.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "UTC", "GMT+2", "CEST", "Etc/GMT-2x", "Nowhere/Land", "europe/berlin"])
    func profilesAndRemindersAgree(_ identifier: String) {
        let profile = try? ProfileFields.timeZone(identifier).get()
        let reminder = ReminderRules.zone(identifier)
        #expect(profile == reminder?.identifier)
    }

    @Test func ianaZonesAreTakenAndAbbreviationsAndFixedOffsetsRefused() throws {
        #expect(try ProfileFields.timeZone("Europe/Berlin").get() == "Europe/Berlin")
        #expect(ReminderRules.zone("Europe/Berlin")?.identifier == "Europe/Berlin")
        for refused in ["GMT+2", "CEST"] {
            #expect(throws: FieldIssue.self) { try ProfileFields.timeZone(refused).get() }
            #expect(ReminderRules.zone(refused) == nil)
        }
    }
}
