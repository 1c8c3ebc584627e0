import FormaCore
import Fluent
import Foundation
import Vapor

/// Consumer accounts (email and password), sign-in and sign-out.
struct AccountService {
    let request: Request

    private var database: any Database { request.db }
    private var configuration: ServerConfiguration { request.application.formaConfiguration }

    /// Creates an account in the instance's default company.
    ///
    /// - Throws: 422 with one entry per invalid field; 409 when the email already has an account.
    func signUp(email rawEmail: String, password: String, confirmation: String, displayName: String?) async throws
        -> UserModel
    {
        var issues: [FieldIssue] = []
        var email: EmailAddress?
        switch EmailAddress.parse(rawEmail) {
        case .success(let parsed): email = parsed
        case .failure(let issue): issues.append(issue)
        }
        issues += PasswordPolicy.standard.issues(password: password, email: email)
        if confirmation != password {
            issues.append(FieldIssue(field: "passwordConfirmation", message: "does not match the password"))
        }
        var name: String?
        if let displayName {
            switch ProfileFields.displayName(displayName) {
            case .success(let trimmed): name = trimmed.isEmpty ? nil : trimmed
            case .failure(let issue): issues.append(issue)
            }
        }
        guard issues.isEmpty, let email else { throw APIProblem.validation(issues) }

        let company = try await defaultCompany()
        let companyID = try company.requireID()
        let emailTaken = {
            APIProblem.conflict("an account with this email already exists; sign in instead", field: "email")
        }
        if try await UserModel.query(on: database).filter(\.$company.$id == companyID)
            .filter(\.$email == email.value).first() != nil
        {
            throw emailTaken()
        }
        let hash = try await request.password.async.hash(password)
        let user = UserModel(companyID: companyID, email: email.value, passwordHash: hash)
        user.displayName = name
        do {
            try await user.create(on: database)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            throw emailTaken()
        }
        user.$company.value = company
        FormaMetrics.countAccountEvent("sign_up")
        return user
    }

    /// Checks email and password and issues a login token.
    ///
    /// Unknown emails cost one bcrypt verification too, so response time does not reveal which emails have accounts.
    /// - Throws: 401 for a wrong email or password (one message for both), 429 when throttled.
    func logIn(email rawEmail: String, password: String) async throws -> (secret: String, record: UserTokenModel, user: UserModel) {
        let now = request.application.formaClock.now
        let emailKey = EmailAddress.parse(rawEmail).map(\.value).get(orElse: rawEmail.lowercased())
        if emailKey.isEmpty {
            throw APIProblem.validation([FieldIssue(field: "email", message: "is required")])
        }
        if password.isEmpty {
            throw APIProblem.validation([FieldIssue(field: "password", message: "is required")])
        }
        let company = try await defaultCompany()
        let companyID = try company.requireID()
        let throttle = LoginThrottle(policy: configuration.loginThrottle, database: database)
        let address = request.clientAddress
        try await throttle.admit(companyID: companyID, emailKey: emailKey, address: address, now: now)

        let user = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID)
            .filter(\.$email == emailKey)
            .first()
        let hash: String
        if let stored = user?.passwordHash {
            hash = stored
        } else {
            hash = try await request.application.formaDecoyPasswordHash.value(hashingWith: request.password.async)
        }
        let matches = try await request.password.async.verify(password, created: hash)
        guard let user, user.passwordHash != nil, matches else {
            FormaMetrics.countAccountEvent("login_failed")
            throw APIProblem.unauthorized("the email or the password is wrong")
        }
        try await throttle.succeeded(companyID: companyID, emailKey: emailKey, address: address)
        let (secret, record) = try await Authentication.issueToken(
            for: user, kind: .login, lifetimeSeconds: configuration.loginTokenLifetimeSeconds, now: now, on: database)
        user.$company.value = company
        FormaMetrics.countAccountEvent("login")
        return (secret, record, user)
    }

    func defaultCompany() async throws -> CompanyModel {
        guard let company = try await CompanyModel.query(on: database).filter(\.$isDefault == true).first() else {
            throw APIProblem.serviceUnavailable("the instance has no default company; run `forma migrate`")
        }
        return company
    }
}

extension Result {
    fileprivate func get(orElse fallback: Success) -> Success {
        (try? get()) ?? fallback
    }
}
