import Foundation

/// A command a user gave, run through `/bin/sh -c`: it reads nothing (its input is empty), and is
/// stopped when it has not ended in time. A password command and a reminder's command are run so.
struct ShellCommand {
    /// How it ended.
    enum Ending: Equatable {
        case exited(status: Int32)
        case timedOut
    }

    private let process = Process()

    /// `script` with `arguments` as "$1", "$2"… (and `name` as "$0"), in `environment` (else this
    /// process's), printing to `output` (a `Pipe` or a `FileHandle`).
    init(_ script: String, name: String = "todo", arguments: [String] = [], environment: [String: String]? = nil, output: Any) {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script] + (arguments.isEmpty ? [] : [name] + arguments)
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
    }

    /// Starts it, calls `started` (to read what it prints as it comes), and waits at most `timeout`
    /// seconds for it to end, stopping it then. Throws when it cannot be started.
    func run(timeout: Double, started: () -> Void = {}) throws -> Ending {
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        started()
        guard ended.wait(timeout: .now() + timeout) == .success else {
            process.terminate()
            return .timedOut
        }
        return .exited(status: process.terminationStatus)
    }
}
