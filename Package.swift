// swift-tools-version: 6.1
import PackageDescription

/// Settings every Forma target shares: Swift 6 language mode with `ExistentialAny`, so `any` is always spelled out.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "forma",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "forma", targets: ["forma"]),
        .library(name: "FormaCore", targets: ["FormaCore"]),
        .library(name: "FormaMotion", targets: ["FormaMotion"]),
        .library(name: "FormaServer", targets: ["FormaServer"]),
        .library(name: "FormaKit", targets: ["FormaKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/vapor/swift-openapi-vapor.git", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
    ],
    targets: [
        // Pure domain: catalogue, generator, plans, levels. Foundation only.
        .target(
            name: "FormaCore",
            resources: [.copy("Resources/free-exercise-db"), .copy("Resources/quotes")],
            swiftSettings: strictSettings
        ),
        // Pure signal analysis: no IO, no Foundation networking.
        .target(
            name: "FormaMotion",
            swiftSettings: strictSettings
        ),
        // Types generated from openapi.yaml, shared by the server and the SDK.
        .target(
            name: "FormaAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "FormaServer",
            dependencies: [
                "FormaCore",
                "FormaMotion",
                "FormaAPI",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIVapor", package: "swift-openapi-vapor"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The embed page's ES modules and style sheet (docs/embed.md), served under /embed/assets/.
            resources: [.copy("EmbedAssets")],
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "FormaKit",
            dependencies: [
                "FormaCore",
                "FormaMotion",
                "FormaAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The `forma` commands, as a library so that tests can run them the way the binary does.
        .target(
            name: "FormaCLI",
            dependencies: [
                "FormaCore",
                "FormaMotion",
                "FormaServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "forma",
            dependencies: ["FormaCLI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaCoreTests",
            dependencies: ["FormaCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaMotionTests",
            dependencies: ["FormaMotion"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaKitTests",
            dependencies: ["FormaKit", "FormaMotion"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaServerTests",
            dependencies: [
                "FormaServer",
                "FormaMotion",
                "FormaCLI",
                "FormaKit",
                .product(name: "VaporTesting", package: "vapor"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
    ]
)
