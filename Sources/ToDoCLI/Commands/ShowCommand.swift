import ToDoCore
import ToDoModel

import struct ToDoStorage.StoredItem

/// `todo show`: every field of one item.
struct ShowCommand: ListCommand {
    static let spec = CommandSpec(
        name: "show", summary: "Show every field of items.", arguments: [CommonOptions.references],
        options: [CommonOptions.json], argumentCompletion: .items(.all), aliases: ["info"])

    var references: [ItemReference]
    var json = false

    init(references: [ItemReference], json: Bool = false) {
        self.references = references
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        references = try arguments.references()
        json = arguments.flag(CommonOptions.json)
    }

    /// One item as before; several one after another (a blank line between), or as a JSON array.
    func run(with runner: CommandRunner) throws {
        let manager = try runner.load()
        let items = try manager.resolve(references)
        /// The item's fields, its parent and its direct subtasks.
        func details(_ item: ToDoItem) -> String {
            let subtasks = manager.subtasks(of: item.id)
            return runner.renderer.details(item, parent: item.parent.flatMap(manager.item(withID:)), subtasks: subtasks)
        }
        if items.count == 1 {
            runner.write(json ? runner.renderer.json(items[0]) : details(items[0]))
        } else if json {
            runner.renderer.writeJSON([items.map(StoredItem.init)], to: runner.context.output)
        } else {
            runner.write(items.map(details).joined(separator: "\n"))
        }
    }
}
