import ToDoCore
import ToDoModel

/// `todo check`: marks items done.
struct CheckCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "check", summary: "Mark items done.", arguments: [CommonOptions.references],
        options: [CommonOptions.json],
        discussion: """
            Checked items move to the end of the done items. All refs are resolved first; if one fails, nothing changes.
            A repeating item stays open with its number, its due moved to the next occurrence still ahead; a done
            copy with a number of its own records the occurrence checked ('todo undo' takes both back).
            """,
        argumentCompletion: .items(.open), aliases: ["done", "do"], changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try manager.checkItems(withIDs: items.map(\.id), rules: rules).map { outcome in
            ItemResult(
                item: outcome.item, verb: outcome.changed ? "Checked" : "Already done", changed: outcome.changed,
                occurrence: outcome.occurrence)
        }
    }
}
