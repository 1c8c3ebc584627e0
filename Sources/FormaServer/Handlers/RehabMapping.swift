import Crypto
import FormaAPI
import FormaCore
import Foundation

/// The body map as the API serves it, with its entity tag.
struct PublishedBodyMap: Sendable {
    let schema: Components.Schemas.BodyMap
    /// A strong tag over the map's canonical JSON: it changes whenever any shape, label or order does.
    let entityTag: String

    /// Clients may keep the map for a day, then revalidate with `If-None-Match`.
    static let cacheControl = "public, max-age=86400"

    static let standard = PublishedBodyMap(BodyMap.standard)

    init(_ map: BodyMap) {
        schema = RehabMapping.bodyMap(map)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = (try? encoder.encode(schema)) ?? Data("\(map.version)".utf8)
        let digest = SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined()
        entityTag = "\"body-map-v\(map.version)-\(digest)\""
    }
}

/// FormaCore's rehab values and stored pain reports as the API's schemas.
enum RehabMapping {
    /// Regions a body has two of: those the map draws with a left and a right area.
    static func pairedRegions(_ map: BodyMap) -> Set<BodyRegion> {
        Set(map.figures.flatMap(\.areas).filter { $0.side != .both }.map(\.region))
    }

    static func bodyMap(_ map: BodyMap) -> Components.Schemas.BodyMap {
        let paired = pairedRegions(map)
        return .init(
            version: map.version, aspectRatio: map.aspectRatio,
            figures: map.figures.map { figure in
                .init(
                    view: .init(rawValue: figure.view.rawValue) ?? .front,
                    areas: figure.areas.map { area in
                        .init(
                            region: area.region.rawValue, side: .init(rawValue: area.side.rawValue) ?? .both,
                            shapes: area.shapes.map(shape))
                    })
            },
            hitOrder: map.hitOrder.map(\.rawValue),
            regions: BodyRegion.allCases.map { .init(id: $0.rawValue, label: $0.label, paired: paired.contains($0)) })
    }

    static func shape(_ shape: MapShape) -> Components.Schemas.BodyMapShape {
        switch shape {
        case .box(let x, let y, let width, let height):
            .init(box: .init(x: x, y: y, width: width, height: height))
        case .polygon(let points):
            .init(polygon: .init(points: points.map { [$0.x, $0.y] }))
        }
    }

    static func report(_ row: PainReportModel) throws -> Components.Schemas.PainReport {
        .init(
            id: try row.requireID().uuidString.lowercased(), region: row.region,
            side: .init(rawValue: row.side) ?? .both, intensity: row.intensity,
            kind: .init(rawValue: row.kind) ?? .aching, when: .init(rawValue: row.timing) ?? .rest, note: row.note,
            reportedAt: row.reportedAt)
    }

    static func restriction(_ kind: PainRestriction.Kind) -> Components.Schemas.PainRestriction.RestrictionPayload {
        switch kind {
        case .avoid: .avoid
        case .lowLoadOnly: .lowLoadOnly
        }
    }

    static func state(_ state: PainState, asOf now: Date) -> Components.Schemas.PainState {
        .init(
            asOf: now, windowDays: Int(PainState.window / 86_400),
            regions: state.regions.compactMap { pain in
                guard let kind = PainRules.restriction(forIntensity: pain.intensity) else { return nil }
                return .init(
                    region: pain.region.rawValue, label: pain.region.label, intensity: pain.intensity,
                    side: .init(rawValue: pain.side.rawValue) ?? .both, kind: .init(rawValue: pain.kind.rawValue) ?? .aching,
                    when: .init(rawValue: pain.when.rawValue) ?? .rest, reportedAt: pain.reportedAt,
                    restriction: kind == .avoid ? .avoid : .lowLoadOnly)
            })
    }

    /// The `region` query parameter as a body-map region; `nil` when absent, 400 naming the parameter when unknown.
    static func region(_ raw: String?) throws(InputError) -> BodyRegion? {
        guard let raw else { return nil }
        guard let region = BodyRegion(rawValue: raw) else {
            throw .badParameter(FieldIssue(
                field: "region",
                message: "'\(raw)' is not a body-map region; use one of "
                    + BodyRegion.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        return region
    }

    /// `adjustment` as stored with its workout (`workouts.pain`); `nil` stays `nil`.
    static func encoded(_ adjustment: Components.Schemas.WorkoutPainAdjustment?) throws -> Data? {
        try adjustment.map { try WorkoutStore.codec.encoder.encode($0) }
    }

    /// The stored pain section of a workout; `nil` when it has none.
    static func storedAdjustment(_ data: Data?) throws -> Components.Schemas.WorkoutPainAdjustment? {
        try data.map { try WorkoutStore.codec.decoder.decode(Components.Schemas.WorkoutPainAdjustment.self, from: $0) }
    }

    /// How pain shaped a generated workout; `nil` when nothing hurt.
    static func adjustment(_ workout: PainAwareWorkout) -> Components.Schemas.WorkoutPainAdjustment? {
        workout.painSection.map(adjustment)
    }

    /// A workout's pain section (the generator's, or the trainer's) as the API's.
    static func adjustment(_ workout: WorkoutPainSection) -> Components.Schemas.WorkoutPainAdjustment {
        .init(
            restrictions: workout.restrictions.map {
                .init(
                    region: $0.region.rawValue, intensity: $0.intensity, restriction: restriction($0.kind),
                    reason: $0.explanation.prefix(1).uppercased() + $0.explanation.dropFirst())
            },
            leftOut: workout.leftOut.map {
                .init(
                    exerciseId: $0.exerciseID, name: $0.name, region: $0.restriction.region.rawValue,
                    restriction: .init(rawValue: restriction($0.restriction.kind).rawValue) ?? .avoid,
                    reason: $0.explanation)
            })
    }
}
