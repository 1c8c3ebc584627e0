import FormaAPI
import FormaCore
import Foundation

/// The body map a pain map draws and hit-tests: FormaCore's map (the one `GET /v1/body-map` serves), in FormaKit's
/// own terms, so an app neither imports FormaCore nor copies the shapes.
///
/// Figures live in a 0–1 space fitted whole into the view (aspect-fit, centred); ``hit(on:x:y:viewWidth:viewHeight:)``
/// maps a tap in view points to a region and side by the map's hit order (docs/rehab.md, "Hit test").
public struct PainMap: Sendable, Equatable {
    let map: BodyMap

    /// The map this version of FormaKit ships; the same value the server serves.
    public static let standard = PainMap(map: .standard)

    init(map: BodyMap) {
        self.map = map
    }

    /// Increases whenever a shape or the hit order changes.
    public var version: Int { map.version }
    /// A figure's width over its height.
    public var aspectRatio: Double { map.aspectRatio }

    public enum Figure: String, Sendable, Hashable, CaseIterable {
        case front, back
    }

    /// A point of a figure, 0–1 on both axes (`y` from the head down).
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// Where a tap landed: a region id (`knee`, `lower back`), its side (`left`, `right`, or `both` for a midline
    /// region) and a label for people ("Left knee").
    public struct Hit: Sendable, Hashable {
        public var region: String
        public var side: String
        public var label: String

        public init(region: String, side: String, label: String) {
            self.region = region
            self.side = side
            self.label = label
        }
    }

    /// One region and side as drawn on one figure: its outlines (boxes as four corners, polygons as given).
    public struct Area: Sendable, Hashable, Identifiable {
        public var figure: Figure
        public var hit: Hit
        public var outlines: [[Point]]
        public var id: String { "\(figure.rawValue)/\(hit.region)/\(hit.side)" }
    }

    /// The region and side under a tap at (`x`, `y`) in a view of `viewWidth` × `viewHeight` points showing
    /// `figure` fitted whole and centred; `nil` outside every region, in the margins, or for a degenerate view.
    public func hit(on figure: Figure, x: Double, y: Double, viewWidth: Double, viewHeight: Double) -> Hit? {
        guard let view = FigureView(rawValue: figure.rawValue) else { return nil }
        return map.hitTest(view: view, x: x, y: y, viewWidth: viewWidth, viewHeight: viewHeight).map(Self.hit)
    }

    /// Where a figure sits in a view of `viewWidth` × `viewHeight` points, or `nil` for a degenerate view.
    public func fittedFrame(viewWidth: Double, viewHeight: Double)
        -> (x: Double, y: Double, width: Double, height: Double)?
    {
        map.fittedFrame(viewWidth: viewWidth, viewHeight: viewHeight)
    }

    /// The areas of `figure` head to foot (the order for VoiceOver and the keyboard), the person's right side first.
    public func areas(on figure: Figure) -> [Area] {
        guard let view = FigureView(rawValue: figure.rawValue), let drawn = map.figure(view) else { return [] }
        let sideRank: [BodySide: Int] = [.right: 0, .both: 1, .left: 2]
        let regionRank = Dictionary(uniqueKeysWithValues: BodyRegion.allCases.enumerated().map { ($1, $0) })
        return drawn.areas
            .sorted {
                (regionRank[$0.region] ?? 0, sideRank[$0.side] ?? 0) < (regionRank[$1.region] ?? 0, sideRank[$1.side] ?? 0)
            }
            .map { area in
                Area(
                    figure: figure, hit: Self.hit(BodyMapHit(region: area.region, side: area.side)),
                    outlines: area.shapes.map { $0.vertices.map { Point(x: $0.x, y: $0.y) } })
            }
    }

    static func hit(_ hit: BodyMapHit) -> Hit {
        let label = hit.region.label
        let text = switch hit.side {
        case .both: label
        case .left, .right:
            (hit.side == .left ? "Left " : "Right ") + label.prefix(1).lowercased() + label.dropFirst()
        }
        return Hit(region: hit.region.rawValue, side: hit.side.rawValue, label: text)
    }
}

extension PainMap {
    /// The map from the server's answer; a region or side this FormaKit does not know is a decoding error.
    init(_ schema: Components.Schemas.BodyMap) throws(FormaError) {
        func region(_ raw: String) throws(FormaError) -> BodyRegion {
            guard let region = BodyRegion(rawValue: raw) else {
                throw FormaError.unexpectedResponse("the server's body map has a region this FormaKit does not know: '\(raw)'")
            }
            return region
        }
        var figures: [MapFigure] = []
        for figure in schema.figures {
            var areas: [MapArea] = []
            for area in figure.areas {
                let shapes = area.shapes.compactMap { shape -> MapShape? in
                    if let box = shape.box { return .box(x: box.x, y: box.y, width: box.width, height: box.height) }
                    if let polygon = shape.polygon {
                        return .polygon(points: polygon.points.compactMap { $0.count == 2 ? MapPoint(x: $0[0], y: $0[1]) : nil })
                    }
                    return nil
                }
                areas.append(MapArea(
                    region: try region(area.region), side: BodySide(rawValue: area.side.rawValue) ?? .both,
                    shapes: shapes))
            }
            figures.append(MapFigure(view: FigureView(rawValue: figure.view.rawValue) ?? .front, areas: areas))
        }
        var order: [BodyRegion] = []
        for raw in schema.hitOrder { order.append(try region(raw)) }
        self.init(map: BodyMap(version: schema.version, aspectRatio: schema.aspectRatio, figures: figures, hitOrder: order))
    }
}
