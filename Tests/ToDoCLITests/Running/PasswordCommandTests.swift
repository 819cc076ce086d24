import Foundation
import XCTest

@testable import ToDoCLI

/// The password command `todo sync setup --password-command` records: its first line is the
/// password; it never waits for ever.
final class PasswordCommandTests: HarnessTestCase {
    private var context: Context {
        Context(
            environment: [:], currentDirectory: todo.directory.path, homeDirectory: todo.directory.path,
            systemTimeZone: .utc,
            now: { Date() }, input: ScriptedInput(), output: CapturedOutput(), errorOutput: CapturedOutput(),
            transport: nil)
    }

    private func failure(_ command: String, timeout: Double = 10) -> String {
        do {
            let password = try SyncCommand.password(command: command, context, timeout: timeout)
            return "no failure: \(password)"
        } catch {
            return (error as? CommandError)?.message ?? "\(error)"
        }
    }

    func test_theFirstLineIsThePassword() throws {
        XCTAssertEqual(try SyncCommand.password(command: "printf 'secret\\nmore'", context), "secret")
        XCTAssertEqual(
            try SyncCommand.password(command: "printf 'pass word  \\r\\n'", context), "pass word  ",
            "the line without its end")
    }

    func test_aCommandThatFails_printsNothing_orTakesTooLong_isAnError() {
        XCTAssertEqual(failure("exit 3"), "the password command failed (exit 3)")
        XCTAssertEqual(failure("true"), "the password command printed no password")
        XCTAssertEqual(
            failure("read line; echo \"$line\""), "the password command printed no password",
            "it reads nothing: its input is empty")
        let started = Date()
        // `exec`: the shell itself sleeps, and is what is stopped. (A child the shell left running
        // would keep this test process's standard error open, and the test runner waiting on it,
        // for the 30 seconds.)
        XCTAssertEqual(failure("exec sleep 30", timeout: 1), "the password command gave no password within 1 seconds")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func test_aCommandPrintingMoreThanAPipeHolds_isReadWhileItRuns() throws {
        let started = Date()
        XCTAssertEqual(
            try SyncCommand.password(
                command: "echo secret; head -c 1000000 /dev/zero | tr '\\0' x", context, timeout: 20), "secret")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "it did not wait for the command to be stopped")
    }

    #if os(Linux)
    /// A command starts with every signal as the system sets it, whatever todo's parent left
    /// ignored or blocked (a shell pipeline's SIGPIPE, say): `yes | head -1` ends as it should.
    func test_aCommandStartsWithTheSignalsAsTheSystemSetsThem() throws {
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let blocked = try SyncCommand.password(command: "sed -n 's/^SigBlk:[[:space:]]*//p' /proc/self/status", context)
        let ignored = try XCTUnwrap(
            UInt64(
                try SyncCommand.password(command: "sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status", context),
                radix: 16))
        XCTAssertEqual(blocked, "0000000000000000")
        XCTAssertEqual(ignored & (1 << (UInt64(SIGPIPE) - 1)), 0, "SIGPIPE is not ignored")
        XCTAssertEqual(try SyncCommand.password(command: "yes secret | head -1", context, timeout: 5), "secret")
    }
    #endif

    func test_messagesNeverHoldTheCommandsText() {
        XCTAssertFalse(failure("echo; exit 2 # token=hunter2").contains("hunter2"))
        XCTAssertFalse(failure("printf '' # token=hunter2").contains("hunter2"))
    }
}
