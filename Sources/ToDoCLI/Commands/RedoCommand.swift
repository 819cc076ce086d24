import ToDoCore

/// `todo redo`: takes back the last undos.
struct RedoCommand: ListCommand {
    static let spec = CommandSpec(
        name: "redo", summary: "Take back the last undo, or the undos of the last n changes.",
        arguments: [
            ArgumentSpec(
                name: "n",
                help:
                    "How many undone changes to make again, counted as 'todo undo n' counts them (the last undo if not given).",
                isOptional: true)
        ],
        options: [CommonOptions.jsonChanges],
        discussion: """
            Makes the changes that 'todo undo' took back again: after 'todo undo 3', 'todo redo 3' (or
            'todo redo') makes those three again. An undo is taken back whole: a count that would split
            one is refused, naming the count that fits. Refused like undo when an item changed since.
            """,
        changesList: true)

    /// How many undone changes to make again; `nil` for the last undo, whatever it took back.
    var count: Int?
    var json = false

    init(count: Int? = nil, json: Bool = false) {
        self.count = count
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        count = try arguments.optionalCount()
        json = arguments.flag(CommonOptions.jsonChanges)
    }

    func run(with runner: CommandRunner) throws {
        try runner.undo(.latestUndos(count), json: json)
    }
}
