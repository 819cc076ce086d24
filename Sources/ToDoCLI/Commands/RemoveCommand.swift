import ToDoCore
import ToDoModel

/// `todo remove`: deletes items.
struct RemoveCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "remove", summary: "Delete items.", arguments: [CommonOptions.references], options: [CommonOptions.json],
        discussion: "All refs are resolved first; if one fails, nothing is deleted. Numbers are never reused.",
        argumentCompletion: .items(.all), aliases: ["rm", "rem", "del", "delete"], changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try manager.removeItems(withIDs: items.map(\.id)).map { ItemResult(item: $0, verb: "Removed") }
    }
}
