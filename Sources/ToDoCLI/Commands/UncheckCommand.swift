import ToDoCore
import ToDoModel

/// `todo uncheck`: marks done items open again.
struct UncheckCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "uncheck", summary: "Mark done items open again.", arguments: [CommonOptions.references],
        options: [CommonOptions.json],
        discussion: """
            Unchecked items go back to their place among the open items, in the order they were added. Refused when an open item already has the
            same content. All refs are resolved first; if one fails, nothing changes.
            """,
        argumentCompletion: .items(.done), changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try items.map { item in
            ItemResult(
                item: try manager.uncheckItem(withID: item.id), verb: item.done ? "Unchecked" : "Already open",
                changed: item.done)
        }
    }
}
