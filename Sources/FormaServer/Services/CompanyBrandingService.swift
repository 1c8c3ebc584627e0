import Crypto
import FormaCore
import Fluent
import Foundation
import SQLKit

/// A company's logo as its operators see it (the bytes are served at `/embed/logo/{company}`).
public struct CompanyLogoRecord: Sendable, Equatable {
    public var contentType: String
    public var byteCount: Int
    public var width: Int
    public var height: Int
    public var etag: String
}

/// A company's look in the embedded pages: what `GET /v1/company/branding` answers.
public struct CompanyBrandingRecord: Sendable, Equatable {
    /// `#rrggbb`, or `nil` for Forma's own accent.
    public var accentColor: String?
    public var logo: CompanyLogoRecord?

    static let none = CompanyBrandingRecord(accentColor: nil, logo: nil)
}

/// Why bytes cannot be a company's logo.
public enum CompanyLogoRefusal: Error, Equatable, CustomStringConvertible {
    /// Neither a PNG nor a JPEG (415).
    case unsupported
    /// A PNG or JPEG that is broken or too large (422, field `body`).
    case invalid(String)

    public var description: String {
        switch self {
        case .unsupported: "the logo must be a PNG or JPEG image (judged by its bytes)"
        case .invalid(let message): message
        }
    }
}

/// Setting and reading a company's accent colour and logo: what `/v1/company/branding…` and
/// `forma company branding` do. One row per company, made by the first change (`INSERT … ON CONFLICT DO NOTHING` on
/// the unique company id, so two concurrent first changes make one row) and changed in the same transaction.
public struct CompanyBrandingService: Sendable {
    /// The largest logo accepted, in bytes; a header logo needs far less.
    public static let maximumLogoBytes = 512 * 1024
    /// The largest logo side accepted, in pixels.
    public static let maximumLogoPixels = 1024

    let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    /// Where the pages load a company's logo: `/embed/logo/{name}`, the name percent-encoded as a path segment.
    public static func logoPath(companyName: String) -> String {
        "/embed/logo/" + (companyName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
            ?? companyName)
    }

    /// `#RRGGBB` in either case, normalised to lower case; `nil` stays `nil` (Forma's own accent).
    public static func accentColor(_ raw: String?, field: String = "accentColor") -> Result<String?, FieldIssue> {
        guard let raw else { return .success(nil) }
        let hex = raw.utf8.dropFirst()
        guard raw.utf8.count == 7, raw.hasPrefix("#"), hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
            return .failure(FieldIssue(
                field: field, message: "'\(LiveClose.truncated(raw, toBytes: 40))' is not a colour written #RRGGBB"))
        }
        return .success(raw.lowercased())
    }

    /// Checks that `data` is a PNG or JPEG logo within the size limits.
    public static func checkLogo(_ data: Data) -> Result<ImageProbe, CompanyLogoRefusal> {
        guard data.count <= maximumLogoBytes else {
            return .failure(.invalid("the logo is \(data.count) bytes; at most \(maximumLogoBytes)"))
        }
        let probe: ImageProbe
        do {
            probe = try ImageProbe.inspect(data)
        } catch .unrecognised {
            return .failure(.unsupported)
        } catch {
            return .failure(.invalid(error.description))
        }
        guard probe.width <= maximumLogoPixels, probe.height <= maximumLogoPixels else {
            return .failure(.invalid(
                "the logo is \(probe.width)×\(probe.height) pixels; at most \(maximumLogoPixels) a side"))
        }
        return .success(probe)
    }

    /// The branding as every embed page reads it: the colour and the logo's description, never the logo's bytes
    /// (up to 512 KiB), which only `/embed/logo/{company}` sends.
    public func branding(companyID: UUID) async throws -> CompanyBrandingRecord {
        struct Row: Decodable {
            let accentColor: String?
            let logoContentType: String?
            let logoETag: String?
            let logoWidth: Int?
            let logoHeight: Int?
            let logoBytes: Int?

            enum CodingKeys: String, CodingKey {
                case accentColor = "accent_color", logoContentType = "logo_content_type", logoETag = "logo_etag"
                case logoWidth = "logo_width", logoHeight = "logo_height", logoBytes = "logo_bytes"
            }
        }
        guard let row = try await database.sql().select()
            .columns("accent_color", "logo_content_type", "logo_etag", "logo_width", "logo_height")
            .column(SQLFunction("length", args: SQLColumn("logo_data")), as: "logo_bytes")
            .from(CompanyBrandingModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .first(decoding: Row.self)
        else { return .none }
        var logo: CompanyLogoRecord?
        if let type = row.logoContentType, let etag = row.logoETag, let bytes = row.logoBytes,
            let width = row.logoWidth, let height = row.logoHeight
        {
            logo = CompanyLogoRecord(contentType: type, byteCount: bytes, width: width, height: height, etag: etag)
        }
        return CompanyBrandingRecord(accentColor: row.accentColor, logo: logo)
    }

    /// Replaces the accent colour (already validated with ``accentColor(_:field:)``).
    public func setAccentColor(companyID: UUID, _ color: String?) async throws -> CompanyBrandingRecord {
        try await change(companyID: companyID) { $0.accentColor = color }
    }

    /// Sets the logo; `probe` is what ``checkLogo(_:)`` found in `data`.
    public func setLogo(companyID: UUID, data: Data, probe: ImageProbe) async throws -> CompanyBrandingRecord {
        let digest = SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
        return try await change(companyID: companyID) { row in
            row.logoContentType = probe.format.mediaType
            row.logoData = data
            row.logoETag = "\"\(digest)\""
            row.logoWidth = probe.width
            row.logoHeight = probe.height
        }
    }

    public func deleteLogo(companyID: UUID) async throws -> CompanyBrandingRecord {
        try await change(companyID: companyID) { row in
            row.logoContentType = nil
            row.logoData = nil
            row.logoETag = nil
            row.logoWidth = nil
            row.logoHeight = nil
        }
    }

    /// The logo's bytes for `/embed/logo/{company}`, by the company's name (any letter case).
    static func logo(companyName: String, on database: any Database) async throws
        -> (contentType: String, data: Data, etag: String)?
    {
        guard let company = try await CompanyModel.query(on: database)
            .filter(\.$nameKey == CompanyName.key(companyName)).first(),
            let row = try await CompanyBrandingModel.query(on: database)
                .filter(\.$company.$id == company.requireID()).first(),
            let type = row.logoContentType, let data = row.logoData, let etag = row.logoETag
        else { return nil }
        return (type, data, etag)
    }

    private func change(companyID: UUID, _ apply: @escaping @Sendable (CompanyBrandingModel) -> Void) async throws
        -> CompanyBrandingRecord
    {
        try await database.transaction { transaction in
            try await transaction.sql().insert(into: CompanyBrandingModel.schema)
                .columns("id", "company_id")
                .values(SQLBind(UUID()), SQLBind(companyID))
                .ignoringConflicts(with: ["company_id"])
                .run()
            guard let row = try await CompanyBrandingModel.query(on: transaction)
                .filter(\.$company.$id == companyID).first()
            else { throw ServiceError.broken("a company's branding just written is not there") }
            apply(row)
            try await row.save(on: transaction)
            return Self.record(row)
        }
    }

    static func record(_ row: CompanyBrandingModel) -> CompanyBrandingRecord {
        var logo: CompanyLogoRecord?
        if let type = row.logoContentType, let data = row.logoData, let etag = row.logoETag,
            let width = row.logoWidth, let height = row.logoHeight
        {
            logo = CompanyLogoRecord(contentType: type, byteCount: data.count, width: width, height: height, etag: etag)
        }
        return CompanyBrandingRecord(accentColor: row.accentColor, logo: logo)
    }
}
