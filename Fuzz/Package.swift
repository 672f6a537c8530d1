// swift-tools-version:6.2
import PackageDescription

/// The root package's upcoming features (see docs/style.md §1).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

/// libFuzzer targets for the pure model. Build and run them with `scripts/fuzz.sh`; see README.md.
///
/// A separate package, so that the instrumented release build (`-sanitize=fuzzer,address`) has its
/// own build folder and never touches the main build.
let package = Package(
    name: "swift-coaty-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-coaty", path: "..")
    ],
    targets: [
        .systemLibrary(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", .product(name: "CoreTypes", package: "swift-coaty")],
            swiftSettings: swiftSettings
        ),
        fuzzTarget("FuzzJSON"),
        fuzzTarget("FuzzTopics"),
        fuzzTarget("FuzzObjects"),
        fuzzTarget("FuzzEvents"),
        fuzzTarget("FuzzFilters"),
    ],
    swiftLanguageModes: [.v6]
)

/// One libFuzzer executable; its folder under Sources/ has the same name.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "CoreTypes", package: "swift-coaty")],
        swiftSettings: swiftSettings
    )
}
