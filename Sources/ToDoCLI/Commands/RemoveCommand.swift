import ToDoCore

/// `todo remove`: deletes items.
struct RemoveCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "remove", summary: "Delete items.", arguments: [CommonOptions.references], options: [CommonOptions.json],
        discussion: "All refs are resolved first; if one fails, nothing is deleted. Numbers are never reused.",
        argumentCompletion: .items(.all), aliases: ["rm", "del", "delete"], changesList: true)

    static let keepsSubtasksWithTheirParent = true

    var references: [ItemReference]
    var json = false

    static func change(_ manager: inout ItemManager, _ item: ToDoItem, rules: TimeZoneRules) throws -> ItemResult {
        ItemResult(item: try manager.removeItem(withID: item.id), verb: "Removed")
    }
}
