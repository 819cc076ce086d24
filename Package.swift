// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "todo",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "todo", targets: ["todo"]),
        .library(name: "ToDoCore", targets: ["ToDoCore"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ToDoCore"),
        .target(name: "ToDoCLI", dependencies: ["ToDoCore"]),
        .executableTarget(name: "todo", dependencies: ["ToDoCLI"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ToDoCoreTests", dependencies: ["ToDoCore", "TestSupport"]),
        // Depends on the executable so that `swift test` builds the binary the end-to-end tests run.
        .testTarget(name: "ToDoCLITests", dependencies: ["ToDoCLI", "todo", "TestSupport"]),
    ]
)
