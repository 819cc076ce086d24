import ToDoCore
import ToDoModel

/// `todo history`: the latest changes, newest first.
struct HistoryCommand: ListCommand {
    static let limit = OptionSpec(
        name: "limit", valueName: "n", help: "Show at most n changes (default 10; the history keeps 100).")
    static let json = OptionSpec(
        name: "json", valueName: nil, help: "Print the changes as JSON, each with its items before and after.")

    static let spec = CommandSpec(
        name: "history", summary: "List the latest changes, newest first.",
        options: [limit, json],
        discussion: """
            Each change shows its number, when it was made, the command that made it, and what it did to
            each item. A change taken back says by which undo. The history is kept in a file beside the
            data file (see 'todo help file').
            """)

    var limit = 10
    var json = false

    init(limit: Int = 10, json: Bool = false) {
        self.limit = limit
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        try arguments.noPositionals()
        if let text = arguments.value(Self.limit) {
            limit = try arguments.count(text, of: Self.limit.flag, noun: "a number of changes", allowsZero: true)
        }
        json = arguments.flag(Self.json)
    }

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        let history = try runner.store.history()
        if history.unreadableLines > 0 {
            let lines = counted(history.unreadableLines, "line")
            context.errorOutput.write(
                "Warning: \(lines) of the history could not be read as changes and \(history.unreadableLines == 1 ? "was" : "were") left out\n"
            )
        }
        if json {
            context.output.write(bytes: runner.historyRenderer.json(history, limit: limit))
        } else {
            runner.write(runner.historyRenderer.list(history, limit: limit))
            if history.entries.isEmpty, context.output.isTerminal {
                context.errorOutput.write(
                    "No changes yet. Every change to the list is kept here, and 'todo undo' takes it back.\n")
            }
        }
    }
}
