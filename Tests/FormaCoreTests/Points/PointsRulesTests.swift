import Foundation
import Testing

@testable import FormaCore

@Suite("Points rules")
struct PointsRulesTests {
    @Test func aPurchaseNamesEveryFieldThatBreaksARule() throws {
        // act
        let bad = PurchaseRequest.validate(itemID: "", quantity: 100, unitPrice: 0, platform: "windows", idempotencyKey: "a b")
        let good = PurchaseRequest.validate(itemID: "hat", quantity: 99, unitPrice: 1_000_000, platform: "ios", idempotencyKey: "k-1")

        // verify
        guard case .failure(let error) = bad else { Issue.record("accepted \(bad)"); return }
        #expect(error.issues.map(\.field) == ["itemId", "quantity", "unitPrice", "platform", "idempotencyKey"])
        #expect(try good.get().total == 99_000_000)
        #expect(try good.get().fingerprint == "hat|99|1000000|ios")
    }

    @Test func earningRulesAreBoundedAndDefaultToPointsForASavedWorkout() {
        #expect(PointsEarningRules.defaults.workoutCompleted > 0)
        #expect(PointsEarningRules.defaults.issues.isEmpty)
        let bad = PointsEarningRules(workoutCompleted: -1, missionCompleted: 10_001, challengeResult: 0)
        #expect(bad.issues.map(\.field) == ["workoutCompleted", "missionCompleted"])
    }

    @Test func aTokenIsReadWithItsClaimsAndItsSigningInput() throws {
        // setup
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Data(#"{"jti":"t-1","sub":"ada","points":500,"exp":1800000600,"aud":"C1"}"#.utf8))
        let signature = Base64URL.encode(Data([1, 2, 3]))

        // act
        let token = try TopUpToken.parse("\(header).\(payload).\(signature)")

        // verify
        #expect(token.algorithm == .hs256)
        #expect(token.claims == .init(
            tokenID: "t-1", userID: "ada", points: 500, expiresAt: Date(timeIntervalSince1970: 1_800_000_600),
            audiences: ["C1"]))
        #expect(token.signingInput == Data("\(header).\(payload)".utf8))
        #expect(token.signature == Data([1, 2, 3]))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(throws: Never.self) { try token.checkClaims(companyID: "c1", userID: "ada", now: now) }
        #expect(throws: TopUpTokenError.wrongAudience) { try token.checkClaims(companyID: "C2", userID: "ada", now: now) }
        #expect(throws: TopUpTokenError.wrongUser) { try token.checkClaims(companyID: "C1", userID: "bo", now: now) }
        #expect(throws: TopUpTokenError.expired) {
            try token.checkClaims(companyID: "C1", userID: "ada", now: now.addingTimeInterval(600))
        }
    }

    @Test func unsignedAndMalformedTokensAreRefusedBeforeAnyKeyIsUsed() {
        func token(_ header: String, _ payload: String, signature: String = "AQID") -> String {
            Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8)) + "." + signature
        }
        let claims = #"{"jti":"t","sub":"ada","points":5,"exp":1800000600,"aud":"C1"}"#
        #expect(throws: TopUpTokenError.unsupportedAlgorithm("none")) { try TopUpToken.parse(token(#"{"alg":"none"}"#, claims)) }
        #expect(throws: TopUpTokenError.unsupportedAlgorithm("RS256")) { try TopUpToken.parse(token(#"{"alg":"RS256"}"#, claims)) }
        for bad in [
            "a.b", token(#"{"alg":"HS256"}"#, claims, signature: ""), token(#"{"alg":"HS256"}"#, claims, signature: "AQ=="),
            token(#"{"alg":"HS256"}"#, #"{"jti":"t","sub":"ada","points":0.5,"exp":1800000600,"aud":"C1"}"#),
            token(#"{"alg":"HS256"}"#, #"{"jti":"t","sub":"ada","points":true,"exp":1800000600,"aud":"C1"}"#),
            token(#"{"alg":"HS256"}"#, #"{"jti":"t","sub":"ada","points":5,"aud":"C1"}"#),
            token(#"{"alg":"HS256","crit":["exp"]}"#, claims),
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try TopUpToken.parse(bad) }
        }
    }
}
