import FormaAPI
import FormaCore
import Fluent
import Vapor

extension FormaAPIHandler {
    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        let request = try RequestContext.require()
        let company = try await Authentication.company(for: request)
        guard case .json(let body) = input.body else { throw APIProblem.internalError }
        if let named = body.company, CompanyName.key(named) != company.nameKey {
            throw APIProblem.forbidden("the API key belongs to another company than '\(named)'")
        }
        let externalID = try HostUserID.validate(body.userId, field: "userId")
        let user = try await Authentication.hostUser(externalID: externalID, in: company, on: request.db)
        let (secret, record) = try await Authentication.issueToken(
            for: user, kind: .session,
            lifetimeSeconds: request.application.formaConfiguration.sessionTokenLifetimeSeconds,
            now: request.application.formaClock.now, on: request.db)
        let profile = try await Components.Schemas.Profile(user, company: company, on: request.db)
        return .created(.init(body: .json(.init(
            token: secret, tokenType: .bearer, expiresAt: record.expiresAt, user: profile))))
    }

    func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
        let request = try RequestContext.require()
        guard case .json(let body) = input.body else { throw APIProblem.internalError }
        let user = try await AccountService(request: request).signUp(
            email: body.email, password: body.password, confirmation: body.passwordConfirmation,
            displayName: body.displayName)
        let profile = try await Components.Schemas.Profile(user, company: user.company, on: request.db)
        return .created(.init(body: .json(profile)))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        let request = try RequestContext.require()
        guard case .json(let body) = input.body else { throw APIProblem.internalError }
        let (secret, record, user) = try await AccountService(request: request).logIn(
            email: body.email, password: body.password)
        let profile = try await Components.Schemas.Profile(user, company: user.company, on: request.db)
        return .ok(.init(body: .json(.init(
            token: secret, tokenType: .bearer, expiresAt: record.expiresAt, user: profile))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let request = try RequestContext.require()
        guard request.headers.bearerAuthorization != nil else {
            throw APIProblem.unauthorized("send the token to revoke as 'Authorization: Bearer <token>'")
        }
        let authenticated = try await Authentication.user(for: request)
        guard let token = authenticated.token else { throw APIProblem.internalError }
        try await token.delete(on: request.db)
        return .noContent(.init())
    }
}
