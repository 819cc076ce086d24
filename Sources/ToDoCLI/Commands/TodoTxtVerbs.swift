import ToDoCore
import ToDoModel

/// todo.sh's verbs, as its users type them: `pri`, `depri`, `append`, `prepend`.

/// `todo pri 1 A`: sets the priority, by todo.txt's letters or `--priority`'s words.
struct PriorityCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "pri", summary: "Set items' priority, as todo.sh does.",
        arguments: [
            CommonOptions.references,
            ArgumentSpec(
                name: "priority",
                help:
                    "A (highest) to Z (I and later are 9), as todo.txt writes it; or high, medium, low, 1 to 9, or none."
            )
        ],
        options: [CommonOptions.json],
        discussion: """
            todo pri 1 A gives item 1 the highest priority; the letters are todo.txt's, A to I for 1 to 9 and a later one 9
            (so H is todo.txt's eighth, not high: use 'high' for that). The same as todo edit 1 --priority 1.
            """,
        argumentCompletion: .items(.open), changesList: true)

    var references: [ItemReference]
    /// `nil`: remove it.
    var priority: Int?
    var json = false

    init(_ arguments: CommandArguments) throws(CommandError) {
        let words = try arguments.positionals(atLeast: 2)
        let text = words.last!
        if let letter = PriorityLevel.priority(ofLetter: text) {
            // todo.sh's letters, H its eighth; a letter after I is 9, as an import reads it.
            priority = letter
        } else if text.count == 1 {
            throw arguments.error(
                "invalid priority '\(TerminalText.printable(text))'; todo keeps todo.txt's A (highest) to Z, or high, medium, low, 1 to 9, none"
            )
        } else if let named = PriorityLevel.priority(named: text) {
            priority = named
        } else {
            throw arguments.error(
                "invalid priority '\(TerminalText.printable(text))'; use a letter A (highest) to Z, or high, medium, low, 1 to 9, none"
            )
        }
        references = try arguments.references(in: Array(words.dropLast()))
        json = arguments.flag(CommonOptions.json)
    }

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try Self.applying(
            ItemEdit(priority: priority.map { .set($0) } ?? .remove), to: items, in: &manager, changed: "Edited",
            unchanged: "Unchanged")
    }
}

/// `todo depri 1`: removes the priority, as todo.sh does.
struct DepriorityCommand: RefsOnlyCommand {
    static let spec = CommandSpec(
        name: "depri", summary: "Remove items' priority, as todo.sh does.", arguments: [CommonOptions.references],
        options: [CommonOptions.json],
        discussion: "The same as todo edit <ref> --no-priority.", argumentCompletion: .items(.open), changesList: true)

    var references: [ItemReference]
    var json = false

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try Self.applying(
            ItemEdit(priority: .remove), to: items, in: &manager, changed: "Edited", unchanged: "Unchanged")
    }
}

/// `todo append 1 text` and `todo prepend 1 text`: words added to the end or the start of a title.
struct AppendCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "append", summary: "Add words to the end of an item's title, as todo.sh does.",
        arguments: [
            CommonOptions.reference, ArgumentSpec(name: "text", help: "The words to add, after a space.", repeats: true)
        ],
        options: [CommonOptions.json],
        discussion:
            "todo append 1 \"for Mom\" makes 'Buy milk' 'Buy milk for Mom'; todo prepend adds them at the start. A +project or @context among them is a tag too, as on todo.sh's line.",
        argumentCompletion: .items(.all), changesList: true)

    var references: [ItemReference]
    var text: String
    var atStart = false
    var json = false

    init(_ arguments: CommandArguments) throws(CommandError) {
        let words = try arguments.positionals(atLeast: 2)
        references = try arguments.references(in: [words[0]])
        guard references.count == 1 else { throw arguments.error("name one item; its title gets the words") }
        text = try arguments.title(words.dropFirst().joined(separator: " "))
        atStart = arguments.spec.name == PrependCommand.spec.name
        json = arguments.flag(CommonOptions.json)
    }

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try items.map { item in
            let title = atStart ? text + " " + item.title : item.title + " " + text
            // Its `+project` and `@context` words are tags too, as on todo.sh's line.
            var edit = ItemEdit(title: title)
            edit.addedTags = text.split(separator: " ").compactMap { Tags.tag(inWord: String($0))?.tag }
            return ItemResult(item: try manager.edit(itemWithID: item.id, edit), verb: "Edited")
        }
    }
}

/// `todo prepend`: `append`'s words at the start.
struct PrependCommand: ListCommand {
    static let spec = CommandSpec(
        name: "prepend", summary: "Add words to the start of an item's title, as todo.sh does.",
        arguments: AppendCommand.spec.arguments, options: AppendCommand.spec.options,
        discussion: "todo prepend 1 Urgent: makes 'Buy milk' 'Urgent: Buy milk'.", argumentCompletion: .items(.all),
        changesList: true)

    var append: AppendCommand

    init(_ arguments: CommandArguments) throws(CommandError) {
        append = try AppendCommand(arguments)
    }

    func run(with runner: CommandRunner) throws {
        try append.run(with: runner)
    }
}
