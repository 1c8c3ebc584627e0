import FormaAPI
import FormaCore
import Foundation
import OpenAPIRuntime

/// The company's accent colour and logo in the embedded pages (docs/embed.md, "Style and branding").
extension FormaAPIHandler {
    func getCompanyBranding(_ input: Operations.GetCompanyBranding.Input) async throws
        -> Operations.GetCompanyBranding.Output
    {
        let company = try Caller.company()
        let record = try await CompanyBrandingService(database: try database()).branding(companyID: company.requireID())
        return .ok(.init(body: .json(.init(record, companyName: company.name))))
    }

    func setCompanyBranding(_ input: Operations.SetCompanyBranding.Input) async throws
        -> Operations.SetCompanyBranding.Output
    {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        let color: String?
        switch CompanyBrandingService.accentColor(body.accentColor) {
        case .success(let valid): color = valid
        case .failure(let issue): throw InputError.invalid([issue])
        }
        let record = try await answeringStorageFailure("Unable to save the branding. Please try again.") {
            try await CompanyBrandingService(database: try database())
                .setAccentColor(companyID: company.requireID(), color)
        }
        return .ok(.init(body: .json(.init(record, companyName: company.name))))
    }

    func uploadCompanyLogo(_ input: Operations.UploadCompanyLogo.Input) async throws
        -> Operations.UploadCompanyLogo.Output
    {
        let company = try Caller.company()
        let body: HTTPBody
        switch input.body {
        case .png(let bytes), .jpeg(let bytes), .binary(let bytes): body = bytes
        }
        // The body limit middleware has already capped the size; this bound only documents the invariant.
        let data = try await Data(collecting: body, upTo: CompanyBrandingService.maximumLogoBytes)
        let probe: ImageProbe
        switch CompanyBrandingService.checkLogo(data) {
        case .success(let valid): probe = valid
        case .failure(.unsupported): throw InputError.unsupportedMediaType(CompanyLogoRefusal.unsupported.description)
        case .failure(.invalid(let message)): throw InputError.invalid(field: "body", message)
        }
        let record = try await answeringStorageFailure("Unable to save the logo. Please try again.") {
            try await CompanyBrandingService(database: try database())
                .setLogo(companyID: company.requireID(), data: data, probe: probe)
        }
        return .ok(.init(body: .json(.init(record, companyName: company.name))))
    }

    func deleteCompanyLogo(_ input: Operations.DeleteCompanyLogo.Input) async throws
        -> Operations.DeleteCompanyLogo.Output
    {
        let company = try Caller.company()
        _ = try await answeringStorageFailure("Unable to remove the logo. Please try again.") {
            try await CompanyBrandingService(database: try database()).deleteLogo(companyID: company.requireID())
        }
        return .noContent(.init())
    }
}

extension Components.Schemas.CompanyBranding {
    init(_ record: CompanyBrandingRecord, companyName: String) {
        self.init(
            accentColor: record.accentColor,
            logo: record.logo.map { logo in
                .init(
                    url: CompanyBrandingService.logoPath(companyName: companyName),
                    contentType: logo.contentType == ImageProbe.Format.png.mediaType ? .imagePng : .imageJpeg,
                    byteCount: logo.byteCount, width: logo.width, height: logo.height, etag: logo.etag)
            })
    }
}
