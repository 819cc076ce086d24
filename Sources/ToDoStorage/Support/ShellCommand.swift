import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A command a user gave, run through `/bin/sh -c` with `posix_spawn` (Foundation's `Process` is
/// not in FoundationEssentials): it reads nothing (its input is `/dev/null`), and is stopped when
/// it has not ended in time. A password command and a reminder's command are run so.
package struct ShellCommand {
    /// How it ended.
    package enum Ending: Equatable {
        /// Its exit status; 128 + the signal's number when a signal ended it, as a shell says.
        case exited(status: Int32)
        case timedOut
    }

    /// Where what it prints goes.
    package enum Output {
        /// To todo's standard error.
        case standardError
        /// Read while it runs (a command printing more than a pipe holds would otherwise wait for
        /// ever), the first `limit` bytes kept and the rest dropped.
        case kept(limit: Int)
    }

    /// Why it could not be started.
    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    let script: String
    /// "$0", "$1", "$2"…: `name` first, when there are arguments.
    let arguments: [String]
    /// `NAME=value` lines, or `nil` for this process's environment.
    let environment: [String]?

    /// `script` with `arguments` as "$1", "$2"… (and `name` as "$0"), in `environment` (else this process's).
    package init(
        _ script: String, name: String = "todo", arguments: [String] = [], environment: [String: String]? = nil
    ) {
        self.script = script
        self.arguments = arguments.isEmpty ? [] : [name] + arguments
        self.environment = environment.map { $0.map { "\($0.key)=\($0.value)" } }
    }

    /// Runs it and waits at most `timeout` seconds for it to end, stopping it then (SIGTERM, and
    /// SIGKILL a second later). With `.kept`, what it printed: what arrived until its output ended,
    /// or two seconds after it exited (a helper it left running may hold the output open).
    package func run(
        timeout: Double, output: Output = .standardError
    ) throws(StartError) -> (ending: Ending, printed: [UInt8]) {
        var readEnd: Int32 = -1, writeEnd: Int32 = -1
        if case .kept = output {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw StartError(description: FileSystem.message(forErrorCode: errno)) }
            (readEnd, writeEnd) = (ends[0], ends[1])
            _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        }
        defer { if readEnd >= 0 { close(readEnd) } }
        let started = start(output: writeEnd >= 0 ? writeEnd : 2)
        if writeEnd >= 0 { close(writeEnd) }
        let pid = try started.get()

        var printed = PrintedBytes(
            descriptor: readEnd, limit: { if case .kept(let limit) = output { limit } else { 0 } }())
        let deadline = Self.now() + UInt64(timeout * 1e9)
        var status: Int32 = 0
        var pause: Int32 = 1
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0, errno != EINTR { return (.exited(status: 127), printed.bytes) }
            guard Self.now() < deadline else {
                Self.stop(pid)
                return (.timedOut, printed.bytes)
            }
            printed.collect(waitingAtMost: pause)
            pause = min(pause * 2, 10)
        }
        printed.readToEnd(until: Self.now() + 2_000_000_000)
        let signal = status & 0x7F
        return (.exited(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal), printed.bytes)
    }

    /// Starts `/bin/sh -c script …` with its standard output on `outputDescriptor`.
    private func start(output outputDescriptor: Int32) -> Result<pid_t, StartError> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1)
        // Every signal as the system sets it, none blocked, whatever todo's own parent left it.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let code = CStrings.withArray(["/bin/sh", "-c", script] + arguments) { argv in
            guard let environment else {
                return posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, ProcessEnvironment.entries)
            }
            return CStrings.withArray(environment) { envp in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
            }
        }
        return code == 0 ? .success(pid) : .failure(StartError(description: FileSystem.message(forErrorCode: code)))
    }

    /// SIGTERM, then SIGKILL when it has not ended a second later; reaped either way.
    private static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        let deadline = now() + 1_000_000_000
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0, now() < deadline { usleep(5_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// What arrives on the read end of the command's output, the first `limit` bytes kept.
    private struct PrintedBytes {
        let descriptor: Int32
        let limit: Int
        private(set) var bytes: [UInt8] = []
        private var ended = false

        init(descriptor: Int32, limit: Int) {
            self.descriptor = descriptor
            self.limit = limit
            ended = descriptor < 0
        }

        /// Reads what arrives within `milliseconds` (or only waits, with no output to read).
        mutating func collect(waitingAtMost milliseconds: Int32) {
            guard !ended else {
                usleep(useconds_t(milliseconds) * 1000)
                return
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, milliseconds) > 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk.prefix(min(count, max(0, limit - bytes.count)))
            } else if count == 0 || errno != EINTR {
                ended = true
            }
        }

        mutating func readToEnd(until deadline: UInt64) {
            while !ended, ShellCommand.now() < deadline { collect(waitingAtMost: 10) }
        }
    }
}
