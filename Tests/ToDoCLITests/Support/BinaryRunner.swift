import Foundation
import TestSupport
import XCTest

/// Runs the built `todo` binary as a separate process, as users and scripts do.
struct BinaryRunner {
    /// The `todo` executable that `swift build` put beside the test bundle, or the one
    /// `TODO_TEST_EXECUTABLE` names (`.ci/run` runs the tests on the release build: the binary
    /// users get, and the suite's processes run several times faster).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["TODO_TEST_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return besideTheTests
    }

    /// The `todo` executable that `swift build` put beside the test bundle: the debug build.
    static var besideTheTests: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("todo")
        }
        fatalError("cannot find the test bundle")
        #else
        return Bundle.main.bundleURL.appendingPathComponent("todo")
        #endif
    }

    /// A copy of `executable` that another user can run: the checkout may sit in a folder only its
    /// owner can enter (a clone under /root or in `mktemp -d`), while a test runs `todo` as nobody.
    /// Made once per test run in /tmp, and removed when the run ends.
    static func executableForAnyUser() throws -> URL {
        try sharedCopy.get()
    }

    private static let sharedCopy = Result { () throws -> URL in
        let directory = URL(fileURLWithPath: "/tmp/todo-tests-executable-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o755])
        let copy = directory.appendingPathComponent("todo")
        try FileManager.default.copyItem(at: executable, to: copy)
        guard chmod(directory.path, 0o755) == 0, chmod(copy.path, 0o755) == 0 else { throw POSIXError(.EPERM) }
        atexit {
            try? FileManager.default.removeItem(atPath: "/tmp/todo-tests-executable-\(getpid())")
        }
        return copy
    }

    var environment: [String: String]
    var currentDirectory: URL
    /// A command that runs `todo`, as `setpriv --reuid=…` to run it as another user.
    var launchPrefix: [String] = []
    /// A run taking longer than this is killed and reported with status -1: a hang fails the test
    /// instead of stopping the suite.
    var timeout: TimeInterval = 120

    /// Runs `todo` with `arguments`, feeding `input` to its standard input (closed when `nil`), and
    /// reads both pipes to the end before waiting, so a full pipe can never deadlock the test.
    func run(_ arguments: [String], input: Data? = nil) throws -> Outcome {
        try start(arguments, input: input).finish()
    }

    /// Runs `/bin/sh -c script` in the same environment, with `todo` on the PATH.
    func shell(_ script: String, input: Data? = nil) throws -> Outcome {
        try run(program: "/bin/sh", ["-c", script], input: input)
    }

    /// Runs another program (a shell, say) in the same environment, with `todo` on the PATH.
    func run(program: String, _ arguments: [String], input: Data? = nil) throws -> Outcome {
        try start(program: program, arguments, input: input).finish()
    }

    /// Starts another program as `run(program:_:input:)` runs it, and returns at once.
    func start(program: String, _ arguments: [String], input: Data? = nil) throws -> RunningProcess {
        var runner = self
        runner.environment["PATH"] = Self.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"
        return try runner.start(executable: URL(fileURLWithPath: program), arguments: arguments, input: input)
    }

    /// Starts `todo` and returns at once, for tests that interrupt it.
    func start(_ arguments: [String], input: Data? = nil) throws -> RunningProcess {
        try start(executable: Self.executable, arguments: arguments, input: input)
    }

    private func start(executable: URL, arguments: [String], input: Data?) throws -> RunningProcess {
        let process = Process()
        if launchPrefix.isEmpty {
            process.executableURL = executable
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: launchPrefix[0])
            let runnable = executable == Self.executable ? try Self.executableForAnyUser() : executable
            process.arguments = Array(launchPrefix.dropFirst()) + [runnable.path] + arguments
        }
        process.environment = environment
        process.currentDirectoryURL = currentDirectory
        return try RunningProcess(process, input: input ?? Data(), timeout: timeout)
    }
}

/// A started process whose pipes are being drained.
final class RunningProcess: @unchecked Sendable {
    let process: Process
    private let output = PipeCollector()
    private let errors = PipeCollector()
    private let watchdog: DispatchWorkItem
    private let timedOut = PipeCollector()

    init(_ process: Process, input: Data, timeout: TimeInterval) throws {
        self.process = process
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        let pid = process.processIdentifier
        let timedOut = self.timedOut
        watchdog = DispatchWorkItem {
            timedOut.finish(Data([1]))
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        output.drain(stdout.fileHandleForReading)
        errors.drain(stderr.fileHandleForReading)
        // A process killed (or finished) before reading all its input closes the pipe: writing then
        // fails with EPIPE, which must not end the test run with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }.start()
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Waits for the process to end and returns what it did; -1 when the watchdog had to kill it.
    func finish() -> Outcome {
        let stdout = output.wait(), stderr = errors.wait()
        process.waitUntilExit()
        watchdog.cancel()
        let status = timedOut.isFinished ? -1 : process.terminationStatus
        return Outcome(
            status: status, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func drain(_ handle: FileHandle) {
        Thread { self.finish(handle.readDataToEndOfFile()) }.start()
    }

    func finish(_ data: Data) {
        condition.lock()
        self.data = data
        condition.broadcast()
        condition.unlock()
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return data != nil
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data!
    }
}

/// A test case that runs the binary against a list in a fresh temporary directory.
class BinaryTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var todo: BinaryRunner!
    var fileURL: URL { directory.file("items.json") }

    /// The `TZ` the binary runs with.
    var timeZone: String { "UTC" }
    /// Settings beyond the file, the time zone and the home directory.
    var extraEnvironment: [String: String] { [:] }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        todo = BinaryRunner(
            environment: ["TODO_FILE": fileURL.path, "TZ": timeZone, "HOME": directory.url.path]
                .merging(extraEnvironment) { $1 },
            currentDirectory: directory.url)
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    /// Where the first of `names` is installed; the test is skipped, saying so, when none is.
    func installedTool(_ names: [String]) throws -> String {
        for name in names {
            for folder in ["/usr/bin", "/bin", "/usr/local/bin"]
            where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        throw XCTSkip("\(names[0]) is not installed (.ci/run installs it)")
    }
}
