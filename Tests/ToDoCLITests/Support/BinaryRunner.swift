import Foundation
import XCTest

/// Runs the built `todo` binary as a separate process, as users and scripts do.
struct BinaryRunner {
    /// The `todo` executable that `swift build` put beside the test bundle.
    static var executable: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("todo")
        }
        fatalError("cannot find the test bundle")
        #else
        return Bundle.main.bundleURL.appendingPathComponent("todo")
        #endif
    }

    var environment: [String: String]
    var currentDirectory: URL

    /// Runs `todo` with `arguments`, feeding `input` to its standard input (closed when `nil`), and
    /// reads both pipes to the end before waiting, so a full pipe can never deadlock the test.
    func run(_ arguments: [String], input: Data? = nil) throws -> Outcome {
        try run(executable: Self.executable, arguments: arguments, input: input)
    }

    /// Runs `/bin/sh -c script` in the same environment, with `todo` on the PATH.
    func shell(_ script: String) throws -> Outcome {
        var runner = self
        runner.environment["PATH"] = Self.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"
        return try runner.run(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], input: nil)
    }

    private func run(executable: URL, arguments: [String], input: Data?) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = currentDirectory
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()

        let writer = Thread {
            stdin.fileHandleForWriting.write(input ?? Data())
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()

        let errorData = ErrorCollector()
        let reader = Thread { errorData.data = stderr.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        while !errorData.isDone { usleep(1000) }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: outputData, as: UTF8.self),
                       stderr: String(decoding: errorData.data!, as: UTF8.self))
    }
}

/// Standard error as read by a second thread.
private final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?

    var data: Data? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }

    var isDone: Bool { data != nil }
}
