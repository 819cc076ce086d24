import ToDoCore

/// `todo check`: marks items done.
struct CheckCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "check", summary: "Mark items done.", arguments: [CommonOptions.references], options: [CommonOptions.json],
        discussion: "Checked items move to the end of the done items. All refs are resolved first; if one fails, nothing changes.",
        argumentCompletion: .items(.open), aliases: ["done", "do"], changesList: true)

    static let keepsSubtasksWithTheirParent = true

    var references: [ItemReference]
    var json = false

    static func change(_ manager: inout ItemManager, _ item: ToDoItem) throws -> ItemResult {
        ItemResult(item: try manager.checkItem(withID: item.id), verb: item.done ? "Already done" : "Checked", changed: !item.done)
    }
}
