import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Where "now" comes from, so tests can move time (token expiry, login throttling) without sleeping.
public struct FormaClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public var now: Date { read() }

    public static let system = FormaClock { Date() }
}

extension Application {
    private struct ConfigurationKey: StorageKey {
        typealias Value = ServerConfiguration
    }

    private struct ClockKey: StorageKey {
        typealias Value = FormaClock
    }

    /// The configuration this application was set up with by ``configure(_:configuration:clock:)``.
    public var formaConfiguration: ServerConfiguration {
        get {
            guard let configuration = storage[ConfigurationKey.self] else {
                fatalError("configure(_:configuration:) must run before the Forma configuration is read")
            }
            return configuration
        }
        set { storage[ConfigurationKey.self] = newValue }
    }

    /// The clock of the live endpoint; the API handler holds its own (the same one, from `configure`).
    public var formaClock: FormaClock {
        get { storage[ClockKey.self] ?? .system }
        set { storage[ClockKey.self] = newValue }
    }
}

/// A bcrypt hash of a random password at the configured cost, verified against when a login names an unknown email
/// so that the answer takes as long as for a known one. Computed once, on the first such login, so commands that
/// never check a password do not pay for it.
final class DecoyPasswordHash: Sendable {
    private let cached = NIOLockedValueBox<String?>(nil)

    func value(hashingWith hasher: AsyncPasswordHasher) async throws -> String {
        if let hash = cached.withLockedValue({ $0 }) { return hash }
        let hash = try await hasher.hash([UInt8].random(count: 24).base64String())
        cached.withLockedValue { $0 = hash }
        return hash
    }
}
