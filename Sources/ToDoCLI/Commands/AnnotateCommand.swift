import ToDoCore
import ToDoModel

/// `todo annotate`: a dated note on an item, as Taskwarrior's `annotate`.
struct AnnotateCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "annotate", summary: "Add a dated note to an item.",
        arguments: [
            CommonOptions.reference,
            ArgumentSpec(name: "text", help: "The note, one line; several words are joined with spaces.", repeats: true)
        ],
        options: [CommonOptions.json],
        discussion: """
            todo annotate 3 Called, no answer adds the note to item 3 with the time it was written; 'todo show'
            lists an item's notes, oldest first. Taskwarrior's annotations import as notes with their times
            and export back; iCalendar keeps each as a COMMENT. 'todo undo' takes a note back.
            """,
        argumentCompletion: .items(.all), changesList: true)

    var references: [ItemReference]
    var text: String
    var json = false

    init(_ arguments: CommandArguments) throws(CommandError) {
        let words = try arguments.positionals(atLeast: 1)
        guard words.count >= 2 else { throw arguments.error("missing '<text>', the note to add") }
        references = try arguments.references(in: [words[0]])
        let text = Whitespace.trimmingSpaces(words.dropFirst().joined(separator: " "))
        guard !text.isEmpty else { throw arguments.error("the note is empty") }
        guard ItemField.isOneLine(text) else { throw arguments.error("a note is one line, without control characters") }
        self.text = text
        json = arguments.flag(CommonOptions.json)
    }

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try items.map { item in ItemResult(item: try manager.annotate(itemWithID: item.id, text), verb: "Annotated") }
    }
}
