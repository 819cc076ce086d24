import ToDoCore
import ToDoModel

/// `todo remind`: the reminders whose time has come and that were not shown yet, each once; for a
/// machine without a phone, run by a timer.
struct RemindCommand: ListCommand {
    static let exec = OptionSpec(
        name: "exec", valueName: "command",
        help: "Run this command for each reminder, with its title and details as arguments (notify-send).")
    static let spec = CommandSpec(
        name: "remind", summary: "Print the reminders whose time has come, each once.",
        options: [exec, CommonOptions.json],
        discussion: """
            Prints each reminder of an open item whose time has come since the last run (a day back at
            least, a week at most) and that no run has shown: a second run right after prints nothing,
            and a done item rings no more. Exit 0, with or without reminders. --exec runs a command for
            each, through /bin/sh, with the title and a line of details as "$1" and "$2", control
            characters in caret form (^[), and TODO_NUMBER, TODO_ID, TODO_TITLE (the title as it
            is), TODO_RINGS in its environment; a command without a '$' gets them after '--', so
            that a title starting with '-' is no option: todo remind --exec notify-send runs
            notify-send -- "$1" "$2". What it prints goes to standard error. A run rings at most 10
            reminders of one item and 100 in all, and only display and sound alarms (a calendar's
            e-mail and procedure alarms are kept, never run); what it held back is said.
            A reminder whose command fails is shown again by the next run, and todo remind exits 1. Nothing runs by itself: a systemd timer or a cron line runs todo remind
            (see the README). What was shown is kept beside the list, in its file's name with
            .reminded added: it stays on this machine.
            """)

    var command: String?
    var json = false

    init(_ arguments: CommandArguments) throws(CommandError) {
        try arguments.noPositionals()
        command = arguments.value(Self.exec)
        if let command, command.allSatisfy(\.isWhitespace) {
            throw arguments.error("'--exec' needs a command, as notify-send")
        }
        json = arguments.flag(CommonOptions.json)
    }

    func run(with runner: CommandRunner) throws {
        let now = runner.context.now().timeIntervalSince1970
        let rules = runner.renderer.dates.rules
        // Taken as shown under the list's lock, so that two runs at once show each reminder once.
        let (reminders, passedOver, later) = try runner.store.update(withReminderLog: { manager, log in
            let shares = ReminderLog.shares(
                of: log.notShown(manager.reminders(ringingIn: log.window(now: now), rules: rules)))
            log = log.after(showing: shares.ringing + shares.passedOver, now: now)
            return shares
        })
        sayHeldBack(passedOver: passedOver, later: later, runner)
        var failed: [DueReminder] = []
        var failure: Error?
        if let command {
            let renderer = runner.renderer, runner = ReminderCommand(command: command)
            for reminder in reminders {
                do {
                    try runner.run(title: reminder.item.title, body: details(reminder, renderer), reminder: reminder)
                } catch {
                    failed.append(reminder)
                    failure = failure ?? error
                }
            }
        }
        write(reminders, runner)
        guard let failure else { return }
        // Not delivered: the next run tries again.
        try runner.store.update(withReminderLog: { _, log in
            log.shown.subtract(failed.map { ReminderLog.Shown(id: $0.item.id, moment: $0.moment) })
        })
        throw failure
    }

    /// Says on standard error which reminders this run did not ring.
    private func sayHeldBack(passedOver: [DueReminder], later: [DueReminder], _ runner: CommandRunner) {
        var byItem: [UUID: Int] = [:]
        for reminder in passedOver { byItem[reminder.item.id, default: 0] += 1 }
        var said: Set<UUID> = []
        for reminder in passedOver where said.insert(reminder.item.id).inserted {
            runner.context.errorOutput.write(
                "Not rung: \(counted(byItem[reminder.item.id] ?? 0, "more reminder")) of \(reminder.item.number) "
                    + "\"\(TerminalText.printable(reminder.item.title))\" (at most \(ReminderLog.mostOfOneItem) of one item a run)\n"
            )
        }
        if !later.isEmpty {
            runner.context.errorOutput.write(
                "Left for the next run: \(counted(later.count, "reminder")) (at most \(ReminderLog.mostInOneRun) a run)\n"
            )
        }
    }

    /// What a notification says under the title: `Item 3, due Friday 11/27/26 17:00`.
    private func details(_ reminder: DueReminder, _ renderer: ItemRenderer) -> String {
        "Item \(reminder.item.number)" + (renderer.dueText(reminder.item).map { ", due " + $0 } ?? "")
    }

    private func write(_ reminders: [DueReminder], _ runner: CommandRunner) {
        let renderer = runner.renderer
        if json {
            let objects: [JSONValue] = reminders.map { reminder in
                var object = JSONObject()
                object["rings"] = .number(JSONValue.literal(for: reminder.moment))
                object["alarm"] = reminder.alarm.json
                object["item"] = reminder.item.json
                return .object(object)
            }
            runner.context.output.write(bytes: JSONValue.array(objects).serializedOneElementPerLine())
            return
        }
        for reminder in reminders {
            runner.write(
                renderer.dayAndDate(.time(reminder.moment)) + "  "
                    + renderer.summary(reminder.item, withReminders: false) + "\n")
        }
    }
}
