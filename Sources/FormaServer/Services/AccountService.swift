import FormaCore
import Fluent
import Foundation

/// Consumer accounts (email and password), sign-in and sign-out.
struct AccountService {
    let database: any Database
    let passwords: PasswordService
    let configuration: ServerConfiguration
    let now: Date

    /// Creates an account in the instance's default company.
    ///
    /// - Throws: ``InputError/invalid(_:)`` with one entry per invalid field; ``StateError/emailTaken`` when the
    ///   email already has an account.
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
        guard issues.isEmpty, let email else { throw InputError.invalid(issues) }

        let company = try await defaultCompany()
        let companyID = try company.requireID()
        if try await UserModel.query(on: database).filter(\.$company.$id == companyID)
            .filter(\.$email == email.value).first() != nil
        {
            throw StateError.emailTaken
        }
        let hash = try await passwords.hash(password)
        let user = UserModel(companyID: companyID, email: email.value, passwordHash: hash)
        user.displayName = name
        do {
            try await user.create(on: database)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            throw StateError.emailTaken
        }
        user.$company.value = company
        FormaMetrics.countAccountEvent("sign_up")
        return user
    }

    /// Checks email and password and issues a login token.
    ///
    /// Unknown emails cost one bcrypt verification too, so response time does not reveal which emails have accounts.
    /// - Parameter clientAddress: The address failed attempts are also counted against.
    /// - Throws: ``AuthenticationError/wrongEmailOrPassword`` (one error for both),
    ///   ``ServiceError/throttled(retryAfterSeconds:reason:)`` when throttled.
    func logIn(email rawEmail: String, password: String, clientAddress: String?) async throws
        -> (secret: String, record: UserTokenModel, user: UserModel)
    {
        let emailKey = (try? EmailAddress.parse(rawEmail).get().value) ?? rawEmail.lowercased()
        if emailKey.isEmpty { throw InputError.invalid(field: "email", "is required") }
        if password.isEmpty { throw InputError.invalid(field: "password", "is required") }
        let company = try await defaultCompany()
        let companyID = try company.requireID()
        let throttle = LoginThrottle(policy: configuration.loginThrottle, database: database)
        try await throttle.admit(companyID: companyID, emailKey: emailKey, address: clientAddress, now: now)

        let user = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID)
            .filter(\.$email == emailKey)
            .first()
        let matches = try await passwords.verify(password, against: user?.passwordHash)
        guard let user, matches else {
            FormaMetrics.countAccountEvent("login_failed")
            throw AuthenticationError.wrongEmailOrPassword
        }
        try await throttle.succeeded(companyID: companyID, emailKey: emailKey, address: clientAddress)
        let (secret, record) = try await Authentication.issueToken(
            for: user, kind: .login, lifetimeSeconds: configuration.loginTokenLifetimeSeconds, now: now, on: database)
        user.$company.value = company
        FormaMetrics.countAccountEvent("login")
        return (secret, record, user)
    }

    func defaultCompany() async throws -> CompanyModel {
        guard let company = try await CompanyModel.query(on: database).filter(\.$isDefault == true).first() else {
            throw ServiceError.noDefaultCompany
        }
        return company
    }
}
