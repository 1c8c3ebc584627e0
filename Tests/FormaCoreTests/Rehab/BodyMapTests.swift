import Foundation
import Testing

@testable import FormaCore

@Suite struct BodyMapTests {
    static let map = BodyMap.standard

    /// The centre of a shape's bounding box, inside every shape of the standard map.
    static func centre(_ shape: MapShape) -> MapPoint {
        let xs = shape.vertices.map(\.x), ys = shape.vertices.map(\.y)
        return MapPoint(x: (xs.min()! + xs.max()!) / 2, y: (ys.min()! + ys.max()!) / 2)
    }

    @Test func standardMap_drawsEveryRegionWithSeparateSidesInsideTheFigure() {
        // setup
        let map = Self.map
        var drawn = Set<BodyRegion>()

        for figure in map.figures {
            for area in figure.areas {
                drawn.insert(area.region)
                // verify: coordinates within the 0–1 space, sides as the region's pairing says
                for vertex in area.shapes.flatMap(\.vertices) {
                    #expect((0...1).contains(vertex.x) && (0...1).contains(vertex.y), "\(area.region) \(vertex)")
                }
                #expect(area.region.isPaired == (area.side != .both), "\(figure.view) \(area.region) \(area.side)")
            }
            // verify: a paired region's two sides are separate areas in different halves of the figure
            for region in BodyRegion.allCases where region.isPaired {
                let areas = figure.areas.filter { $0.region == region }
                guard !areas.isEmpty else { continue }
                #expect(Set(areas.map(\.side)) == [.left, .right], "\(figure.view) \(region)")
                for area in areas {
                    let xs = area.shapes.flatMap(\.vertices).map(\.x)
                    #expect(xs.allSatisfy { $0 < 0.5 } || xs.allSatisfy { $0 > 0.5 }, "\(region) crosses the midline")
                }
            }
        }
        #expect(drawn == Set(BodyRegion.allCases))
        #expect(map.hitOrder.count == BodyRegion.allCases.count && Set(map.hitOrder) == Set(BodyRegion.allCases))
    }

    @Test func standardMap_listsAreasInTheDocumentedHitOrder() {
        for figure in Self.map.figures {
            // act
            let positions = figure.areas.map { Self.map.hitOrder.firstIndex(of: $0.region)! }

            // verify
            #expect(positions == positions.sorted(), "\(figure.view)")
        }
    }

    @Test func hitTest_findsEachAreaAtItsCentreOnBothFigures() {
        for figure in Self.map.figures {
            for area in figure.areas {
                // setup
                let point = Self.centre(area.shapes[0])

                // act
                let hit = Self.map.hitTest(view: figure.view, figurePoint: point)

                // verify: the centre belongs to the area, unless an earlier region overlaps it there
                let earlier = figure.areas.prefix { $0 != area }.first { $0.shapes.contains { $0.contains(point) } }
                let expected = earlier.map { BodyMapHit(region: $0.region, side: $0.side) }
                    ?? BodyMapHit(region: area.region, side: area.side)
                #expect(hit == expected, "\(figure.view) \(area.region) \(area.side)")
            }
        }
    }

    @Test func hitTest_mirrorsSidesBetweenFrontAndBack() {
        // setup: the viewer's left knee
        let point = MapPoint(x: 0.41, y: 0.71)

        // act, verify: from the front it is the person's right knee, from behind their left
        #expect(Self.map.hitTest(view: .front, figurePoint: point) == BodyMapHit(region: .knee, side: .right))
        #expect(Self.map.hitTest(view: .back, figurePoint: point) == BodyMapHit(region: .knee, side: .left))
        #expect(
            Self.map.hitTest(view: .front, figurePoint: MapPoint(x: 0.59, y: 0.71))
                == BodyMapHit(region: .knee, side: .left))
    }

    @Test func hitTest_resolvesOverlapsByTheHitOrder() {
        // setup: on the back, the hip's box overlaps the buttock's outer edge; on the front, the knee's box meets
        // the thigh's at y = 0.675
        let hipOverGlute = MapPoint(x: 0.35, y: 0.48)
        let kneeMeetsThigh = MapPoint(x: 0.40, y: 0.675)

        // act, verify
        #expect(Self.map.hitTest(view: .back, figurePoint: hipOverGlute) == BodyMapHit(region: .hip, side: .left))
        #expect(Self.map.hitTest(view: .back, figurePoint: MapPoint(x: 0.42, y: 0.48))?.region == .glute)
        #expect(Self.map.hitTest(view: .front, figurePoint: kneeMeetsThigh)?.region == .knee)
        #expect(Self.map.hitTest(view: .front, figurePoint: MapPoint(x: 0.40, y: 0.674))?.region == .thighFront)
    }

    @Test func hitTest_includesBoxEdgesAndMissesGapsAndTheHead() {
        // setup: the viewer's left wrist box spans x 0.08…0.21, y 0.42…0.53 (person's right on the front)
        let corners = [MapPoint(x: 0.08, y: 0.42), MapPoint(x: 0.21, y: 0.53)]

        for corner in corners {
            // act, verify
            #expect(Self.map.hitTest(view: .front, figurePoint: corner) == BodyMapHit(region: .wrist, side: .right))
        }
        #expect(Self.map.hitTest(view: .front, figurePoint: MapPoint(x: 0.0799, y: 0.45)) == nil)
        #expect(Self.map.hitTest(view: .front, figurePoint: MapPoint(x: 0.5, y: 0.05)) == nil, "the head")
        #expect(Self.map.hitTest(view: .front, figurePoint: MapPoint(x: 0.5, y: 1.01)) == nil, "below the feet")
        #expect(Self.map.hitTest(view: .front, figurePoint: MapPoint(x: 0.5, y: 0.5)) == nil, "between the legs")
    }

    @Test func hitTest_fitsTheFigureCentredInViewsOfAnySize() {
        // setup: a wide view letterboxes the figure left and right, a tall one top and bottom
        let wide = Self.map.fittedFrame(viewWidth: 1000, viewHeight: 400)!
        let tall = Self.map.fittedFrame(viewWidth: 300, viewHeight: 900)!

        // verify
        #expect(wide == (400, 0, 200, 400))
        #expect(tall == (0, 150, 300, 600))
        #expect(Self.map.hitTest(view: .front, x: 100, y: 200, viewWidth: 1000, viewHeight: 400) == nil, "margin")
        // the front chest at figure (0.5, 0.2) in each view
        #expect(Self.map.hitTest(view: .front, x: 500, y: 80, viewWidth: 1000, viewHeight: 400)?.region == .chest)
        #expect(Self.map.hitTest(view: .front, x: 150, y: 270, viewWidth: 300, viewHeight: 900)?.region == .chest)
    }

    @Test func hitTest_inViewPointsAgreesWithFigureCoordinatesForRandomViewsAndTaps() {
        for seed in 0..<400 {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            func uniform(_ range: ClosedRange<Double>) -> Double {
                range.lowerBound + Double(rng.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
            }
            let width = uniform(20...3000), height = uniform(20...3000)
            let frame = Self.map.fittedFrame(viewWidth: width, viewHeight: height)!
            let view: FigureView = rng.next() % 2 == 0 ? .front : .back
            // a point of the figure, or of the margins around it
            let point = MapPoint(x: uniform(-0.2...1.2), y: uniform(-0.2...1.2))

            // act
            let hit = Self.map.hitTest(
                view: view, x: frame.x + point.x * frame.width, y: frame.y + point.y * frame.height,
                viewWidth: width, viewHeight: height)

            // verify
            #expect(abs(frame.width / frame.height - Self.map.aspectRatio) < 1e-9, "seed \(seed)")
            #expect(frame.width <= width + 1e-9 && frame.height <= height + 1e-9, "seed \(seed)")
            #expect(abs(frame.width - width) < 1e-9 || abs(frame.height - height) < 1e-9, "seed \(seed)")
            let expected = Self.map.hitTest(view: view, figurePoint: point)
            let nearEdge = [point.x, point.y].contains { $0.truncatingRemainder(dividingBy: 0.005) < 1e-6 }
            if !nearEdge { #expect(hit == expected, "seed \(seed): \(view) \(point)") }
        }
    }

    @Test func hitTest_rejectsDegenerateInputWithoutCrashing() {
        let map = Self.map
        #expect(map.hitTest(view: .front, x: .nan, y: 10, viewWidth: 100, viewHeight: 200) == nil)
        #expect(map.hitTest(view: .front, x: 50, y: .infinity, viewWidth: 100, viewHeight: 200) == nil)
        #expect(map.hitTest(view: .front, x: 50, y: 40, viewWidth: 0, viewHeight: 200) == nil)
        #expect(map.hitTest(view: .front, x: 50, y: 40, viewWidth: -100, viewHeight: 200) == nil)
        #expect(map.hitTest(view: .back, x: 50, y: 40, viewWidth: 100, viewHeight: .nan) == nil)
    }

    @Test func polygon_containsItsInsideAndNotItsOutside() {
        // setup: a triangle
        let triangle = MapShape.polygon(points: [MapPoint(x: 0, y: 0), MapPoint(x: 1, y: 0), MapPoint(x: 0, y: 1)])

        // verify
        #expect(triangle.contains(MapPoint(x: 0.2, y: 0.2)))
        #expect(!triangle.contains(MapPoint(x: 0.6, y: 0.6)))
        #expect(!MapShape.polygon(points: [MapPoint(x: 0, y: 0), MapPoint(x: 1, y: 1)]).contains(MapPoint(x: 0.5, y: 0.5)))
        #expect(triangle.mirrored.contains(MapPoint(x: 0.8, y: 0.2)) && !triangle.mirrored.contains(MapPoint(x: 0.2, y: 0.5)))
    }

    @Test func map_roundTripsThroughJSONInTheDocumentedShape() throws {
        // act
        let data = try JSONEncoder().encode(Self.map)
        let decoded = try JSONDecoder().decode(BodyMap.self, from: data)
        let text = String(decoding: data, as: UTF8.self)

        // verify
        #expect(decoded == Self.map)
        #expect(text.contains("\"version\":1"))
        #expect(text.contains("\"box\":{") && text.contains("\"polygon\":{\"points\":[[0."))
        #expect(text.contains("\"region\":\"thigh front\""))
    }

    @Test func hitTest_followsTheHitOrderWhateverOrderTheAreasCameIn() throws {
        // setup: a knee box overlapping a thigh box, the thigh listed first, the knee first in the hit order
        let thigh = MapArea(region: .thighFront, side: .left, shapes: [.box(x: 0.2, y: 0.2, width: 0.4, height: 0.4)])
        let knee = MapArea(region: .knee, side: .left, shapes: [.box(x: 0.3, y: 0.5, width: 0.2, height: 0.2)])
        let overlap = MapPoint(x: 0.4, y: 0.55)

        // act
        let map = BodyMap(
            version: 1, aspectRatio: 0.5, figures: [MapFigure(view: .front, areas: [thigh, knee])],
            hitOrder: [.knee, .thighFront])
        let areas = String(decoding: try JSONEncoder().encode([thigh, knee]), as: UTF8.self)
        let json = #"{"version":1,"aspectRatio":0.5,"figures":[{"view":"front","areas":\#(areas)}],"#
            + #""hitOrder":["knee","thigh front"]}"#
        let decoded = try JSONDecoder().decode(BodyMap.self, from: Data(json.utf8))

        // verify
        #expect(map.hitTest(view: .front, figurePoint: overlap)?.region == .knee)
        #expect(map.figure(.front)?.areas.map(\.region) == [.knee, .thighFront])
        #expect(decoded == map)
    }
}
