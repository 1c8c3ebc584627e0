import Fluent
import Foundation

/// A company's look in the embedded pages: its accent colour and its logo. Row of `company_brandings`, at most one per
/// company; no row means Forma's own look.
final class CompanyBrandingModel: Model, @unchecked Sendable {
    static let schema = "company_brandings"

    @ID(key: .id) var id: UUID?
    @Parent(key: "company_id") var company: CompanyModel
    /// `#rrggbb`, lower case.
    @OptionalField(key: "accent_color") var accentColor: String?
    /// The logo's media type (`image/png` or `image/jpeg`), judged by its bytes; `nil` without a logo.
    @OptionalField(key: "logo_content_type") var logoContentType: String?
    @OptionalField(key: "logo_data") var logoData: Data?
    /// Strong entity tag, quoted, derived from the bytes.
    @OptionalField(key: "logo_etag") var logoETag: String?
    @OptionalField(key: "logo_width") var logoWidth: Int?
    @OptionalField(key: "logo_height") var logoHeight: Int?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}
}
