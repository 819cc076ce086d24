import ToDoCore
import ToDoModel

/// `todo lists`: the lists the items belong to, with their counts; `rename` and `remove` one.
struct ListsCommand: ListCommand {
    static let to = OptionSpec(
        name: "to", valueName: "list", help: "remove: the list its items move to ('default' for the default list).",
        completion: .names(.lists))
    static let spec = CommandSpec(
        name: "lists", summary: "Show the lists and their counts; rename or remove one.",
        arguments: [
            ArgumentSpec(
                name: "action", help: "rename <list> <new name>, or remove <list> [--to <list>]; none to show them.",
                isOptional: true),
            ArgumentSpec(name: "name", help: "The list, and for rename its new name.", isOptional: true, repeats: true)
        ],
        options: [to, CommonOptions.json],
        discussion: """
            Every item belongs to a list: the default list (named 'default' where a name is typed),
            or one given with --list (todo add "Send the report" --list Work; todo edit 3 --list Home
            moves it). Numbers are the file's, whatever the list. A list exists while items are in
            it; names are told apart ignoring case. 'rename' gives every item of a list the new name,
            and is refused while another list of that name holds items (remove merges them);
            'remove' takes a list away, moving its items to the list --to names, and is refused while
            it holds items without one. A synced list is a calendar of its own.
            """,
        argumentCompletion: .words(["rename", "remove"]), changesList: true)

    enum Action: Equatable {
        case show(json: Bool)
        case rename(from: String?, to: String?)
        case remove(String?, movingTo: String??)
    }

    var action: Action

    init(_ arguments: CommandArguments) throws(CommandError) {
        let words = arguments.scanned.positionals
        func name(_ text: String) throws(CommandError) -> String? {
            guard let list = ListName.typed(Whitespace.trimmingSpaces(text)) else {
                throw arguments.error("'\(TerminalText.printable(text))' is not a list's name: one line, not empty")
            }
            return list
        }
        switch words.first {
        case nil:
            if arguments.value(Self.to) != nil { throw arguments.error("'--to' goes with 'todo lists remove'") }
            action = .show(json: arguments.flag(CommonOptions.json))
        case "rename":
            guard words.count == 3 else {
                throw arguments.error(
                    "todo lists rename needs the list and its new name: todo lists rename Work Office")
            }
            action = .rename(from: try name(words[1]), to: try name(words[2]))
        case "remove":
            guard words.count == 2 else {
                throw arguments.error("todo lists remove needs one list: todo lists remove Work --to Home")
            }
            action = .remove(
                try name(words[1]),
                movingTo: try arguments.value(Self.to).map { text throws(CommandError) in try name(text) })
        case let other?:
            throw arguments.error(
                "unknown lists action '\(TerminalText.printable(other))'; use rename or remove, or none to show the lists"
            )
        }
        if case .show = action {
        } else if arguments.flag(CommonOptions.json) {
            throw arguments.error("'--json' goes with 'todo lists' alone")
        }
    }

    func run(with runner: CommandRunner) throws {
        switch action {
        case .show(let json):
            let lists = try runner.load().lists()
            if json {
                let objects: [JSONValue] = lists.map { list in
                    var object = JSONObject()
                    object["name"] = list.name.map(JSONValue.string) ?? .null
                    object["open"] = .number(String(list.open))
                    object["done"] = .number(String(list.done))
                    return .object(object)
                }
                runner.context.output.write(bytes: JSONValue.array(objects).serializedOneElementPerLine())
                return
            }
            let width = lists.map { DisplayWidth.of(TerminalText.printable(ListName.shown($0.name))) }.max() ?? 0
            for list in lists {
                let name = TerminalText.printable(ListName.shown(list.name))
                let counts = [counted(list.open, "open item")] + (list.done > 0 ? ["\(list.done) done"] : [])
                runner.write(
                    name + String(repeating: " ", count: width - DisplayWidth.of(name) + 2)
                        + counts.joined(separator: ", ") + "\n")
            }
        case .rename(let from, let to):
            guard from != to else { throw CommandError(message: "the list is named so already", command: Self.spec) }
            let moved = try runner.store.update(command: runner.arguments) { manager in
                try manager.renameList(from, to: to)
            }
            runner.write(
                "Renamed the list \(TerminalText.printable(ListName.shown(moved.list))) to \(TerminalText.printable(ListName.shown(to))): \(counted(moved.items.count, "item")).\n"
            )
        case .remove(let name, let target):
            let moved = try runner.store.update(command: runner.arguments) { manager in
                try manager.removeList(name, movingTo: target)
            }
            runner.write(
                "Removed the list \(TerminalText.printable(ListName.shown(moved.list))); \(counted(moved.items.count, "item")) moved to \(TerminalText.printable(ListName.shown(target ?? nil))).\n"
            )
        }
    }
}
