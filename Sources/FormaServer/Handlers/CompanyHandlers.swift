import FormaAPI
import FormaCore

extension FormaAPIHandler {
    func getCompany(_ input: Operations.GetCompany.Input) async throws -> Operations.GetCompany.Output {
        let company = try Caller.company()
        return .ok(.init(body: .json(.init(try await CompanyService.record(company, on: try database())))))
    }

    func setAllowedOrigins(_ input: Operations.SetAllowedOrigins.Input) async throws
        -> Operations.SetAllowedOrigins.Output
    {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        var issues: [FieldIssue] = []
        if body.origins.count > CompanyService.maximumOrigins {
            issues.append(FieldIssue(field: "origins", message: "must list at most \(CompanyService.maximumOrigins) origins"))
        }
        for (index, origin) in body.origins.enumerated() {
            if case .failure(let issue) = WebOrigin.parse(origin, field: "origins[\(index)]") { issues.append(issue) }
        }
        guard issues.isEmpty else { throw InputError.invalid(issues) }
        let record = try await CompanyService(database: try database())
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
