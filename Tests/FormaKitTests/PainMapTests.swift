import FormaKit
import Foundation
import Testing

/// The pain map's hit test through FormaKit's public surface, as `PainMapView` uses it (the view itself is SwiftUI).
@Suite("PainMap")
struct PainMapTests {
    let map = PainMap.standard

    @Test func aTapOnAFittedFigureFindsTheRegionAndSide() {
        // setup: a 300 × 700 view fits the 1:2 figure at 300 × 600, 50 points below the top
        let frame = map.fittedFrame(viewWidth: 300, viewHeight: 700)
        // The front figure shows the person's left on the viewer's right: the left knee box is x 0.52–0.65,
        // y 0.675–0.745.
        func tap(_ figure: PainMap.Figure, _ x: Double, _ y: Double) -> PainMap.Hit? {
            map.hit(on: figure, x: 300 * x, y: 50 + 600 * y, viewWidth: 300, viewHeight: 700)
        }

        // act and verify
        #expect(frame?.x == 0 && frame?.y == 50 && frame?.width == 300 && frame?.height == 600)
        #expect(tap(.front, 0.585, 0.71) == PainMap.Hit(region: "knee", side: "left", label: "Left knee"))
        #expect(tap(.back, 0.585, 0.71)?.side == "right")  // from behind, the viewer's right is the person's right
        #expect(tap(.front, 0.5, 0.13)?.label == "Neck")
        #expect(tap(.front, 0.15, 0.47)?.label == "Right wrist and hand")
        // the knee's top edge is the thigh's bottom edge: the joint wins (the map's hit order)
        #expect(tap(.front, 0.585, 0.675)?.region == "knee")
        // the head carries no region; the view's top margin is outside the figure
        #expect(tap(.front, 0.5, 0.05) == nil)
        #expect(map.hit(on: .front, x: 150, y: 20, viewWidth: 300, viewHeight: 700) == nil)
    }

    @Test func theHitIsTheSameAtAnyViewSize() {
        // setup: the centre of every area, in views from a watch to a tablet, wide and tall
        let sizes: [(Double, Double)] = [(120, 150), (300, 700), (768, 1024), (1024, 400), (57, 1000)]
        for figure in PainMap.Figure.allCases {
            for area in map.areas(on: figure) {
                let outline = area.outlines[0]
                // A box's centre, or a polygon's vertex average (the shoulders are convex).
                let cx = outline.map(\.x).reduce(0, +) / Double(outline.count)
                let cy = outline.map(\.y).reduce(0, +) / Double(outline.count)
                for (width, height) in sizes {
                    // act
                    guard let frame = map.fittedFrame(viewWidth: width, viewHeight: height) else {
                        Issue.record("no frame for \(width) × \(height)")
                        continue
                    }
                    let hit = map.hit(
                        on: figure, x: frame.x + cx * frame.width, y: frame.y + cy * frame.height, viewWidth: width,
                        viewHeight: height)

                    // verify
                    #expect(hit == area.hit, "\(area.id) in \(width) × \(height)")
                }
            }
        }
    }

    @Test func everyAreaIsLabelledAndListedHeadToFoot() {
        // act
        let front = map.areas(on: .front)
        let back = map.areas(on: .back)

        // verify
        #expect(front.count == 19 && back.count == 21)
        #expect(front.first?.hit.label == "Neck" && front.last?.hit.label == "Left ankle and foot")
        #expect(Set(front.map(\.id)).count == front.count)
        #expect(back.contains { $0.hit == PainMap.Hit(region: "glute", side: "left", label: "Left buttock") })
        #expect(!front.contains { $0.hit.region == "glute" })
    }

    @Test func degenerateViewsAndTapsHitNothing() {
        #expect(map.hit(on: .front, x: .nan, y: 10, viewWidth: 300, viewHeight: 600) == nil)
        #expect(map.hit(on: .front, x: 10, y: 10, viewWidth: 0, viewHeight: 600) == nil)
        #expect(map.hit(on: .front, x: 10, y: 10, viewWidth: 300, viewHeight: -.infinity) == nil)
        #expect(map.fittedFrame(viewWidth: .nan, viewHeight: 10) == nil)
    }

    @Test func thePageEventOfASavedReportDecodes() throws {
        let message = #"{"type":"pain_reported","data":{"id":"5d1c","region":"knee","side":"left","intensity":8,"kind":"sharp","when":"movement","reportedAt":"2026-11-25T13:00:00Z"}}"#
        guard case .painReported(let report) = try FormaEvent(message: message) else {
            Issue.record("not decoded as pain_reported")
            return
        }
        #expect(report.id == "5d1c" && report.region == "knee" && report.side == "left" && report.intensity == 8)
        #expect(report.kind == "sharp" && report.when == "movement" && report.reportedAt == "2026-11-25T13:00:00Z")
    }
}
