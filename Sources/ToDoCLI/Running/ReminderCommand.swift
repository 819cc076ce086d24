import Foundation
import ToDoCore

/// The command `todo remind --exec` runs for each reminder (`notify-send`, any other), through
/// `/bin/sh` with the reminder's title and details as "$1" and "$2", and in its environment. A
/// command that names none of them (no `$` in it, as `notify-send`) gets them after it. It reads
/// nothing, what it prints goes to standard error (standard output is todo's, `--json` say), and
/// it is stopped when it has not ended within `timeout` seconds: a reminder must not hang a timer.
struct ReminderCommand {
    let command: String
    static let timeout = 30.0

    /// Why a reminder's command did not deliver it (exit 1).
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs the command for `reminder`, described by `title` and `body`; throws when it could not
    /// be run, failed, or took too long.
    func run(title: String, body: String, reminder: DueReminder, timeout: Double = Self.timeout) throws(ReminderCommand.Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The reminder is "$1" and "$2": never spliced into the command's text.
        process.arguments = ["-c", command.contains("$") ? command : command + " \"$@\"", "todo-remind", title, body]
        var environment = ProcessInfo.processInfo.environment
        environment["TODO_NUMBER"] = String(reminder.item.number)
        environment["TODO_ID"] = reminder.item.id.uuidString
        environment["TODO_TITLE"] = reminder.item.title
        environment["TODO_RINGS"] = JSONValue.literal(for: reminder.moment)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do { try process.run() } catch { throw Failure("the reminder command could not be run: \(error.localizedDescription)") }
        guard ended.wait(timeout: .now() + timeout) == .success else {
            process.terminate()
            throw Failure("the reminder command did not end within \(Int(timeout)) seconds")
        }
        guard process.terminationStatus == 0 else {
            throw Failure("the reminder command failed (exit \(process.terminationStatus))")
        }
    }
}
