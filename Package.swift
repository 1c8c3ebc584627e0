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
        .library(name: "FormaMotionLab", targets: ["FormaMotionLab"]),
        .library(name: "FormaServer", targets: ["FormaServer"]),
        .library(name: "FormaKit", targets: ["FormaKit"]),
        .library(name: "FormaLive", targets: ["FormaLive"]),
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
        // Imported directly by FormaServer, FormaKit or the tests (they also come with Vapor and Fluent, but a
        // target declares every package it imports).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.30.0"),
        .package(url: "https://github.com/vapor/fluent-kit.git", from: "1.50.0"),
        .package(url: "https://github.com/vapor/websocket-kit.git", from: "2.15.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.21.0"),
    ],
    targets: [
        // Pure domain: catalogue, generator, plans, levels. Foundation only.
        .target(
            name: "FormaCore",
            resources: [.copy("Resources/free-exercise-db"), .copy("Resources/quotes")],
            swiftSettings: strictSettings
        ),
        // Pure signal analysis: no IO, no Foundation networking. What runs in an app or a live session.
        .target(
            name: "FormaMotion",
            swiftSettings: strictSettings
        ),
        // The /v1/live protocol without IO: frame codec, messages, close codes, session state machine
        // (docs/live-protocol.md). Shared by the server and the SDK.
        .target(
            name: "FormaLive",
            dependencies: ["FormaMotion"],
            swiftSettings: strictSettings
        ),
        // What evaluates and trains the motion engine: dataset readers, gzip, form-quality training and its shipped
        // weights, synthesizers, benchmarks. For the CLI and the tests only; no app links it.
        .target(
            name: "FormaMotionLab",
            dependencies: ["FormaMotion"],
            resources: [.copy("Resources/uiprmd-form-models.json")],
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
                "FormaLive",
                "FormaAPI",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIVapor", package: "swift-openapi-vapor"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "WebSocketKit", package: "websocket-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
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
                "FormaLive",
                "FormaAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
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
                "FormaMotionLab",
                "FormaServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "Logging", package: "swift-log"),
                // `forma bench live`'s WebSocket client.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
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
            dependencies: ["FormaMotion", "FormaMotionLab"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaLiveTests",
            dependencies: ["FormaLive", "FormaMotion"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaKitTests",
            dependencies: ["FormaKit", "FormaLive", "FormaMotion", "FormaMotionLab"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FormaServerTests",
            dependencies: [
                "FormaServer",
                "FormaCore",
                "FormaMotion",
                "FormaLive",
                "FormaMotionLab",
                "FormaCLI",
                "FormaKit",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
    ]
)
