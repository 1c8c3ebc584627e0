import FormaAPI
import FormaCore
import Foundation

/// Cheers on saved runs (docs/community.md, "Cheers").
extension FormaAPIHandler {
    func cheerRun(_ input: Operations.CheerRun.Input) async throws -> Operations.CheerRun.Output {
        let me = try Caller.person()
        let cheered = try await answeringStorageFailure("Unable to cheer. Please try again.") {
            try await CheerStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
                .cheer(input.path.runId)
        }
        if cheered.created { await observeMissions(of: me) }
        return .ok(.init(body: .json(.init(
            runId: input.path.runId.lowercased(), userId: PeopleStore.publicID(of: cheered.owner),
            cheeredAt: cheered.cheer.createdAt))))
    }
}
