// swift-tools-version:6.2
import PackageDescription

/// FoundationNetworking (which only the tests link on Linux, through ToDoURLSession) asks the linker
/// for libcurl, which would then be loaded at every start; CurlLoader loads it when it is needed instead.
let withoutLinkingCurl: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "curl"], .when(platforms: [.linux]))
]

/// The libraries and their tests alone, with the list renderer's (which writes a long list in
/// two halves, on two threads), without the executable, HTTP and the command line's other tests:
/// `.ci/run`'s sanitizer builds, which test the code with pointers and threads, each in half the
/// time. Set `TODO_LIBRARY_TESTS_ONLY=1` to build so.
let libraryTestsOnly = Context.environment["TODO_LIBRARY_TESTS_ONLY"] != nil

/// The targets left out then.
let executableTargets: Set = ["CurlLoader", "ToDoNetwork", "ToDoURLSession", "todo"]

let package = Package(
    name: "todo",
    platforms: [.macOS(.v13)],
    products: (libraryTestsOnly ? [] : [Product.executable(name: "todo", targets: ["todo"])]) + [
        .library(name: "ToDoCore", targets: ["ToDoCore"])
    ],
    dependencies: [],
    targets: [
        // The plain model: items, dates, places. No pointers.
        .target(name: "ToDoModel"),
        // The stored form of a list, the JSON reader and writer, the file system calls and the
        // parallel read: the one target with unsafe code, beside ToDoNetwork's libcurl glue.
        .target(name: "ToDoStorage", dependencies: ["ToDoModel", "ThreadPlacement"]),
        // Where a new thread starts: on another processor than its maker's (see ThreadPlacement.c).
        .target(name: "ThreadPlacement"),
        // The rules, the formats, the sync and the history, over the two below.
        .target(name: "ToDoCore", dependencies: ["ToDoModel", "ToDoStorage"]),
        .target(name: "ToDoCLI", dependencies: ["ToDoModel", "ToDoStorage", "ToDoCore", "TerminalModes"]),
        // `todo ui`'s hold on the terminal: raw mode, and the signal handlers that give it back
        // (see TerminalModes.c).
        .target(name: "TerminalModes"),
        // libcurl, loaded only when a request is made (see CurlLoader.c).
        .target(name: "CurlLoader"),
        // HTTP: libcurl's easy interface on Linux; the shared pieces of both transports.
        .target(
            name: "ToDoNetwork",
            dependencies: [
                "ToDoModel", "ToDoStorage", "ToDoCore",
                .target(name: "CurlLoader", condition: .when(platforms: [.linux]))
            ]),
        // HTTP through Foundation's URLSession: todo's on macOS. On Linux only the tests use it, so
        // that todo links FoundationEssentials alone, not Foundation, FoundationNetworking and ICU.
        .target(
            name: "ToDoURLSession",
            dependencies: ["ToDoNetwork", .target(name: "CurlLoader", condition: .when(platforms: [.linux]))],
            swiftSettings: withoutLinkingCurl),
        // How the C library allocates memory for a process that reads a large list (see ProcessMemory.c).
        .target(name: "ProcessMemory"),
        .executableTarget(
            name: "todo",
            dependencies: [
                "ToDoCLI", "ToDoNetwork", "ProcessMemory",
                .target(name: "ToDoURLSession", condition: .when(platforms: [.macOS]))
            ]),
        .target(name: "TestSupport", dependencies: ["ToDoModel", "ToDoStorage", "ToDoCore"], path: "Tests/TestSupport"),
        // Tests mirror the sources: one target of tests for each layer.
        .testTarget(name: "ToDoModelTests", dependencies: ["ToDoModel", "TestSupport"]),
        .testTarget(name: "ToDoStorageTests", dependencies: ["ToDoModel", "ToDoStorage", "TestSupport"]),
        .testTarget(name: "ToDoCoreTests", dependencies: ["ToDoModel", "ToDoStorage", "ToDoCore", "TestSupport"]),
        // Depends on the executable so that `swift test` builds the binary the end-to-end tests run.
        libraryTestsOnly
            ? .testTarget(
                name: "ToDoCLITests", dependencies: ["ToDoModel", "ToDoStorage", "ToDoCore", "ToDoCLI", "TestSupport"],
                // All but the list renderer's tests and the in-process harness they use.
                exclude: [
                    "EndToEnd", "Parsing", "Running", "Safety", "Simulation", "ToDoCLITests.swift",
                    "Rendering/ItemRendererTests.swift", "Rendering/ManualTests.swift", "Support/BinaryRunner.swift",
                    "Support/PseudoTerminal.swift", "Support/SyncServerTestCase.swift", "UI"
                ])
            : .testTarget(
                name: "ToDoCLITests",
                dependencies: ["ToDoModel", "ToDoStorage", "ToDoCLI", "todo", "ToDoURLSession", "TestSupport"])
    ].filter { !libraryTestsOnly || !executableTargets.contains($0.name) }
)
