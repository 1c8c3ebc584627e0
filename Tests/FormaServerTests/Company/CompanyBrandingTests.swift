import Foundation
import Testing
import Vapor

@testable import FormaServer

/// A company's accent colour and logo: what its operators set through the company API and what every embedded page
/// of that company, and only that company, then shows.
@Suite("Company branding")
struct CompanyBrandingTests {
    struct Branding: Decodable {
        struct Logo: Decodable {
            let url: String
            let contentType: String
            let byteCount: Int
            let width: Int
            let height: Int
            let etag: String
        }
        let accentColor: String?
        let logo: Logo?
    }

    @Test func anAccentColourIsSetNormalisedAndRemovedByLeavingItOut() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")

            // act
            let before = try await api.get("/v1/company/branding", headers: Auth.key(key))
            let set = try await api.send(.PUT, "/v1/company/branding", headers: Auth.key(key), json: ["accentColor": "#FF6A13"])
            let read = try await api.get("/v1/company/branding", headers: Auth.key(key))
            let cleared = try await api.send(.PUT, "/v1/company/branding", headers: Auth.key(key), json: [String: String]())

            // verify
            #expect(before.status == .ok)
            #expect(try before.json(Branding.self).accentColor == nil)
            #expect(set.status == .ok)
            #expect(try set.json(Branding.self).accentColor == "#ff6a13")
            #expect(try read.json(Branding.self).accentColor == "#ff6a13")
            #expect(try cleared.json(Branding.self).accentColor == nil)
        }
    }

    @Test(arguments: ["ff6a13", "#ff6a1", "#ff6a13a", "#gg6a13", "red", "#FF6A1３", ""])
    func aColourNotWrittenRRGGBBIsRefusedNamingTheField(_ colour: String) async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            _ = try await api.send(.PUT, "/v1/company/branding", headers: Auth.key(key), json: ["accentColor": "#102030"])

            // act
            let reply = try await api.send(.PUT, "/v1/company/branding", headers: Auth.key(key), json: ["accentColor": colour])

            // verify
            #expect(reply.status == .unprocessableEntity)
            #expect(try reply.problem().errors?.map(\.field) == ["accentColor"])
            let kept = try await api.get("/v1/company/branding", headers: Auth.key(key))
            #expect(try kept.json(Branding.self).accentColor == "#102030", "a refused change leaves the colour as it was")
        }
    }

    @Test func aLogoIsJudgedByItsBytes_servedWithItsTag_andRemoved() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme Fitness")
            let png = try Fixture.data("avatar-6x4.png")

            // act
            let gif = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(key), raw: Fixture.data("avatar-6x4.gif"),
                contentType: "image/png")
            let tooWide = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(key), raw: Fixture.data("too-wide-4097x2.png"),
                contentType: "image/png")
            let cut = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(key), raw: png.prefix(png.count - 6),
                contentType: "image/png")
            let tooBig = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(key),
                raw: Data(count: CompanyBrandingService.maximumLogoBytes + 1), contentType: "image/png")
            let set = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(key), raw: png, contentType: "application/octet-stream")
            let branding = try set.json(Branding.self)
            let logo = try #require(branding.logo)
            let served = try await api.get(logo.url)
            let revalidated = try await api.get(logo.url, headers: [("If-None-Match", logo.etag)])
            let anyCase = try await api.get("/embed/logo/ACME%20FITNESS")
            let removed = try await api.send(.DELETE, "/v1/company/branding/logo", headers: Auth.key(key))
            let removedAgain = try await api.send(.DELETE, "/v1/company/branding/logo", headers: Auth.key(key))
            let gone = try await api.get(logo.url)

            // verify
            #expect(gif.status == .unsupportedMediaType)
            #expect(tooWide.status == .unprocessableEntity)
            #expect(try tooWide.problem().errors?.map(\.field) == ["body"])
            #expect(cut.status == .unprocessableEntity)
            #expect(tooBig.status == .payloadTooLarge)
            #expect(set.status == .ok)
            #expect(logo.url == "/embed/logo/Acme%20Fitness")
            #expect(logo.contentType == "image/png" && logo.width == 6 && logo.height == 4 && logo.byteCount == png.count)
            #expect(served.status == .ok && served.body == png)
            #expect(served.headers.first(name: .contentType) == "image/png")
            #expect(served.headers.first(name: .eTag) == logo.etag)
            #expect(revalidated.status == .notModified && revalidated.body.isEmpty)
            #expect(anyCase.status == .ok)
            #expect(removed.status == .noContent && removedAgain.status == .noContent)
            #expect(gone.status == .notFound)
        }
    }

    @Test func eachCompanySeesAndChangesOnlyItsOwnBranding() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let acme = try await api.createCompany("Acme")
            let globex = try await api.createCompany("Globex")
            _ = try await api.send(.PUT, "/v1/company/branding", headers: Auth.key(acme), json: ["accentColor": "#aa0000"])
            _ = try await api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(acme), raw: Fixture.data("avatar-6x4.png"),
                contentType: "image/png")

            // act
            let globexView = try await api.get("/v1/company/branding", headers: Auth.key(globex))
            _ = try await api.send(.DELETE, "/v1/company/branding/logo", headers: Auth.key(globex))
            let acmeView = try await api.get("/v1/company/branding", headers: Auth.key(acme))
            let person = try await api.sessionToken(key: acme, userId: "alice").token
            let asPerson = try await api.get("/v1/company/branding", headers: Auth.bearer(person))
            let globexLogo = try await api.get("/embed/logo/Globex")

            // verify
            let foreign = try globexView.json(Branding.self)
            #expect(foreign.accentColor == nil && foreign.logo == nil)
            let own = try acmeView.json(Branding.self)
            #expect(own.accentColor == "#aa0000" && own.logo != nil, "another company's removal left Acme's logo")
            #expect(asPerson.status == .unauthorized, "a person's token cannot change the company's look")
            #expect(globexLogo.status == .notFound)
        }
    }

    @Test func concurrentFirstChangesMakeOneBrandingAndLoseNeither() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let png = try Fixture.data("avatar-6x4.png")

            // act: the colour and the logo are set at once on a company that has no branding row yet
            async let colour = api.send(.PUT, "/v1/company/branding", headers: Auth.key(key), json: ["accentColor": "#00aa00"])
            async let logo = api.send(
                .PUT, "/v1/company/branding/logo", headers: Auth.key(key), raw: png, contentType: "image/png")
            let (colourReply, logoReply) = try await (colour, logo)

            // verify
            #expect(colourReply.status == .ok && logoReply.status == .ok)
            let read = try await api.get("/v1/company/branding", headers: Auth.key(key)).json(Branding.self)
            #expect(read.accentColor == "#00aa00")
            #expect(read.logo?.byteCount == png.count)
            let rows = try await CompanyBrandingModel.query(on: app.db).count()
            #expect(rows == 1)
        }
    }
}
