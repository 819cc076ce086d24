import ToDoCore
import ToDoModel

import enum ToDoStorage.FileSystem
import enum ToDoStorage.ZoneInfo

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where text goes: standard output or standard error, or a string in tests.
public protocol TextOutput: AnyObject {
    var isTerminal: Bool { get }
    func write(_ text: String)
    /// Writes UTF-8 bytes; long JSON output takes this path so that it is not copied into a string.
    func write(bytes: [UInt8])
    /// Sends what has been written so far; called before reading an answer and before exit.
    func flush()
    /// The `errno` of a write that failed (a full disk, a closed descriptor), once one has; a reader
    /// that went away (`todo list | head -1`) is not a failure.
    var writeError: Int32? { get }
    /// The width of the terminal the output goes to, in columns, when it says; `nil` otherwise.
    var terminalColumns: Int? { get }
    /// The height of that terminal, in rows, when it says; `nil` otherwise.
    var terminalRows: Int? { get }
}

extension TextOutput {
    public var terminalColumns: Int? { nil }
    public var terminalRows: Int? { nil }

    public func write(bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }

    public var writeError: Int32? { nil }
}

/// Where `todo add -` and confirmations read from.
public protocol TextInput: AnyObject {
    var isTerminal: Bool { get }
    /// Everything until end of file; `nil` once more than `limit` bytes came (the rest is not read).
    func readAll(limit: Int) -> [UInt8]?
    /// One line without its line break, or `nil` at end of file.
    func readLine() -> String?
}

/// Everything the command line takes from the world, passed in so that tests can pin it.
public struct Context {
    public var environment: [String: String]
    public var currentDirectory: String
    /// The user's home directory, `nil` when it cannot be found.
    public var homeDirectory: String?
    /// The time zone to use when `TZ` is not set; asked only then, since finding it takes time.
    public var systemTimeZone: () -> TimeZoneRules
    public var now: @Sendable () -> Date
    public var input: TextInput
    public var output: TextOutput
    public var errorOutput: TextOutput
    /// Makes HTTP requests (geocoding, importing from a URL); `nil` where there is none.
    public var transport: HTTPTransport?
    /// Takes what a command read and is done with, a list of thousands of items in as many pieces,
    /// instead of its being freed piece by piece: the real process exits when its command ends, and
    /// the kernel takes its memory back at once (freeing a 10,000-item list first cost 0.7 ms,
    /// more than a tenth of reading it). Tests, many commands in one process, let it go (the default).
    public var keepUntilExit: (Any) -> Void
    /// Where new items take their ids; `nil`: random ones. A simulation passes its own, so that a
    /// seed replays with the same ids.
    public var newID: (@Sendable () -> UUID)?

    public init(
        environment: [String: String], currentDirectory: String, homeDirectory: String?,
        systemTimeZone: @escaping @autoclosure () -> TimeZoneRules,
        now: @escaping @Sendable () -> Date, input: TextInput, output: TextOutput, errorOutput: TextOutput,
        transport: HTTPTransport? = nil, keepUntilExit: @escaping (Any) -> Void = { _ in }
    ) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.homeDirectory = homeDirectory
        self.systemTimeZone = systemTimeZone
        self.now = now
        self.input = input
        self.output = output
        self.errorOutput = errorOutput
        self.transport = transport
        self.keepUntilExit = keepUntilExit
    }

    /// The environment variables todo reads (see "Settings" in the README).
    static let variableNames = [
        "COLUMNS", "HOME", "LINES", "NO_COLOR", "TERM", "TODO_DATE_ORDER", "TODO_FILE", "TODO_GEOCODER_URL",
        "TODO_HTTP_TIMEOUT", "TODO_IMPORT_MAX_MB", "TODO_LOCK_TIMEOUT", "TODO_SYNC_PASSWORD", "TZ", "XDG_DATA_HOME"
    ]

    /// How many columns rows written to standard output may take: the terminal's width when the
    /// output is a terminal (asked of the terminal, then `COLUMNS`), `nil` for a pipe or a file,
    /// which get whole rows.
    var outputWidth: Int? {
        guard output.isTerminal else { return nil }
        if let columns = output.terminalColumns { return columns }
        guard let columns = environment["COLUMNS"].flatMap({ Int($0) }), (1...100_000).contains(columns) else {
            return nil
        }
        return columns
    }

    /// How many rows a screenful has: the terminal's (asked of it, then `LINES`), `nil` for a pipe
    /// or a file.
    var outputHeight: Int? {
        guard output.isTerminal else { return nil }
        if let rows = output.terminalRows { return rows }
        guard let rows = environment["LINES"].flatMap({ Int($0) }), (1...100_000).contains(rows) else { return nil }
        return rows
    }

    /// The real process: its environment, directories, clock, time zone and standard streams, and
    /// `transport` for HTTP.
    public static func live(transport: HTTPTransport? = nil) -> Context {
        reserveStandardDescriptors()
        // Only the variables todo reads: making a dictionary of the whole environment costs more
        // than some commands' work.
        var environment: [String: String] = [:]
        for name in variableNames {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        var home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if home == nil, let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            home = String(cString: directory)
        }
        return Context(
            environment: environment,
            currentDirectory: FileSystem.currentDirectory(),
            homeDirectory: home,
            // Only used when TZ is unset: the system zone, as the C library finds it (UTC without one).
            systemTimeZone: ZoneInfo.zone(atPath: "/etc/localtime", name: "/etc/localtime") ?? .utc,
            now: { Date() },
            input: FileDescriptorInput(descriptor: 0),
            output: FileDescriptorOutput(descriptor: 1),
            errorOutput: FileDescriptorOutput(descriptor: 2),
            transport: transport,
            keepUntilExit: { ProcessLeftovers.shared.values.append($0) })
    }
}

/// What commands leave for the process's exit to free (`Context.keepUntilExit`). Only the
/// process's one command appends to it, on the main thread.
private final class ProcessLeftovers: @unchecked Sendable {
    static let shared = ProcessLeftovers()
    var values: [Any] = []
}

/// Gives each of the standard descriptors that was closed (`todo list >&-`) a stand-in: /dev/null
/// opened for reading only, so that writes to it fail (and are reported) and reads see an end of
/// file. Otherwise the next file todo opens, the lock or the list itself, would get its number and
/// receive the output.
private func reserveStandardDescriptors() {
    for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
        // The lowest free number is the one that was closed.
        _ = open("/dev/null", O_RDONLY)
    }
}

/// Writes to a file descriptor through a buffer, so that a long list is a few system calls.
final class FileDescriptorOutput: TextOutput {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    private(set) var writeError: Int32?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    var isTerminal: Bool { isatty(descriptor) == 1 }

    var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    var terminalRows: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(bytes: [UInt8]) {
        // Large output goes out as it is, without a copy into the buffer.
        guard bytes.count >= 1 << 16 else {
            buffer.append(contentsOf: bytes)
            return
        }
        flush()
        send(bytes)
    }

    func flush() {
        send(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count, !closed {
            let count = FileSystem.writeSome(bytes, from: offset, to: descriptor)
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                // A reader that went away (`todo list | head -1`) is not an error worth reporting;
                // any other failure is, once: the output is incomplete.
                if count < 0, errno != EPIPE { writeError = errno }
                if count == 0 { writeError = EIO }
                closed = true
            }
            offset += max(count, 0)
        }
    }
}

/// Reads a file descriptor.
final class FileDescriptorInput: TextInput {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    var isTerminal: Bool { isatty(descriptor) == 1 }

    func readAll(limit: Int) -> [UInt8]? {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = FileSystem.readSome(descriptor, into: &chunk)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return contents }
            contents.append(contentsOf: chunk[..<count])
            if contents.count > limit { return nil }
        }
    }

    func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
    }
}
