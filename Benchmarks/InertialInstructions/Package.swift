// swift-tools-version: 6.1
import PackageDescription

// The release binary that Benchmarks/inertial-instructions.py runs under callgrind: FormaMotion and FormaMotionLab
// are the main package's own sources (symlinked), and the workload is the CLI's `InertialBenchmark.swift` (symlinked),
// so that a release build of the inertial engine does not build the server. Build it with
//     swift build -c release --package-path Benchmarks/InertialInstructions
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "InertialInstructions",
    platforms: [.macOS(.v14), .iOS(.v17)],
    targets: [
        .target(name: "FormaMotion", swiftSettings: strictSettings),
        .target(
            name: "FormaMotionLab",
            dependencies: ["FormaMotion"],
            resources: [.copy("Resources/uiprmd-form-models.json")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "InertialInstructions",
            dependencies: ["FormaMotion", "FormaMotionLab"],
            swiftSettings: strictSettings
        ),
    ]
)
