// swift-tools-version:6.2
import PackageDescription

/// Upcoming features every target is compiled with (see docs/style.md §1).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "swift-coaty",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CoreTypes", targets: ["CoreTypes"]),
        .library(name: "Agent", targets: ["Agent"]),
        .library(name: "CoatyStorage", targets: ["CoatyStorage"]),
        .library(name: "CoatyStorageSQLite", targets: ["CoatyStorageSQLite"]),
        .library(name: "CoatyStorageAgent", targets: ["CoatyStorageAgent"]),
        .library(name: "CoatyStoragePostgres", targets: ["CoatyStoragePostgres"]),
        .executable(name: "agent-runner", targets: ["agent-runner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // agent-runner's /metrics and /healthz (`run --metrics`) and its dashboard.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // agent-runner's dashboard pushes its snapshots over a WebSocket.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        // The SQLite storage backend (CoatyStorageSQLite); it links the system's libsqlite3.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // The PostgreSQL storage backend (CoatyStoragePostgres).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // `swift package generate-documentation` (the DocC catalogs; checked in CI, scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "CoreTypes",
            swiftSettings: swiftSettings,
            // Double rounding (Int(exactly:)) calls into libm; CoreTypes imports no Glibc to get it.
            // String comparisons in filters use the toolchain's ICU (module _FoundationICU), as
            // coaty-js's Intl.Collator does; its module map names no library to link.
            linkerSettings: [
                .linkedLibrary("m", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationICU", .when(platforms: [.linux])),
            ]
        ),
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(
            name: "Agent",
            dependencies: [
                "CoreTypes",
                "CMosquitto",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The object store API and its in-memory reference backend (docs/design.md §6).
        .target(
            name: "CoatyStorage",
            dependencies: ["CoreTypes"],
            swiftSettings: swiftSettings
        ),
        // The embedded default backend: SQLite through GRDB.
        .target(
            name: "CoatyStorageSQLite",
            dependencies: [
                "CoatyStorage", "CoreTypes", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // Storage on the network: the recorder controller and live Coaty queries (Agent stays free of storage).
        .target(
            name: "CoatyStorageAgent",
            dependencies: [
                "Agent",
                "CoatyStorage",
                "CoreTypes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server backend: PostgreSQL through postgres-nio.
        .target(
            name: "CoatyStoragePostgres",
            dependencies: [
                "CoatyStorage",
                "CoreTypes",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "agent-runner",
            dependencies: [
                "Agent",
                "CoatyStorage",
                "CoatyStorageAgent",
                "CoatyStoragePostgres",
                "CoatyStorageSQLite",
                "CoreTypes",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The benchmarks (scripts/benchmark.sh runs them all and writes docs/performance.md).
        .target(
            name: "BenchmarkFixtures",
            dependencies: ["CoreTypes"],
            path: "Benchmarks/BenchmarkFixtures",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CoatyBenchmarks",
            dependencies: [
                "Agent",
                "BenchmarkFixtures",
                "CoreTypes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Benchmarks/CoatyBenchmarks",
            swiftSettings: swiftSettings
        ),
        // scripts/benchmark.sh section `storage`: the backends against hand-written SQL.
        .executableTarget(
            name: "StorageBenchmarks",
            dependencies: [
                "CoatyStorage",
                "CoatyStoragePostgres",
                "CoatyStorageSQLite",
                "CoreTypes",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/StorageBenchmarks",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CoatySoak",
            dependencies: ["Agent", "CoreTypes"],
            path: "Benchmarks/CoatySoak",
            swiftSettings: swiftSettings
        ),
        // Agents in a process without Foundation, for the memory and scale figures.
        .executableTarget(
            name: "agent-probe",
            dependencies: [
                "Agent",
                "BenchmarkFixtures",
                "CoreTypes",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/AgentProbe",
            swiftSettings: swiftSettings
        ),
        // The C baseline the messaging benchmarks compare against: libmosquitto without Coaty.
        .executableTarget(
            name: "mqtt-baseline",
            dependencies: ["CMosquitto"],
            path: "Benchmarks/MQTTBaseline",
            linkerSettings: [.linkedLibrary("mosquitto"), .linkedLibrary("pthread")]
        ),
        // The mosquitto broker and child processes the integration and runner tests start, and the
        // conformance vectors every test target reads.
        .target(
            name: "TestSupport",
            dependencies: [
                "Agent",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoreTypesTests",
            // Agent: the inbound event vectors are routed by a real agent (its router and observers).
            dependencies: ["CoreTypes", "Agent", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AgentTests",
            dependencies: [
                "Agent",
                "CoreTypes",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "TestSupport",
                "Agent",
                "CoreTypes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StorageTests",
            // TestSupport: the PostgreSQL server and the brokers the tests start; CoatyStorageAgent
            // and Agent: the historian's tests.
            dependencies: [
                "Agent", "CoatyStorage", "CoatyStorageAgent", "CoatyStorageSQLite", "CoatyStoragePostgres", "CoreTypes",
                "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RunnerTests",
            dependencies: [
                // Built before the tests run; the tests start the agent-runner binary as a child process.
                "agent-runner",
                "TestSupport",
                "Agent",
                "CoreTypes",
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
