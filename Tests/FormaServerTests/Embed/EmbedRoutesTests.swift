import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The embed page's shell and files: what a browser receives, and the policy that decides who may frame it and
/// what it may load.
@Suite("Embed pages")
struct EmbedRoutesTests {
    private func settings(_ reply: APIClient.Reply) throws -> [String: Any] {
        let html = reply.text
        let start = try #require(html.range(of: "data-forma=\"")).upperBound
        let end = try #require(html[start...].firstIndex(of: "\""))
        let attribute = String(html[start..<end])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try #require(JSONSerialization.jsonObject(with: Data(attribute.utf8)) as? [String: Any])
    }

    private func policy(_ reply: APIClient.Reply) -> [String: String] {
        let header = reply.headers.first(name: "Content-Security-Policy") ?? ""
        var directives: [String: String] = [:]
        for part in header.split(separator: ";") {
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            if let name = words.first { directives[String(name)] = words.count > 1 ? String(words[1]) : "" }
        }
        return directives
    }

    @Test func everyViewIsTheShell_framedOnlyByTheCompanysOrigins() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            _ = try await api.createCompany("Acme", origins: ["https://app.acme.example"])

            // act
            let workout = try await api.get("/embed/workout/abc?company=acme")
            let home = try await api.get("/embed/?company=Acme")

            // verify
            for reply in [workout, home] {
                #expect(reply.status == .ok)
                #expect(reply.headers.contentType?.subType == "html")
                #expect(reply.text.contains(#"<script type="module" src="/embed/assets/app.js"></script>"#))
                #expect(policy(reply)["frame-ancestors"] == "'self' https://app.acme.example")
                #expect(policy(reply)["script-src"]?.contains("'unsafe-inline'") == false)
                #expect(policy(reply)["default-src"] == "'none'")
                let page = try settings(reply)
                #expect(page["company"] as? String == "Acme")
                #expect(page["allowedOrigins"] as? [String] == ["https://app.acme.example"])
            }
        }
    }

    @Test func aCompanysPagesCarryItsAccentColourAndLogo_andOnlyItsOwn() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await api.createCompany("Acme")
            _ = try await api.createCompany("Globex")
            _ = try await api.send(.PUT, "/v1/company/branding", headers: Auth.key(acme), json: ["accentColor": "#FF6A13"])
            let logo = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(acme), raw: Fixture.data("avatar-6x4.png"),
                contentType: "image/png")
            let tag = try #require(logo.json(CompanyBrandingTests.Branding.self).logo?.etag)

            // act
            let acmePage = try settings(try await api.get("/embed/goals?company=acme"))
            let globexPage = try settings(try await api.get("/embed/goals?company=Globex"))
            let bare = try settings(try await api.get("/embed/goals"))

            // verify
            let branding = try #require(acmePage["branding"] as? [String: Any])
            #expect(branding["accentColor"] as? String == "#ff6a13")
            let logoURL = try #require(branding["logo"] as? String)
            #expect(logoURL == "/embed/logo/Acme?v=" + tag.replacingOccurrences(of: "\"", with: ""),
                "the address changes with the logo, so a new logo is never hidden by a cached one")
            #expect(try await api.get(logoURL).status == .ok)
            let other = try #require(globexPage["branding"] as? [String: Any])
            #expect(other["accentColor"] == nil && other["logo"] == nil)
            #expect(bare["branding"] == nil)
        }
    }

    @Test func withoutACompany_thePageCannotBeFramed_andAnUnknownOneIsShownAsAProblem() async throws {
        try await withFormaApp { app in
            // act
            let bare = try await APIClient(app: app).get("/embed/camera")
            let unknown = try await APIClient(app: app).get("/embed/?company=Nobody")

            // verify
            #expect(policy(bare)["frame-ancestors"] == "'none'")
            #expect(try settings(bare)["problem"] == nil)
            #expect(try settings(unknown)["problem"] as? String == "company: no company named 'Nobody'")
        }
    }

    @Test func aReplayURL_fromAnAllowedOrigin_isTheOnlyForeignOriginAddedToConnections_whenReplayIsEnabled() async throws {
        try await withFormaApp(adjust: { $0.embed.replayEnabled = true }) { app in
            // setup
            _ = try await APIClient(app: app).createCompany("Acme", origins: ["http://127.0.0.1:9000"])

            // act
            let replay = try await APIClient(app: app).get(
                "/embed/workout/x?company=Acme&replay=http%3A%2F%2F127.0.0.1%3A9000%2Fsquats.json")
            let foreign = try await APIClient(app: app).get(
                "/embed/workout/x?company=Acme&replay=https%3A%2F%2Fevil.example%2Fsquats.json")
            let noCompany = try await APIClient(app: app).get(
                "/embed/workout/x?replay=http%3A%2F%2F127.0.0.1%3A9000%2Fsquats.json")
            let bad = try await APIClient(app: app).get("/embed/workout/x?company=Acme&replay=javascript%3Aalert(1)")

            // verify
            let connect = policy(replay)["connect-src"] ?? ""
            #expect(connect.hasPrefix("'self' "))
            #expect(connect.hasSuffix(" http://127.0.0.1:9000"))
            #expect(connect.contains("https://cdn.jsdelivr.net") && connect.contains("https://storage.googleapis.com"))
            #expect(try settings(replay)["problem"] == nil)
            #expect(try settings(foreign)["problem"] as? String
                == "replay: https://evil.example is not one of Acme's allowed origins")
            #expect(policy(foreign)["connect-src"]?.contains("evil.example") == false)
            #expect(try settings(noCompany)["problem"] as? String
                == "replay: name the company (?company=) whose allowed origins serve the recording")
            #expect(policy(noCompany)["connect-src"]?.contains("9000") == false)
            #expect(try settings(bad)["problem"] as? String == "replay: 'javascript:alert(1)' is not an http or https URL")
            #expect(policy(bad)["connect-src"]?.contains("javascript") == false)
        }
    }

    @Test func replay_isOffUnlessTheDeploymentEnablesIt() async throws {
        try await withFormaApp { app in
            // setup: the recording's host is even one of the company's origins
            _ = try await APIClient(app: app).createCompany("Acme", origins: ["http://127.0.0.1:9000"])

            // act
            let reply = try await APIClient(app: app).get(
                "/embed/camera?company=Acme&replay=http%3A%2F%2F127.0.0.1%3A9000%2Fsquats.json")

            // verify: refused, and nothing added to the page's connections
            #expect(try settings(reply)["problem"] as? String == "replay: replaying a recording is not enabled on this server")
            #expect(policy(reply)["connect-src"]?.contains("127.0.0.1:9000") == false)
            #expect(ServerConfiguration.variables.contains { $0.name == "FORMA_EMBED_REPLAY" })
            #expect(try ServerConfiguration.fromEnvironment([:]).embed.replayEnabled == false)
            #expect(try ServerConfiguration.fromEnvironment(["FORMA_EMBED_REPLAY": "on"]).embed.replayEnabled)
            #expect(throws: ConfigurationError.self) { try ServerConfiguration.fromEnvironment(["FORMA_EMBED_REPLAY": "maybe"]) }
        }
    }

    @Test func mediaPipeURLs_comeFromTheConfiguration() async throws {
        try await withFormaApp(adjust: {
            $0.embed = EmbedSettings(
                mediaPipeScriptURL: "https://cdn.acme.example/mp/vision_bundle.mjs",
                mediaPipeWasmURL: "https://cdn.acme.example/mp/wasm",
                mediaPipeModelURL: "https://models.acme.example/pose.task")
        }) { app in
            // act
            let reply = try await APIClient(app: app).get("/embed/")

            // verify
            let mediaPipe = try #require(try settings(reply)["mediaPipe"] as? [String: String])
            #expect(mediaPipe == [
                "script": "https://cdn.acme.example/mp/vision_bundle.mjs",
                "wasm": "https://cdn.acme.example/mp/wasm",
                "model": "https://models.acme.example/pose.task",
            ])
            #expect(policy(reply)["script-src"] == "'self' 'wasm-unsafe-eval' https://cdn.acme.example https://models.acme.example")
            #expect(policy(reply)["connect-src"]?.contains("jsdelivr") == false)
        }
    }

    @Test func configuration_refusesAMediaPipeURLThatIsNotHTTP() {
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.fromEnvironment(["FORMA_MEDIAPIPE_MODEL_URL": "file:///etc/passwd"])
        }
    }

    @Test func assets_areServedWithTheirTypeAndRevalidated() async throws {
        try await withFormaApp { app in
            // act
            let script = try await APIClient(app: app).get("/embed/assets/app.js")
            let etag = try #require(script.headers.first(name: .eTag))
            let again = try await APIClient(app: app).get("/embed/assets/app.js", headers: [("If-None-Match", etag)])
            let style = try await APIClient(app: app).get("/embed/assets/forma.css")
            let missing = try await APIClient(app: app).get("/embed/assets/..%2FPackage.swift")

            // verify
            #expect(script.status == .ok && script.headers.contentType?.subType == "javascript")
            #expect(script.text.contains("kinestex_launched"))
            #expect(again.status == .notModified && again.body.isEmpty)
            #expect(style.headers.contentType?.subType == "css")
            #expect(missing.status == .notFound)
        }
    }

    @Test func textInTheShell_isEscaped() {
        #expect(EmbedRoutes.escapeAttribute(#"{"a":"</script><b>'&"}"#)
            == "{&quot;a&quot;:&quot;&lt;/script&gt;&lt;b&gt;&#39;&amp;&quot;}")
    }
}
