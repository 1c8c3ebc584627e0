import FormaCore

extension APIProblem {
    /// The answer to a refused points operation (docs/errors.md, docs/community.md).
    static func problem(for error: PointsError) -> APIProblem {
        switch error {
        case .insufficient(let balance, let needed):
            var problem = APIProblem(
                status: 409, kind: "insufficient-points", title: "Not enough points",
                detail: "this costs \(needed) points and the balance is \(balance)")
            problem.balance = balance
            return problem
        case .priceChanged(let currentPrice):
            var problem = APIProblem(
                status: 409, kind: "price-changed", title: "The price changed",
                detail: "the item now costs \(currentPrice) points; show the new price and ask again",
                issues: [FieldIssue(field: "unitPrice", message: "the item now costs \(currentPrice) points")])
            problem.currentPrice = currentPrice
            return problem
        case .itemUnavailable(let id):
            return APIProblem(
                status: 409, kind: "item-unavailable", title: "The item is not on sale",
                detail: "item '\(id)' is not on sale now",
                issues: [FieldIssue(field: "itemId", message: "is not on sale now")])
        case .keyReused(let field):
            return APIProblem(
                status: 409, kind: "idempotency-key-reused", title: "Idempotency key used for another request",
                detail: "this key was used for a request with other values; use a new key for a new request",
                issues: [FieldIssue(field: field, message: "was used for a request with other values")])
        case .tooManyItems(let limit):
            return .conflict("the catalogue already holds \(limit) items; change one instead of adding another")
        case .notReversible(let reason):
            return .conflict(reason)
        case .topUp(let refusal):
            return problem(for: refusal)
        }
    }

    private static func problem(for refusal: TopUpTokenError) -> APIProblem {
        func invalid(_ message: String) -> APIProblem {
            APIProblem(
                status: 422, kind: "invalid-top-up", title: "The top-up token is refused", detail: "token: \(message)",
                issues: [FieldIssue(field: "token", message: message)])
        }
        return switch refusal {
        case .malformed(let reason): invalid(reason)
        case .unsupportedAlgorithm(let alg): invalid("alg '\(alg)' is not accepted; sign with HS256 or EdDSA")
        case .noKey(let algorithm):
            invalid("the company has no \(algorithm.rawValue) key; set one with PUT /v1/company/points-key")
        case .badSignature: invalid("the signature does not verify with the company's key")
        case .wrongAudience: invalid("aud is not this company's id")
        case .expired: invalid("the token has expired")
        case .wrongUser: .forbidden("the token credits another person")
        case .alreadyUsed:
            APIProblem(
                status: 409, kind: "top-up-used", title: "The top-up token was used already",
                detail: "a top-up token credits once; this one (its jti) was used before",
                issues: [FieldIssue(field: "token", message: "was used already")])
        }
    }
}
