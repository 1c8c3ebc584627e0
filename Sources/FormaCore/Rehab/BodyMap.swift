/// A point of a body figure, in the figure's 0–1 coordinate space: `x` from its left edge to its right, `y` from
/// the top of the head to the soles.
public struct MapPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Encoded as `[x, y]`, the compact form drawing code wants.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

/// One shape of a region on a figure: an axis-aligned box or a polygon, in figure coordinates.
///
/// JSON: `{"box": {"x": …, "y": …, "width": …, "height": …}}` or `{"polygon": {"points": [[x, y], …]}}`.
public enum MapShape: Sendable, Hashable, Codable {
    /// The box from (`x`, `y`) to (`x + width`, `y + height`), edges included.
    case box(x: Double, y: Double, width: Double, height: Double)
    /// A simple polygon, its vertices in order; the even-odd rule decides inside.
    case polygon(points: [MapPoint])

    /// Whether `point` is inside the shape. Points on a box's edges are inside; on a polygon's edges, it depends on
    /// the edge (the usual half-open crossing rule), which is why Forma's maps use boxes where regions meet.
    public func contains(_ point: MapPoint) -> Bool {
        switch self {
        case .box(let x, let y, let width, let height):
            return point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
        case .polygon(let vertices):
            guard vertices.count >= 3 else { return false }
            var inside = false
            var previous = vertices[vertices.count - 1]
            for vertex in vertices {
                if (vertex.y > point.y) != (previous.y > point.y) {
                    let crossing = (previous.x - vertex.x) * (point.y - vertex.y) / (previous.y - vertex.y) + vertex.x
                    if point.x < crossing { inside.toggle() }
                }
                previous = vertex
            }
            return inside
        }
    }

    /// The shape's vertices: a box's four corners clockwise from top left.
    public var vertices: [MapPoint] {
        switch self {
        case .box(let x, let y, let width, let height):
            [MapPoint(x: x, y: y), MapPoint(x: x + width, y: y), MapPoint(x: x + width, y: y + height),
             MapPoint(x: x, y: y + height)]
        case .polygon(let vertices): vertices
        }
    }

    /// The shape reflected about the figure's vertical midline (`x = 0.5`), for the other side of the body.
    public var mirrored: MapShape {
        switch self {
        case .box(let x, let y, let width, let height): .box(x: 1 - x - width, y: y, width: width, height: height)
        case .polygon(let vertices): .polygon(points: vertices.reversed().map { MapPoint(x: 1 - $0.x, y: $0.y) })
        }
    }
}

/// Which way a figure faces.
public enum FigureView: String, Sendable, Hashable, Codable, CaseIterable {
    /// Seen from the front: the person's right side is on the viewer's left (x < 0.5).
    case front
    /// Seen from behind: the person's left side is on the viewer's left (x < 0.5).
    case back
}

/// A region, on one side, as drawn on one figure.
public struct MapArea: Sendable, Hashable, Codable {
    public var region: BodyRegion
    /// `left` or `right` for one of a paired region's two areas; `both` for a midline region's single area.
    public var side: BodySide
    public var shapes: [MapShape]

    public init(region: BodyRegion, side: BodySide, shapes: [MapShape]) {
        self.region = region
        self.side = side
        self.shapes = shapes
    }
}

/// One figure of the map: the areas drawn on it, in hit-test order.
public struct MapFigure: Sendable, Hashable, Codable {
    public var view: FigureView
    /// Areas in the order the hit test tries them: the first area containing a tap wins.
    public var areas: [MapArea]

    public init(view: FigureView, areas: [MapArea]) {
        self.view = view
        self.areas = areas
    }
}

/// Where a tap landed: a region and a side.
public struct BodyMapHit: Sendable, Hashable, Codable {
    public var region: BodyRegion
    public var side: BodySide

    public init(region: BodyRegion, side: BodySide) {
        self.region = region
        self.side = side
    }
}

/// The body map as data: a front and a back figure whose regions are boxes and polygons in a 0–1 space, so one map
/// fits every screen, and a hit test from a tap in a view to a region.
///
/// It is Codable so that a server can send it and clients draw and hit-test the same value (`GET /v1/body-map`
/// serves ``standard``); ``version`` changes whenever a shape does, so clients can cache it.
public struct BodyMap: Sendable, Hashable, Codable {
    /// Increases whenever any shape or the hit order changes.
    public var version: Int
    /// Width of a figure divided by its height. A figure is drawn at this aspect ratio; its 0–1 `x` spans the
    /// width and its 0–1 `y` the height.
    public var aspectRatio: Double
    /// The figures, front then back.
    public let figures: [MapFigure]
    /// The order in which overlapping regions claim a tap, most specific first; every figure lists its areas in
    /// this order.
    public let hitOrder: [BodyRegion]

    /// A map whose figures list their areas in `hitOrder`, so the hit test tries them in that order.
    ///
    /// Areas are reordered by their region's place in `hitOrder` (areas of one region, and of regions it leaves out,
    /// keep their given order; the latter go last). Decoding goes through here too.
    public init(version: Int, aspectRatio: Double, figures: [MapFigure], hitOrder: [BodyRegion]) {
        self.version = version
        self.aspectRatio = aspectRatio
        self.hitOrder = hitOrder
        let rank = Dictionary(hitOrder.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: min)
        // Stable: the sort keeps equal elements in their given order.
        self.figures = figures.map { figure in
            MapFigure(view: figure.view, areas: figure.areas.sorted {
                rank[$0.region, default: hitOrder.count] < rank[$1.region, default: hitOrder.count]
            })
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            version: try container.decode(Int.self, forKey: .version),
            aspectRatio: try container.decode(Double.self, forKey: .aspectRatio),
            figures: try container.decode([MapFigure].self, forKey: .figures),
            hitOrder: try container.decode([BodyRegion].self, forKey: .hitOrder))
    }

    /// The figure facing `view`, if the map has one.
    public func figure(_ view: FigureView) -> MapFigure? { figures.first { $0.view == view } }

    /// Where the figure sits in a view of `viewWidth` × `viewHeight` points: fitted whole (aspect-fit) and centred,
    /// as SwiftUI's `.scaledToFit()` and SVG's `preserveAspectRatio="xMidYMid meet"` place it.
    ///
    /// - Returns: The figure's origin and size in view points, or `nil` for a view with a non-positive or
    ///   non-finite side.
    public func fittedFrame(viewWidth: Double, viewHeight: Double)
        -> (x: Double, y: Double, width: Double, height: Double)?
    {
        guard viewWidth.isFinite, viewHeight.isFinite, viewWidth > 0, viewHeight > 0, aspectRatio > 0 else {
            return nil
        }
        let height = min(viewHeight, viewWidth / aspectRatio)
        let width = height * aspectRatio
        return ((viewWidth - width) / 2, (viewHeight - height) / 2, width, height)
    }

    /// The region and side under a tap at (`x`, `y`) view points in a view of `viewWidth` × `viewHeight` showing
    /// the `view` figure fitted as ``fittedFrame(viewWidth:viewHeight:)`` places it.
    ///
    /// Areas are tried in ``hitOrder``; the first containing the tap wins. A tap outside the figure, between
    /// regions, or with non-finite coordinates hits nothing.
    /// - Complexity: O(vertices of the figure).
    public func hitTest(view: FigureView, x: Double, y: Double, viewWidth: Double, viewHeight: Double)
        -> BodyMapHit?
    {
        guard x.isFinite, y.isFinite, let frame = fittedFrame(viewWidth: viewWidth, viewHeight: viewHeight) else {
            return nil
        }
        let point = MapPoint(x: (x - frame.x) / frame.width, y: (y - frame.y) / frame.height)
        return hitTest(view: view, figurePoint: point)
    }

    /// The region and side at `point` in figure coordinates (0–1 on both axes), tried in ``hitOrder``.
    public func hitTest(view: FigureView, figurePoint point: MapPoint) -> BodyMapHit? {
        guard (0...1).contains(point.x), (0...1).contains(point.y), let figure = figure(view) else { return nil }
        for area in figure.areas where area.shapes.contains(where: { $0.contains(point) }) {
            return BodyMapHit(region: area.region, side: area.side)
        }
        return nil
    }
}
