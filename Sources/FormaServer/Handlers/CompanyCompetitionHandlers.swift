import FormaAPI
import FormaCore
import Foundation

/// The company's own competitions and its time zone, with its API key (docs/competitions.md).
extension FormaAPIHandler {
    func createCompanyCompetition(_ input: Operations.CreateCompanyCompetition.Input) async throws
        -> Operations.CreateCompanyCompetition.Output
    {
        let company = try Caller.company().requireID()
        let body = switch input.body { case .json(let body): body }
        let fields = CompetitionFields(
            name: body.name, description: body.description, metric: body.metric, exerciseID: body.exerciseId,
            challengeSeconds: body.challengeSeconds, start: body.start, end: body.end)
        let row = try await answeringStorageFailure("Unable to save the competition. Please try again.") {
            try await competitionAdmin().create(companyID: company, fields)
        }
        logger.info("competition defined", metadata: ["metric": .string(row.metric)])
        return .created(.init(body: .json(CompetitionMapping.competition(row, now: clock.now, joined: nil))))
    }

    func listCompanyCompetitions(_ input: Operations.ListCompanyCompetitions.Input) async throws
        -> Operations.ListCompanyCompetitions.Output
    {
        let company = try Caller.company().requireID()
        let rows = try await competitionAdmin().list(companyID: company)
        return .ok(.init(body: .json(.init(
            items: rows.map { CompetitionMapping.competition($0, now: clock.now, joined: nil) }))))
    }

    func getCompanyCompetition(_ input: Operations.GetCompanyCompetition.Input) async throws
        -> Operations.GetCompanyCompetition.Output
    {
        let company = try Caller.company().requireID()
        let row = try await competitionAdmin().competition(companyID: company, id: input.path.id)
        return .ok(.init(body: .json(CompetitionMapping.competition(row, now: clock.now, joined: nil))))
    }

    func updateCompanyCompetition(_ input: Operations.UpdateCompanyCompetition.Input) async throws
        -> Operations.UpdateCompanyCompetition.Output
    {
        let company = try Caller.company().requireID()
        let body = switch input.body { case .json(let body): body }
        let patch = CompetitionFields(
            name: body.name, description: body.description, metric: body.metric, exerciseID: body.exerciseId,
            challengeSeconds: body.challengeSeconds, start: body.start, end: body.end)
        let row = try await answeringStorageFailure("Unable to change the competition. Please try again.") {
            try await competitionAdmin().update(companyID: company, id: input.path.id, patch)
        }
        return .ok(.init(body: .json(CompetitionMapping.competition(row, now: clock.now, joined: nil))))
    }

    func deleteCompanyCompetition(_ input: Operations.DeleteCompanyCompetition.Input) async throws
        -> Operations.DeleteCompanyCompetition.Output
    {
        let company = try Caller.company().requireID()
        try await answeringStorageFailure("Unable to delete the competition. Please try again.") {
            try await competitionAdmin().delete(companyID: company, id: input.path.id)
        }
        return .noContent(.init())
    }

    func getCompanyTimeZone(_ input: Operations.GetCompanyTimeZone.Input) async throws
        -> Operations.GetCompanyTimeZone.Output
    {
        let company = try Caller.company().requireID()
        return .ok(.init(body: .json(.init(timeZone: try await competitionAdmin().timeZone(companyID: company)))))
    }

    func setCompanyTimeZone(_ input: Operations.SetCompanyTimeZone.Input) async throws
        -> Operations.SetCompanyTimeZone.Output
    {
        let company = try Caller.company().requireID()
        let body = switch input.body { case .json(let body): body }
        let zone = try await answeringStorageFailure("Unable to save the time zone. Please try again.") {
            try await competitionAdmin().setTimeZone(companyID: company, body.timeZone)
        }
        return .ok(.init(body: .json(.init(timeZone: zone))))
    }

    func competitionAdmin() throws -> CompetitionAdmin {
        CompetitionAdmin(database: try database(), catalog: engine.catalog, now: clock.now)
    }
}
