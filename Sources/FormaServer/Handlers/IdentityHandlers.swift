import FormaAPI
import FormaCore
import Fluent

extension FormaAPIHandler {
    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        if let named = body.company, CompanyName.key(named) != company.nameKey {
            throw AuthenticationError.otherCompany(named: named)
        }
        let externalID = try HostUserID.checked(body.userId, field: "userId")
        let database = try self.database()
        let user = try await Authentication.hostUser(externalID: externalID, in: company, on: database)
        let (secret, record) = try await Authentication.issueToken(
            for: user, kind: .session, lifetimeSeconds: configuration.sessionTokenLifetimeSeconds, now: clock.now,
            on: database)
        let profile = try await Components.Schemas.Profile(user, company: company, on: database)
        return .created(.init(body: .json(.init(
            token: secret, tokenType: .bearer, expiresAt: record.expiresAt, user: profile))))
    }

    func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
        let body = switch input.body { case .json(let body): body }
        let database = try self.database()
        let user = try await accounts(on: database).signUp(
            email: body.email, password: body.password, confirmation: body.passwordConfirmation,
            displayName: body.displayName)
        let profile = try await Components.Schemas.Profile(user, company: user.company, on: database)
        return .created(.init(body: .json(profile)))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        let body = switch input.body { case .json(let body): body }
        let database = try self.database()
        let (secret, record, user) = try await accounts(on: database).logIn(
            email: body.email, password: body.password, clientAddress: RequestScope.current?.clientAddress)
        let profile = try await Components.Schemas.Profile(user, company: user.company, on: database)
        return .ok(.init(body: .json(.init(
            token: secret, tokenType: .bearer, expiresAt: record.expiresAt, user: profile))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        guard let token = try await Caller.person().token else { throw AuthenticationError.missingBearerToken }
        try await token.delete(on: try database())
        return .noContent(.init())
    }

    private func accounts(on database: any Database) -> AccountService {
        AccountService(database: database, passwords: passwords, configuration: configuration, now: clock.now)
    }
}
