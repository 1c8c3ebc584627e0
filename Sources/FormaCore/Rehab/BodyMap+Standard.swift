extension BodyMap {
    /// The map Forma ships: a standing figure, arms slightly away from the body, twice as tall as it is wide.
    ///
    /// Shapes are drawn for the viewer's left half and mirrored for the right, so the two sides of a paired region
    /// are separate areas that never touch (both wrists are two boxes, far apart). The head, upper arms and
    /// forearms carry no region: a tap there hits nothing. docs/rehab.md draws the layout.
    public static let standard = BodyMap(
        version: 1, aspectRatio: 0.5,
        figures: [
            MapFigure(view: .front, areas: frontAreas),
            MapFigure(view: .back, areas: backAreas),
        ],
        hitOrder: standardHitOrder)

    /// Joints first, then the segments between them, then the trunk: where a joint's box meets a segment's, a tap
    /// means the joint, which is smaller and where pain is more often felt.
    static let standardHitOrder: [BodyRegion] = [
        .wrist, .elbow, .ankle, .knee, .neck, .shoulder, .hip,
        .lowerLeg, .thighFront, .thighBack, .glute, .chest, .abdomen, .upperBack, .lowerBack,
    ]

    /// Shapes on the viewer's left half of the figure, shared by the front and the back.
    private static let limbs: [(BodyRegion, [MapShape])] = [
        (.shoulder, [.polygon(points: [
            MapPoint(x: 0.38, y: 0.150), MapPoint(x: 0.38, y: 0.215), MapPoint(x: 0.25, y: 0.225),
            MapPoint(x: 0.27, y: 0.165),
        ])]),
        (.elbow, [.box(x: 0.17, y: 0.29, width: 0.11, height: 0.06)]),
        (.wrist, [.box(x: 0.08, y: 0.42, width: 0.13, height: 0.11)]),
        (.knee, [.box(x: 0.35, y: 0.675, width: 0.13, height: 0.07)]),
        (.lowerLeg, [.box(x: 0.36, y: 0.745, width: 0.11, height: 0.155)]),
        (.ankle, [.box(x: 0.33, y: 0.90, width: 0.15, height: 0.10)]),
    ]

    private static let neck = MapArea(region: .neck, side: .both, shapes: [.box(x: 0.44, y: 0.11, width: 0.12, height: 0.045)])

    private static var frontAreas: [MapArea] {
        // From the front the viewer's left is the person's right.
        paired(limbs + [
            (.hip, [.box(x: 0.33, y: 0.44, width: 0.14, height: 0.08)]),
            (.thighFront, [.box(x: 0.34, y: 0.52, width: 0.15, height: 0.155)]),
        ], viewerLeft: .right) + [
            neck,
            MapArea(region: .chest, side: .both, shapes: [.box(x: 0.38, y: 0.155, width: 0.24, height: 0.145)]),
            MapArea(region: .abdomen, side: .both, shapes: [.box(x: 0.38, y: 0.30, width: 0.24, height: 0.14)]),
        ]
    }

    private static var backAreas: [MapArea] {
        // From behind the viewer's left is the person's left. The hip's box sits at the side, over the greater
        // trochanter, and claims the buttock's outer edge.
        paired(limbs + [
            (.hip, [.box(x: 0.31, y: 0.44, width: 0.05, height: 0.08)]),
            (.glute, [.box(x: 0.34, y: 0.44, width: 0.155, height: 0.10)]),
            (.thighBack, [.box(x: 0.34, y: 0.54, width: 0.15, height: 0.135)]),
        ], viewerLeft: .left) + [
            neck,
            MapArea(region: .upperBack, side: .both, shapes: [.box(x: 0.38, y: 0.155, width: 0.24, height: 0.165)]),
            MapArea(region: .lowerBack, side: .both, shapes: [.box(x: 0.38, y: 0.32, width: 0.24, height: 0.12)]),
        ]
    }

    /// An area per side for each shape list: as given for `viewerLeft`, mirrored for the other side.
    private static func paired(_ shapes: [(BodyRegion, [MapShape])], viewerLeft: BodySide) -> [MapArea] {
        let other: BodySide = viewerLeft == .left ? .right : .left
        return shapes.flatMap { region, shapes in
            [MapArea(region: region, side: viewerLeft, shapes: shapes),
             MapArea(region: region, side: other, shapes: shapes.map(\.mirrored))]
        }
    }
}
