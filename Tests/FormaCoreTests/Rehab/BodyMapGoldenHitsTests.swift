import FormaCore
import Foundation
import Testing

/// The standard map's hits over a grid of figure points, stored in Tests/Fixtures/body-map/hits.json: the browser
/// test runs the embed page's own hit test (pain-map.js) over the same grid and must find the same regions, so a tap
/// means the same thing in the page, in FormaKit and on the server.
@Suite("Body map golden hits")
struct BodyMapGoldenHitsTests {
    struct Golden: Codable, Equatable {
        /// Points are x = column / (columns − 1), y = row / (rows − 1), row by row.
        var columns: Int
        var rows: Int
        /// Per figure, `region/side` of each point, or "" where nothing is hit.
        var figures: [String: [String]]
    }

    static let goldenURL: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/body-map/hits.json")
    }()

    static func hits(columns: Int, rows: Int) -> Golden {
        var figures: [String: [String]] = [:]
        for view in FigureView.allCases {
            var hits: [String] = []
            for row in 0..<rows {
                for column in 0..<columns {
                    let point = MapPoint(x: Double(column) / Double(columns - 1), y: Double(row) / Double(rows - 1))
                    hits.append(
                        BodyMap.standard.hitTest(view: view, figurePoint: point)
                            .map { "\($0.region.rawValue)/\($0.side.rawValue)" } ?? "")
                }
            }
            figures[view.rawValue] = hits
        }
        return Golden(columns: columns, rows: rows, figures: figures)
    }

    @Test func theStoredGridIsTheCoresHitTest() throws {
        // setup: a grid whose lines fall on many box edges (multiples of 1/40 across, 1/80 down)
        let fresh = Self.hits(columns: 41, rows: 81)
        if ProcessInfo.processInfo.environment["FORMA_WRITE_GOLDEN_HITS"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try FileManager.default.createDirectory(
                at: Self.goldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(fresh).write(to: Self.goldenURL)
        }

        // act
        let golden = try JSONDecoder().decode(Golden.self, from: Data(contentsOf: Self.goldenURL))

        // verify: the fixture is current, and covers every area of both figures
        #expect(golden == fresh, "rewrite it with FORMA_WRITE_GOLDEN_HITS=1 after changing the map")
        for figure in BodyMap.standard.figures {
            let seen = Set(golden.figures[figure.view.rawValue] ?? [])
            for area in figure.areas {
                #expect(seen.contains("\(area.region.rawValue)/\(area.side.rawValue)"), "\(figure.view) \(area.region)")
            }
        }
    }
}
