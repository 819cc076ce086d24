import Foundation
import ToDoCore

/// Where a sync's password comes from, and the client that signs in with it.
extension SyncCommand {
    /// How long a password command may take, in seconds: long enough to type a passphrase into
    /// a pinentry window, not for ever.
    static let passwordCommandTimeout = 120.0
    /// How much of a password command's output is kept: a password is far shorter; the rest is read and dropped.
    static let passwordCommandOutputLimit = 64 << 10

    /// What a command prints, read on a thread of its own as it comes, the first
    /// `passwordCommandOutputLimit` bytes kept.
    private final class PrintedOutput: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [UInt8] = []
        private let finished = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                    lock.withLock { kept += chunk.prefix(max(0, SyncCommand.passwordCommandOutputLimit - kept.count)) }
                }
                finished.signal()
            }
        }

        /// What was printed once the output ended, or after `seconds` (a helper the command left
        /// running may hold the output open): what has arrived by then.
        func bytes(waitingAtMost seconds: Double) -> [UInt8] {
            _ = finished.wait(timeout: .now() + seconds)
            return lock.withLock { kept }
        }
    }

    /// The password: the first line a password command prints, else `TODO_SYNC_PASSWORD`. The
    /// command reads nothing (its input is empty), and is stopped when it has not ended within
    /// `passwordCommandTimeout`. What it prints is read while it runs (a command printing more
    /// than a pipe holds would otherwise wait for ever), and only its first
    /// `passwordCommandOutputLimit` bytes are kept. Messages say that the command failed, never
    /// its text, which may hold a secret of its own.
    static func password(command: String?, _ context: Context, timeout: Double = passwordCommandTimeout) throws -> String {
        if let command {
            let output = Pipe()
            var printed: PrintedOutput?
            let ending: ShellCommand.Ending
            do {
                ending = try ShellCommand(command, output: output).run(timeout: timeout) {
                    try? output.fileHandleForWriting.close()
                    printed = PrintedOutput(output.fileHandleForReading)
                }
            } catch {
                throw SyncFailure(message: "the password command could not be run: \(error.localizedDescription)")
            }
            switch ending {
            case .timedOut: throw SyncFailure(message: "the password command gave no password within \(Int(timeout)) seconds")
            case .exited(let status) where status != 0: throw SyncFailure(message: "the password command failed (exit \(status))")
            case .exited: break
            }
            // The first line, without its end (`\n` or `\r\n`); spaces are the password's.
            var bytes = (printed?.bytes(waitingAtMost: 2) ?? []).prefix { $0 != UInt8(ascii: "\n") }
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            guard !line.isEmpty else { throw SyncFailure(message: "the password command printed no password") }
            return line
        }
        guard let password = context.environment["TODO_SYNC_PASSWORD"], !password.isEmpty else {
            throw UsageError(message: "no password: set TODO_SYNC_PASSWORD, or give todo sync setup --password-command", showsUsage: false)
        }
        return password
    }

    static func client(user: String, password: String, _ runner: CommandRunner) throws -> CalDAVClient {
        guard let transport = runner.context.transport else { throw SyncFailure(message: "this todo cannot make HTTP requests") }
        return CalDAVClient(transport: transport, credentials: HTTPCredentials(user: user, password: password),
                            timeout: try runner.settings.httpTimeout ?? timeout)
    }
}
