import Foundation

/// Everything FormaKit calls can fail with.
public enum FormaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a problem document (docs/errors.md): its HTTP status, title, detail and the fields at
    /// fault, if any.
    case server(status: Int, title: String, detail: String?, fields: [FieldProblem])
    /// The server could not be reached or the connection failed.
    case transport(String)
    /// The server's answer did not have the expected shape (a server and SDK of different versions).
    case unexpectedResponse(String)
    /// An argument was rejected before anything was sent; `field` names it.
    case invalidArgument(field: String, message: String)
    /// A purchase the server refused (409) for a reason the app can act on: show the new price, or the balance.
    case purchaseRefused(PurchaseRefusal)

    /// Why a purchase was refused (docs/community.md); nothing was charged.
    public enum PurchaseRefusal: Sendable, Equatable {
        /// The item's price is not the `unitPrice` sent; ask the person again at this price.
        case priceChanged(currentPrice: Int)
        /// The person's balance does not cover the purchase.
        case insufficientPoints(balance: Int)
    }

    public struct FieldProblem: Sendable, Equatable, Codable {
        public var field: String
        public var detail: String
    }

    /// The HTTP status of a server error, `nil` for the other kinds.
    public var status: Int? {
        switch self {
        case .server(let status, _, _, _): status
        case .purchaseRefused: 409
        default: nil
        }
    }

    public var description: String {
        switch self {
        case let .server(status, title, detail, _): "\(status) \(title)" + (detail.map { ": \($0)" } ?? "")
        case let .transport(message): "cannot reach the Forma server: \(message)"
        case let .unexpectedResponse(message): "unexpected answer from the Forma server: \(message)"
        case let .invalidArgument(field, message): "\(field): \(message)"
        case .purchaseRefused(.priceChanged(let price)): "409 the price changed: the item now costs \(price) points"
        case .purchaseRefused(.insufficientPoints(let balance)): "409 not enough points: the balance is \(balance)"
        }
    }
}
