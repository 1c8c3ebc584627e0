#if canImport(SwiftUI)
import SwiftUI

/// A tap-to-select body figure on ``PainMap``: the same shapes and hit test as the embed page's `/embed/pain-map`.
///
/// A tap selects the region under it by the map's hit order (so overlapping areas resolve as on the server and the
/// page); each region is also an accessibility element, labelled ("Left knee, front"), a button, selected when
/// chosen, activated by VoiceOver, Switch Control or Full Keyboard Access. `intensities` (region id → 0–10) tints
/// regions in pain, as the current pain (`GET /v1/me/pain`) reports them.
///
/// ```swift
/// @State var selection: PainMap.Hit?
/// PainMapView(figure: .front, selection: $selection, intensities: ["knee": 7])
/// ```
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct PainMapView: View {
    let map: PainMap
    let figure: PainMap.Figure
    @Binding var selection: PainMap.Hit?
    let intensities: [String: Int]

    public init(
        map: PainMap = .standard, figure: PainMap.Figure, selection: Binding<PainMap.Hit?>,
        intensities: [String: Int] = [:]
    ) {
        self.map = map
        self.figure = figure
        _selection = selection
        self.intensities = intensities
    }

    public var body: some View {
        GeometryReader { proxy in
            let size = proxy.size
            ZStack {
                ForEach(map.areas(on: figure)) { area in
                    let selected = selection == area.hit
                    PainMapAreaShape(outlines: area.outlines, aspectRatio: map.aspectRatio)
                        .fill(fill(for: area, selected: selected))
                        .overlay(
                            PainMapAreaShape(outlines: area.outlines, aspectRatio: map.aspectRatio)
                                .stroke(selected ? Color.accentColor : Color.secondary, lineWidth: selected ? 3 : 1))
                        .accessibilityElement()
                        .accessibilityLabel("\(area.hit.label), \(figure.rawValue)")
                        .accessibilityValue(intensities[area.hit.region].map { "pain \($0) out of 10" } ?? "")
                        .accessibilityAddTraits(selected ? [.isButton, .isSelected] : .isButton)
                        .accessibilityAction { selection = area.hit }
                }
            }
            .contentShape(Rectangle())
            .gesture(SpatialTapGesture().onEnded { tap in
                if let hit = map.hit(
                    on: figure, x: tap.location.x, y: tap.location.y, viewWidth: size.width, viewHeight: size.height)
                {
                    selection = hit
                }
            })
        }
        .aspectRatio(map.aspectRatio, contentMode: .fit)
    }

    private func fill(for area: PainMap.Area, selected: Bool) -> Color {
        if selected { return Color.accentColor.opacity(0.7) }
        switch intensities[area.hit.region] ?? 0 {
        case 6...: return Color.red.opacity(0.6)
        case 1...: return Color.orange.opacity(0.45)
        default: return Color.gray.opacity(0.25)
        }
    }
}

/// An area's outlines in a view, fitted as ``PainMap/fittedFrame(viewWidth:viewHeight:)`` fits the figure.
struct PainMapAreaShape: Shape {
    let outlines: [[PainMap.Point]]
    let aspectRatio: Double

    func path(in rect: CGRect) -> Path {
        let height = min(rect.height, rect.width / aspectRatio)
        let width = height * aspectRatio
        let origin = CGPoint(x: rect.minX + (rect.width - width) / 2, y: rect.minY + (rect.height - height) / 2)
        var path = Path()
        for outline in outlines {
            let points = outline.map { CGPoint(x: origin.x + $0.x * width, y: origin.y + $0.y * height) }
            guard let first = points.first else { continue }
            path.move(to: first)
            for point in points.dropFirst() { path.addLine(to: point) }
            path.closeSubpath()
        }
        return path
    }
}
#endif
