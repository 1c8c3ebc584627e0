import Crypto
import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Points: top-up tokens")
struct TopUpAPITests {
    /// Claims for `user` of `companyID`, valid for an hour on the test clock.
    static func claims(_ companyID: String, user: String = "ada", points: Int = 500, jti: String = "pay-1")
        -> TopUpSigner.Claims
    {
        .init(jti: jti, sub: user, points: points, exp: Int(TestClock().now.timeIntervalSince1970) + 3_600, aud: companyID)
    }

    @Test func anHS256TokenCreditsItsPointsOnce() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let token = try TopUpSigner.hs256(Self.claims(try await acme.id), secret: secret)

            // act
            let first = try await ada.topUp(token)
            let reused = try await ada.topUp(token)

            // verify
            #expect(first.status == .created, "\(first.text)")
            let credit: TopUpBody = try first.json()
            #expect((credit.tokenId, credit.points, credit.balance) == ("pay-1", 500, 500))
            #expect(reused.status == .conflict)
            #expect(try reused.problem().type == "urn:forma:problem:top-up-used")
            let statement = try await ada.statement()
            #expect(statement.balance == 500 && statement.entries.map(\.tokenId) == ["pay-1"])
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func concurrentUsesOfOneTokenCreditOnce() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            _ = try await ada.statement()
            let token = try TopUpSigner.hs256(Self.claims(try await acme.id), secret: secret)

            // act
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<20 { group.addTask { try await retryingUnavailable { try await ada.topUp(token) }.status } }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify
            #expect(statuses.filter { $0 == .created }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 19)
            #expect(try await ada.balance == 500)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func tamperedExpiredForeignAndMisdirectedTokensCreditNothing() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")
            let secret = try await acme.hs256Secret()
            let otherSecret = try await other.hs256Secret()
            let acmeID = try await acme.id
            let otherID = try await other.id
            let ada = acme.person("ada")
            let good = try TopUpSigner.hs256(Self.claims(acmeID), secret: secret)
            let parts = good.split(separator: ".").map(String.init)
            let inflated = try TopUpSigner.segment(Self.claims(acmeID, points: 500_000))

            // act
            let replies: [(case: String, reply: APIClient.Reply)] = [
                ("tampered payload", try await ada.topUp([parts[0], inflated, parts[2]].joined(separator: "."))),
                ("tampered signature", try await ada.topUp([parts[0], parts[1], Base64URL.encode(Data(repeating: 7, count: 32))].joined(separator: "."))),
                ("unsigned", try await ada.topUp(try TopUpSigner.segment(["alg": "none"]) + "." + parts[1] + ".")),
                ("alg none signed", try await ada.topUp(try TopUpSigner.hs256(Self.claims(acmeID), secret: secret, alg: "none"))),
                ("another company's", try await ada.topUp(try TopUpSigner.hs256(Self.claims(otherID), secret: otherSecret))),
                ("other audience, our key", try await ada.topUp(try TopUpSigner.hs256(Self.claims(otherID), secret: secret))),
                ("not a token", try await ada.topUp("hello")),
            ]
            let forBo = try await ada.topUp(try TopUpSigner.hs256(Self.claims(acmeID, user: "bo", jti: "bo-1"), secret: secret))
            clock.advance(seconds: 3_600)
            let expired = try await ada.topUp(good)

            // verify
            for (name, reply) in replies + [("expired", expired)] {
                #expect(reply.status == .unprocessableEntity, "\(name): \(reply.text)")
                #expect(try reply.problem().field == "token", "\(name)")
            }
            #expect(try expired.problem().detail?.contains("expired") == true)
            #expect(forBo.status == .forbidden)
            #expect(try await ada.balance == 0)
            #expect(try await acme.person("bo").balance == 0)
            #expect(try await PointsTransferModel.query(on: app.db).count() == 0)
        }
    }

    @Test func anEdDSATokenVerifiesWithTheCompanysPublicKeyAndARotatedKeyRefusesOldTokens() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let signing = Curve25519.Signing.PrivateKey()
            let stranger = Curve25519.Signing.PrivateKey()
            let set = try await api.send(
                .PUT, "/v1/company/points-key", headers: Auth.key(acme.key),
                json: ["algorithm": "EdDSA", "publicKey": Base64URL.encode(signing.publicKey.rawRepresentation)])
            let acmeID = try await acme.id
            let ada = acme.person("ada")

            // act
            let signed = try await ada.topUp(try TopUpSigner.edDSA(Self.claims(acmeID, jti: "e1"), key: signing))
            let forged = try await ada.topUp(try TopUpSigner.edDSA(Self.claims(acmeID, jti: "e2"), key: stranger))
            let hs256WithoutKey = try await ada.topUp(try TopUpSigner.hs256(Self.claims(acmeID, jti: "e3"), secret: "guess"))
            _ = try await acme.hs256Secret()
            let afterRotation = try await ada.topUp(try TopUpSigner.edDSA(Self.claims(acmeID, jti: "e4"), key: signing))
            let badKey = try await api.send(
                .PUT, "/v1/company/points-key", headers: Auth.key(acme.key), json: ["algorithm": "EdDSA", "publicKey": "abc"])
            let badAlgorithm = try await api.send(
                .PUT, "/v1/company/points-key", headers: Auth.key(acme.key), json: ["algorithm": "RS256"])

            // verify
            #expect(set.status == .ok, "\(set.text)")
            #expect(signed.status == .created, "\(signed.text)")
            #expect(forged.status == .unprocessableEntity)
            #expect(hs256WithoutKey.status == .unprocessableEntity)
            #expect(afterRotation.status == .unprocessableEntity)
            #expect(try badKey.problem().field == "publicKey" && (try badAlgorithm.problem().field) == "algorithm")
            #expect(try await ada.balance == 500)
        }
    }

    @Test func theHS256SecretIsStoredSealedUnderTheServersKey() async throws {
        let serverKey = Data(repeating: 9, count: 32)
        try await withFormaApp(adjust: { $0.reminders.webhookSecretKey = serverKey }) { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)

            // act
            let secret = try await acme.hs256Secret()
            let stored = try #require(try await PointsSettingsModel.query(on: app.db).first()?.hs256Secret)
            let ada = acme.person("ada")
            let credited = try await ada.topUp(try TopUpSigner.hs256(TopUpAPITests.claims(try await acme.id), secret: secret))

            // verify
            #expect(secret.hasPrefix("ptk_"))
            #expect(stored.hasPrefix("aesgcm:") && !stored.contains(secret))
            #expect(credited.status == .created)
        }
    }
}

@Suite("Points: the documented signing script")
struct TopUpScriptTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/examples/sign-top-up.sh")

    static var openssl: String? {
        ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `/bin/sh arguments…` and answers its standard output, trimmed.
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed"))
    func tokensSignedWithTheScriptInDocsAreCredited() async throws {
        try await withFormaApp { app in
            // setup: an HS256 secret, then an Ed25519 key made with openssl as docs/community.md shows
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let companyID = try await acme.id
            let exp = String(Int(TestClock().now.timeIntervalSince1970) + 300)
            let hs256 = try Self.run([Self.script.path, "hs256", secret, companyID, "ada", "70", exp])
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-topup-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let pem = directory.appendingPathComponent("key.pem").path
            _ = try Self.run(["-c", "openssl genpkey -algorithm ed25519 -out '\(pem)'"])
            let publicKey = try Self.run([
                "-c", "openssl pkey -in '\(pem)' -pubout -outform DER | tail -c 32 | openssl base64 -A | tr '+/' '-_' | tr -d '='",
            ])

            // act
            let first = try await acme.person("ada").topUp(hs256)
            let set = try await api.send(
                .PUT, "/v1/company/points-key", headers: Auth.key(acme.key),
                json: ["algorithm": "EdDSA", "publicKey": publicKey])
            let edDSA = try Self.run([Self.script.path, "eddsa", pem, companyID, "ada", "30", exp])
            let second = try await acme.person("ada").topUp(edDSA)

            // verify
            #expect(first.status == .created, "\(first.text)")
            #expect(set.status == .ok, "\(set.text)")
            #expect(second.status == .created, "\(second.text)")
            #expect(try await acme.person("ada").balance == 100)
        }
    }
}
