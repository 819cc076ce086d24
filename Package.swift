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
        .executableTarget(name: "todo", dependencies: ["ToDoCore"]),
        .testTarget(name: "ToDoCoreTests", dependencies: ["ToDoCore"]),
    ]
)
