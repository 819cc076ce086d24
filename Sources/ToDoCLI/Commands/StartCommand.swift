import ToDoCore

/// `todo start` and `todo stop`: Taskwarrior's verbs for an item being worked on, the state
/// iCalendar calls `IN-PROCESS`. Checking an item ends it too.
struct StartCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "start", summary: "Mark items as begun: in progress.", arguments: [CommonOptions.references], options: [CommonOptions.json],
        discussion: """
            An item in progress shows '>' in place of its box in 'todo list', and 'In progress' in 'todo show';
            'todo next' ranks it higher. 'todo stop' or 'todo check' ends it. A done item is not begun.
            All refs are resolved first; if one fails, nothing changes.
            """,
        argumentCompletion: .items(.open), changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try items.map { item in
            let started = try manager.edit(itemWithID: item.id, ItemEdit(inProgress: true))
            return ItemResult(item: started, verb: item.inProgress ? "Already begun" : "Started", changed: !item.inProgress)
        }
    }
}

/// `todo stop`: the item is no longer being worked on; it stays open.
struct StopCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "stop", summary: "Mark items as no longer in progress.", arguments: [CommonOptions.references], options: [CommonOptions.json],
        discussion: "The items stay open. All refs are resolved first; if one fails, nothing changes.",
        argumentCompletion: .items(.open), changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try items.map { item in
            let stopped = try manager.edit(itemWithID: item.id, ItemEdit(inProgress: false))
            return ItemResult(item: stopped, verb: item.inProgress ? "Stopped" : "Not begun", changed: item.inProgress)
        }
    }
}
