import ToDoCore

import struct ToDoStorage.ShellCommand

/// Where a sync's password comes from, and the client that signs in with it.
extension SyncCommand {
    /// How long a password command may take, in seconds: long enough to type a passphrase into
    /// a pinentry window, not for ever.
    static let passwordCommandTimeout = 120.0
    /// How much of a password command's output is kept: a password is far shorter; the rest is read and dropped.
    static let passwordCommandOutputLimit = 64 << 10

    /// The password: the first line a password command prints, else `TODO_SYNC_PASSWORD`. The
    /// command reads nothing (its input is empty), and is stopped when it has not ended within
    /// `passwordCommandTimeout`. What it prints is read while it runs (a command printing more
    /// than a pipe holds would otherwise wait for ever), and only its first
    /// `passwordCommandOutputLimit` bytes are kept. Messages say that the command failed, never
    /// its text, which may hold a secret of its own.
    static func password(
        command: String?, _ context: Context, timeout: Double = passwordCommandTimeout
    ) throws -> String {
        if let command {
            let ending: ShellCommand.Ending, printed: [UInt8]
            do {
                (ending, printed) = try ShellCommand(command).run(
                    timeout: timeout, output: .kept(limit: passwordCommandOutputLimit))
            } catch {
                throw CommandError.sync("the password command could not be run: \(error)")
            }
            switch ending {
            case .timedOut:
                throw CommandError.sync("the password command gave no password within \(Int(timeout)) seconds")
            case .exited(let status) where status != 0:
                throw CommandError.sync("the password command failed (exit \(status))")
            case .exited: break
            }
            // The first line, without its end (`\n` or `\r\n`); spaces are the password's.
            var bytes = printed.prefix { $0 != UInt8(ascii: "\n") }
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            guard !line.isEmpty else { throw CommandError.sync("the password command printed no password") }
            return line
        }
        guard let password = context.environment["TODO_SYNC_PASSWORD"], !password.isEmpty else {
            throw CommandError(
                message: "no password: set TODO_SYNC_PASSWORD, or give todo sync setup --password-command",
                showsUsage: false)
        }
        return password
    }

    /// A client signing in as `user`, whose password travels over plain HTTP only to `origin`'s
    /// server (`CalDAVClient.mayCarryCredentials(to:)`).
    static func client(
        user: String, password: String, origin: WebAddress, _ runner: CommandRunner
    ) throws -> CalDAVClient {
        guard let transport = runner.context.transport else {
            throw CommandError.sync("this todo cannot make HTTP requests")
        }
        return CalDAVClient(
            transport: transport, credentials: HTTPCredentials(user: user, password: password), origin: origin,
            timeout: try runner.settings.httpTimeout ?? timeout)
    }
}
