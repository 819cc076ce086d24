import ToDoCore
import ToDoModel

/// A command that does one thing to each item its references name (`check`, `uncheck`, `remove`,
/// `postpone`), all in one transaction: a bad reference or a refusal leaves everything as it was.
protocol EachItemCommand: ListCommand {
    var references: [ItemReference] { get }
    var json: Bool { get }
    /// Does the command's thing to `items`, by the list's rules: each item as it is now, the verb
    /// that says what happened, and whether that changed it (`check` of a done item does not).
    /// Dates are read in `rules` (where a repeating item is next due).
    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult]
}

/// An `EachItemCommand` that takes refs and `--json` alone.
protocol RefsOnlyCommand: EachItemCommand {
    init(references: [ItemReference], json: Bool)
}

/// What a command did to one item.
struct ItemResult {
    var item: ToDoItem
    var verb: String
    var changed = true
    /// For a repeating item checked: the item as it was, and what checking it did.
    var occurrence: (before: ToDoItem, checked: CheckedOccurrence)?
}

extension RefsOnlyCommand {
    init(_ arguments: CommandArguments) throws(CommandError) {
        self.init(references: try arguments.references(), json: arguments.flag(CommonOptions.json))
    }
}

extension EachItemCommand {
    /// Applies `edit` to each of `items`, saying `changed` of those it changed and `unchanged` of
    /// those that had its values already (`start` of an item begun, `pri` to its own priority).
    static func applying(
        _ edit: ItemEdit, to items: [ToDoItem], in manager: inout ItemManager,
        changed: String, unchanged: String
    ) throws -> [ItemResult] {
        try items.map { item in
            let edited = try manager.edit(itemWithID: item.id, edit)
            return ItemResult(item: edited, verb: edited == item ? unchanged : changed, changed: edited != item)
        }
    }

    func run(with runner: CommandRunner) throws {
        let results = try runner.store.update(command: runner.arguments) { manager in
            try change(&manager, try manager.resolve(references), rules: runner.renderer.dates.rules)
        }
        if json {
            // Each item as `list --json` shows it, with whether the command changed it; a repeating
            // item checked, with the done item that records the occurrence.
            let objects: [JSONValue] = results.map { result in
                guard case .object(var object) = result.item.json else { return result.item.json }
                object["changed"] = .bool(result.changed)
                if let occurrence = result.occurrence, occurrence.checked.series != nil {
                    object["checkedOccurrence"] = occurrence.checked.record.json
                }
                return .object(object)
            }
            runner.context.output.write(bytes: JSONValue.array(objects).serializedOneElementPerLine())
        } else {
            runner.write(
                results.map { result in
                    guard let (before, checked) = result.occurrence else {
                        return "\(result.verb) \(runner.renderer.summary(result.item))\n"
                    }
                    return "\(result.verb) \(runner.renderer.occurrenceSummary(before, checked))\n"
                }.joined())
        }
    }
}
