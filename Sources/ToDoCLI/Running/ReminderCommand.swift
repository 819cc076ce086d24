import ToDoCore
import ToDoModel

import enum ToDoStorage.ProcessEnvironment
import struct ToDoStorage.ShellCommand

/// The command `todo remind --exec` runs for each reminder (`notify-send`, any other), through
/// `/bin/sh` with the reminder's title and details as "$1" and "$2", and in its environment. A
/// command that names none of them (no `$` in it, as `notify-send`) gets them after it. It reads
/// nothing, what it prints goes to standard error (standard output is todo's, `--json` say), and
/// it is stopped when it has not ended within `timeout` seconds: a reminder must not hang a timer.
struct ReminderCommand {
    let command: String
    static let timeout = 30.0

    /// Runs the command for `reminder`, described by `title` and `body`; throws when it could not
    /// be run, failed, or took too long.
    func run(title: String, body: String, reminder: DueReminder, timeout: Double = Self.timeout) throws(CommandError) {
        var environment = ProcessEnvironment.all()
        environment["TODO_NUMBER"] = String(reminder.item.number)
        environment["TODO_ID"] = reminder.item.id.uuidString
        environment["TODO_TITLE"] = reminder.item.title
        environment["TODO_RINGS"] = JSONValue.literal(for: reminder.moment)
        // The reminder is "$1" and "$2": never spliced into the command's text, and printable (a
        // title's escapes would reach a terminal through `echo "$1"`); after `--` where the
        // command gets them as its last arguments, so that a title `--help` is no option.
        let shell = ShellCommand(
            command.contains("$") ? command : command + " -- \"$@\"", name: "todo-remind",
            arguments: [TerminalText.printable(title), TerminalText.printable(body)], environment: environment)
        let ending: ShellCommand.Ending
        do { ending = try shell.run(timeout: timeout).ending } catch {
            throw CommandError(.failure, "the reminder command could not be run: \(error)")
        }
        switch ending {
        case .timedOut: throw CommandError(.failure, "the reminder command did not end within \(Int(timeout)) seconds")
        case .exited(let status) where status != 0:
            throw CommandError(.failure, "the reminder command failed (exit \(status))")
        case .exited: break
        }
    }
}
