import ToDoCore

/// `todo redo`: takes back the last undos.
struct RedoCommand: ListCommand {
    static let spec = CommandSpec(
        name: "redo", summary: "Take back the last undo, or the last n undos.",
        arguments: [
            ArgumentSpec(
                name: "n", help: "How many undos to take back, newest first (1 if not given).", isOptional: true)
        ],
        options: [CommonOptions.jsonChanges],
        discussion: "Makes the changes that 'todo undo' took back again. Refused like undo when an item changed since.",
        changesList: true)

    var count = 1
    var json = false

    init(count: Int = 1, json: Bool = false) {
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
