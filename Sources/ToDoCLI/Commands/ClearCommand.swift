import ToDoCore
import ToDoModel

/// `todo clear`: deletes every item, or every done item, after asking.
struct ClearCommand: ListCommand {
    static let done = OptionSpec(name: "done", valueName: nil, help: "Delete only the done items.")
    static let yes = OptionSpec(name: "yes", valueName: nil, help: "Do not ask for confirmation.")

    static let spec = CommandSpec(
        name: "clear", summary: "Delete all items, or all done items.",
        options: [done, yes, CommonOptions.jsonChanges],
        discussion: """
            Without --yes, asks on the terminal; without a terminal on standard input it refuses and
            changes nothing. Numbers are never reused.
            """,
        changesList: true)

    var doneOnly = false
    var confirmed = false
    var json = false

    init(doneOnly: Bool = false, confirmed: Bool = false) {
        self.doneOnly = doneOnly
        self.confirmed = confirmed
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        try arguments.noPositionals()
        doneOnly = arguments.flag(Self.done)
        confirmed = arguments.flag(Self.yes)
        json = arguments.flag(CommonOptions.jsonChanges)
    }

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        let noun = doneOnly ? "done item" : "item"
        if !confirmed {
            let manager = try runner.load()
            let count = doneOnly ? manager.doneCount : manager.toDoCount + manager.doneCount
            guard count > 0 else {
                runner.write(json ? "{\"removed\": 0}\n" : "No \(noun)s to remove.\n")
                return
            }
            guard context.input.isTerminal else {
                throw CommandError(
                    message: "'clear' would remove \(counted(count, noun)); add '--yes' to confirm"
                        + " (there is no terminal to ask)", command: Self.spec)
            }
            context.errorOutput.write("Remove \(count == 1 ? "the" : "all") \(counted(count, noun))? [y/N] ")
            context.errorOutput.flush()
            let answer = context.input.readLine().map(Whitespace.trimmingSpaces)?.lowercased()
            guard answer == "y" || answer == "yes" else {
                context.errorOutput.write("Nothing was removed.\n")
                return
            }
        }
        let removed = try runner.store.update(command: runner.arguments) { manager in
            if doneOnly { return manager.removeDoneItems().count }
            defer { manager.removeAll() }
            return manager.toDoCount + manager.doneCount
        }
        runner.write(json ? "{\"removed\": \(removed)}\n" : "Removed \(counted(removed, noun)).\n")
    }
}
