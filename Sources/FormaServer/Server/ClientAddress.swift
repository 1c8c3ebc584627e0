#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Vapor

/// An IPv4 or IPv6 address as its bytes (4 or 16; IPv4-mapped IPv6 addresses are stored as IPv4).
struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    let bytes: [UInt8]

    /// Parses a textual address (`192.0.2.7`, `2001:db8::1`, `::ffff:192.0.2.7`), or `nil`.
    init?(_ text: some StringProtocol) {
        let trimmed = String(text).trimmingCharacters(in: .whitespaces)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, trimmed, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
            bytes = Array(all.prefix(12)) == mappedPrefix ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}

/// The proxies whose `X-Forwarded-For` header Forma believes (`FORMA_TRUSTED_PROXIES`): single addresses or CIDR
/// ranges, IPv4 or IPv6.
public struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        let network: [UInt8]
        let prefixLength: Int

        func contains(_ address: IPAddress) -> Bool {
            guard address.bytes.count == network.count else { return false }
            var remaining = prefixLength
            for (have, want) in zip(address.bytes, network) where remaining > 0 {
                let bits = min(8, remaining)
                let mask: UInt8 = bits == 8 ? 0xff : ~(0xff >> UInt8(bits))
                if have & mask != want & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    let ranges: [Range]

    /// No proxy is trusted: every request is known by the address that connected.
    public static let none = TrustedProxies(ranges: [])

    public struct ParseProblem: Error, Sendable { public let message: String }

    /// Parses a comma-separated list such as `10.0.0.0/8, 192.0.2.1, fd00::/8`.
    public static func parse(_ text: String) -> Result<TrustedProxies, ParseProblem> {
        var ranges: [Range] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let address = IPAddress(parts[0]) else {
                return .failure(ParseProblem(message: "'\(entry)' is not an IP address or a CIDR range"))
            }
            let maximum = address.bytes.count * 8
            var prefix = maximum
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...maximum).contains(length) else {
                    return .failure(ParseProblem(message: "'\(entry)' has a prefix length outside 0…\(maximum)"))
                }
                prefix = length
            }
            ranges.append(Range(network: address.bytes, prefixLength: prefix))
        }
        return .success(TrustedProxies(ranges: ranges))
    }

    func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The address of the person behind a request: the connecting address, unless that is a trusted proxy, in which
    /// case `X-Forwarded-For` is read from the right, skipping the trusted proxies it lists, to the first hop that
    /// is not one (anything to its left could have been written by the client itself).
    ///
    /// - Parameters:
    ///   - peer: The address that opened the connection, if known.
    ///   - forwardedFor: Every `X-Forwarded-For` header value, in order.
    func clientAddress(peer: IPAddress?, forwardedFor: [String]) -> IPAddress? {
        guard var current = peer, contains(current) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { return current }
            current = address
            if !contains(address) { return address }
        }
        return current
    }
}

extension Request {
    /// The client's address as the throttles and logs know it: see ``TrustedProxies/clientAddress(peer:forwardedFor:)``.
    var clientAddress: String? {
        let peer = remoteAddress?.ipAddress.flatMap(IPAddress.init)
        return application.formaConfiguration.trustedProxies
            .clientAddress(peer: peer, forwardedFor: headers["X-Forwarded-For"])?.description
    }
}
