import ToDoCore
import ToDoModel

/// `todo start` and `todo stop`: Taskwarrior's verbs for an item being worked on, the state
/// iCalendar calls `IN-PROCESS`. Checking an item ends it too.
struct StartCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "start", summary: "Mark items as begun: in progress.", arguments: [CommonOptions.references],
        options: [CommonOptions.json],
        discussion: """
            An item in progress shows [>] in place of its box in 'todo list', and 'in progress' in 'todo show';
            'todo next' ranks it higher. 'todo stop' or 'todo check' ends it. A done item is not begun.
            All refs are resolved first; if one fails, nothing changes.
            """,
        argumentCompletion: .items(.open), changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try Self.applying(
            ItemEdit(inProgress: true), to: items, in: &manager, changed: "Started", unchanged: "Already begun")
    }
}

/// `todo stop`: the item is no longer being worked on; it stays open.
struct StopCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "stop", summary: "Mark items as no longer in progress.", arguments: [CommonOptions.references],
        options: [CommonOptions.json],
        discussion: "The items stay open. All refs are resolved first; if one fails, nothing changes.",
        argumentCompletion: .items(.open), changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try Self.applying(
            ItemEdit(inProgress: false), to: items, in: &manager, changed: "Stopped", unchanged: "Not begun")
    }
}
