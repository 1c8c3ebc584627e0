import FormaAPI
import FormaCore
import Foundation

/// The feed (docs/community.md, "Feed").
extension FormaAPIHandler {
    func getFeed(_ input: Operations.GetFeed.Input) async throws -> Operations.GetFeed.Output {
        let me = try Caller.person()
        let limit = try QueryBounds.value(input.query.limit, of: "limit", in: 1...100, default: 20)
        let cursor = try input.query.cursor.map { text throws(InputError) in
            guard let cursor = PeopleStore.Cursor(encoded: text) else {
                throw InputError.badParameter(FieldIssue(
                    field: "cursor", message: "is not a cursor this feed gave (use nextCursor as it is)"))
            }
            return cursor
        }
        let page = try await answeringStorageFailure("Unable to read the feed. Please try again.") {
            try await FeedStore(database: try database(), companyID: me.companyID, userID: me.userID)
                .page(after: cursor, limit: limit)
        }
        return .ok(.init(body: .json(.init(
            items: page.items.map { entry in
                Components.Schemas.FeedItem(
                    id: entry.item.id.uuidString.lowercased(), kind: entry.item.kind.rawValue,
                    userId: PeopleStore.publicID(of: entry.person), displayName: entry.person.displayName,
                    hasAvatar: entry.hasAvatar, at: entry.item.at,
                    workout: entry.item.workout.map {
                        .init(
                            runId: $0.runID.uuidString.lowercased(), workoutName: $0.name,
                            activeSeconds: $0.activeSeconds, totalReps: $0.totalReps, cheers: $0.cheers,
                            cheeredByMe: $0.cheeredByMe)
                    },
                    challenge: entry.item.challenge.map {
                        .init(exercise: $0.exercise, seconds: $0.seconds, reps: $0.reps, personalBest: $0.personalBest)
                    })
            },
            nextCursor: page.next?.encoded))))
    }
}
