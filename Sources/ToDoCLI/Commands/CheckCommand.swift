import ToDoCore

/// `todo check`: marks items done.
struct CheckCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "check", summary: "Mark items done.", arguments: [CommonOptions.references], options: [CommonOptions.json],
        discussion: """
            Checked items move to the end of the done items. All refs are resolved first; if one fails, nothing changes.
            A repeating item stays open with its number, its due moved to the next occurrence still ahead; a done
            copy with a number of its own records the occurrence checked ('todo undo' takes both back).
            """,
        argumentCompletion: .items(.open), aliases: ["done", "do"], changesList: true)

    static let keepsSubtasksWithTheirParent = true

    var references: [ItemReference]
    var json = false

    static func change(_ manager: inout ItemManager, _ item: ToDoItem, rules: TimeZoneRules) throws -> ItemResult {
        guard item.repeatRule != nil, !item.done else {
            return ItemResult(item: try manager.checkItem(withID: item.id), verb: item.done ? "Already done" : "Checked", changed: !item.done)
        }
        let checked = try manager.checkOccurrence(withID: item.id, rules: rules)
        return ItemResult(item: checked.series ?? checked.record, verb: "Checked", occurrence: (item, checked))
    }
}
