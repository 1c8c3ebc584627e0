import FormaAPI
import FormaCore
import Vapor

extension FormaAPIHandler {
    func getCompany(_ input: Operations.GetCompany.Input) async throws -> Operations.GetCompany.Output {
        let request = try RequestContext.require()
        let company = try await Authentication.company(for: request)
        return .ok(.init(body: .json(.init(try await CompanyService.record(company, on: request.db)))))
    }

    func setAllowedOrigins(_ input: Operations.SetAllowedOrigins.Input) async throws
        -> Operations.SetAllowedOrigins.Output
    {
        let request = try RequestContext.require()
        let company = try await Authentication.company(for: request)
        guard case .json(let body) = input.body else { throw APIProblem.internalError }
        var issues: [FieldIssue] = []
        if body.origins.count > CompanyService.maximumOrigins {
            issues.append(FieldIssue(field: "origins", message: "must list at most \(CompanyService.maximumOrigins) origins"))
        }
        for (index, origin) in body.origins.enumerated() {
            if case .failure(let issue) = WebOrigin.parse(origin, field: "origins[\(index)]") { issues.append(issue) }
        }
        guard issues.isEmpty else { throw APIProblem.validation(issues) }
        let record = try await CompanyService(database: request.db)
            .setAllowedOrigins(companyName: company.name, origins: body.origins)
        return .ok(.init(body: .json(.init(record))))
    }
}

extension Components.Schemas.Company {
    init(_ record: CompanyRecord) {
        self.init(
            id: record.id.uuidString, name: record.name, allowedOrigins: record.allowedOrigins,
            createdAt: record.createdAt)
    }
}
