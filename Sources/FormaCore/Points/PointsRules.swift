import Foundation

/// The rules of the points ledger that need no database (docs/community.md): amounts, earning rules, items,
/// purchases and idempotency keys. The server checks every request with these before it writes anything.
public enum PointsRules {
    /// The most points one transfer may move (a purchase's total, a top-up, an earning).
    public static let maximumTransfer = 1_000_000
    /// The most points an item may cost.
    public static let maximumPrice = 1_000_000
    /// How many of one item a purchase may buy.
    public static let quantities = 1...99
    /// The most points one earning rule may pay.
    public static let maximumEarning = 10_000
    /// Longest idempotency key, in characters.
    public static let maximumKeyLength = 100
    /// Longest item name, in characters (after trimming).
    public static let maximumItemNameLength = 100

    /// `raw` as an idempotency key: 1–100 printable ASCII characters without spaces (a UUID fits); an issue naming
    /// `field` otherwise.
    public static func idempotencyKey(_ raw: String, field: String = "idempotencyKey") -> Result<String, FieldIssue> {
        if raw.isEmpty { return .failure(FieldIssue(field: field, message: "must not be empty")) }
        if raw.count > maximumKeyLength {
            return .failure(FieldIssue(field: field, message: "must be at most \(maximumKeyLength) characters"))
        }
        guard raw.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return .failure(FieldIssue(field: field, message: "must be printable ASCII without spaces"))
        }
        return .success(raw)
    }

    /// `raw` trimmed as an item name: 1–100 characters, no control characters.
    public static func itemName(_ raw: String, field: String = "name") -> Result<String, FieldIssue> {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .failure(FieldIssue(field: field, message: "must not be empty")) }
        if name.count > maximumItemNameLength {
            return .failure(FieldIssue(field: field, message: "must be at most \(maximumItemNameLength) characters"))
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(FieldIssue(field: field, message: "must not contain control characters"))
        }
        return .success(name)
    }

    /// An issue naming `field` when `price` is not 1 to ``maximumPrice`` points.
    public static func priceIssue(_ price: Int, field: String = "price") -> FieldIssue? {
        (1...maximumPrice).contains(price) ? nil : FieldIssue(field: field, message: "must be 1 to \(maximumPrice) points")
    }
}

/// How many points a company pays for what its people do. A company that never set its rules has ``defaults``.
public struct PointsEarningRules: Sendable, Equatable, Codable {
    /// Paid once per run saved (a completed workout); 0 pays nothing.
    public var workoutCompleted: Int
    /// Paid once per daily mission completed (once per mission and local day).
    public var missionCompleted: Int
    /// Paid once per challenge result (stored now; not paid yet).
    public var challengeResult: Int

    public init(workoutCompleted: Int, missionCompleted: Int, challengeResult: Int) {
        self.workoutCompleted = workoutCompleted
        self.missionCompleted = missionCompleted
        self.challengeResult = challengeResult
    }

    /// A saved workout earns 10 points, a daily mission 5, a challenge result 0.
    public static let defaults = PointsEarningRules(workoutCompleted: 10, missionCompleted: 5, challengeResult: 0)

    /// Every rule out of 0 to ``PointsRules/maximumEarning``, named by its field.
    public var issues: [FieldIssue] {
        [("workoutCompleted", workoutCompleted), ("missionCompleted", missionCompleted),
         ("challengeResult", challengeResult)]
            .filter { !(0...PointsRules.maximumEarning).contains($0.1) }
            .map { FieldIssue(field: $0.0, message: "must be 0 to \(PointsRules.maximumEarning) points") }
    }
}

/// Where a purchase was made: the seeds' platforms.
public enum PurchasePlatform: String, Sendable, CaseIterable, Codable {
    case ios, android, web
}

/// A person's purchase as asked for, checked: what they expect to pay and the key that makes a retry safe.
public struct PurchaseRequest: Sendable, Equatable {
    public var itemID: String
    public var quantity: Int
    /// The price per item the person was shown; it must equal the item's price now.
    public var unitPrice: Int
    public var platform: PurchasePlatform
    public var idempotencyKey: String

    /// The request, or every field that breaks a rule.
    public static func validate(
        itemID: String, quantity: Int, unitPrice: Int, platform: String, idempotencyKey: String
    ) -> Result<PurchaseRequest, PurchaseRequestError> {
        var issues: [FieldIssue] = []
        if itemID.isEmpty || itemID.count > 100 {
            issues.append(FieldIssue(field: "itemId", message: "must be 1 to 100 characters"))
        }
        if !PointsRules.quantities.contains(quantity) {
            issues.append(FieldIssue(field: "quantity", message: "must be 1 to 99"))
        }
        if let issue = PointsRules.priceIssue(unitPrice, field: "unitPrice") { issues.append(issue) }
        let parsedPlatform = PurchasePlatform(rawValue: platform)
        if parsedPlatform == nil {
            issues.append(FieldIssue(field: "platform", message: "must be one of ios, android, web"))
        }
        var key = idempotencyKey
        switch PointsRules.idempotencyKey(idempotencyKey) {
        case .success(let valid): key = valid
        case .failure(let issue): issues.append(issue)
        }
        guard issues.isEmpty, let parsedPlatform else { return .failure(PurchaseRequestError(issues: issues)) }
        return .success(PurchaseRequest(
            itemID: itemID, quantity: quantity, unitPrice: unitPrice, platform: parsedPlatform, idempotencyKey: key))
    }

    public init(itemID: String, quantity: Int, unitPrice: Int, platform: PurchasePlatform, idempotencyKey: String) {
        self.itemID = itemID
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.platform = platform
        self.idempotencyKey = idempotencyKey
    }

    /// What is charged: `quantity × unitPrice` (at most 99 × 1,000,000, which fits any `Int` of 64 bits).
    public var total: Int { quantity * unitPrice }

    /// What a replay of the same key must repeat exactly; another body under the key is a conflict.
    public var fingerprint: String { "\(itemID)|\(quantity)|\(unitPrice)|\(platform.rawValue)" }
}

/// The fields of a purchase or a gift that break their rules.
public struct PurchaseRequestError: Error, Sendable, Hashable {
    public var issues: [FieldIssue]
}

/// A gift of points to another person of the company, as asked for, checked.
public struct GiftRequest: Sendable, Equatable {
    /// The recipient's id: the host app's user id, or Forma's user id for an account without one.
    public var recipientID: String
    public var points: Int
    /// Trimmed; `nil` when absent or empty.
    public var message: String?
    public var idempotencyKey: String

    /// Longest message, in characters (after trimming).
    public static let maximumMessageLength = 200

    /// The request, or every field that breaks a rule.
    public static func validate(
        recipientID: String, points: Int, message: String?, idempotencyKey: String
    ) -> Result<GiftRequest, PurchaseRequestError> {
        var issues: [FieldIssue] = []
        if case .failure(let issue) = HostUserID.validate(recipientID, field: "userId") { issues.append(issue) }
        if !(1...PointsRules.maximumTransfer).contains(points) {
            issues.append(FieldIssue(field: "points", message: "must be 1 to \(PointsRules.maximumTransfer)"))
        }
        let trimmed = message?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let trimmed {
            if trimmed.count > maximumMessageLength {
                issues.append(FieldIssue(field: "message", message: "must be at most \(maximumMessageLength) characters"))
            } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
                issues.append(FieldIssue(field: "message", message: "must not contain control characters"))
            }
        }
        var key = idempotencyKey
        switch PointsRules.idempotencyKey(idempotencyKey) {
        case .success(let valid): key = valid
        case .failure(let issue): issues.append(issue)
        }
        guard issues.isEmpty else { return .failure(PurchaseRequestError(issues: issues)) }
        return .success(GiftRequest(
            recipientID: recipientID, points: points, message: trimmed?.isEmpty == false ? trimmed : nil,
            idempotencyKey: key))
    }

    public init(recipientID: String, points: Int, message: String?, idempotencyKey: String) {
        self.recipientID = recipientID
        self.points = points
        self.message = message
        self.idempotencyKey = idempotencyKey
    }

    /// What a replay of the same key must repeat exactly.
    public var fingerprint: String { "\(recipientID)|\(points)|\(message ?? "")" }
}
