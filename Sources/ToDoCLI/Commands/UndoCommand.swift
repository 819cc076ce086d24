import ToDoCore

/// `todo undo`: takes back the last changes, or one change from the history.
struct UndoCommand: ListCommand {
    static let change = OptionSpec(
        name: "change", valueName: "number",
        help: "Take back this one change from 'todo history' instead, leaving later ones.")

    static let spec = CommandSpec(
        name: "undo", summary: "Take back the last change, or the last n changes.",
        arguments: [
            ArgumentSpec(
                name: "n", help: "How many changes to take back, newest first (1 if not given).", isOptional: true)
        ],
        options: [change, CommonOptions.jsonChanges],
        discussion: """
            Any command that changed the list can be taken back: add, check, uncheck, edit, remove,
            clear, import, and undo itself ('todo redo'). Undoing again goes further back. Items come
            back as they were, with their numbers and in their places; numbers are never reused.
            A change is refused, and nothing changes, when an item it touched was changed since by a
            later change (take that back first) or outside todo. The history keeps the last 100 changes.
            """,
        changesList: true)

    var selection: UndoSelection
    var json = false

    init(selection: UndoSelection, json: Bool = false) {
        self.selection = selection
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        if let number = arguments.value(Self.change) {
            try arguments.noPositionals()
            selection = .change(
                try arguments.count(number, of: Self.change.flag, noun: "a change number from 'todo history'"))
        } else {
            selection = .latest(try arguments.optionalCount())
        }
        json = arguments.flag(CommonOptions.jsonChanges)
    }

    func run(with runner: CommandRunner) throws {
        try runner.undo(selection, json: json)
    }
}
