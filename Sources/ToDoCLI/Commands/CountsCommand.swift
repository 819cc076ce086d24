import ToDoCore
import ToDoModel

/// `todo projects` and `todo tags`: each project or tag of the open items, with how many items
/// carry it, as Taskwarrior's `task projects` and `task tags` count them.
protocol CountsCommand: ListCommand {
    /// The JSON member that holds the name: `project` or `tag`.
    static var key: String { get }
    var json: Bool { get }
    init(json: Bool)
    /// The counts, in the order shown.
    func counts(in manager: ItemManager) -> [NameCount]
    /// How a name is shown.
    func shown(_ name: String) -> String
    /// What to say on a terminal when there is none.
    static var noneHint: String { get }
}

/// `todo projects`.
struct ProjectsCommand: CountsCommand {
    static let spec = CommandSpec(
        name: "projects", summary: "Show the projects of the open items, with their counts.",
        options: [jsonCounts],
        discussion: """
            A project holds the items of its parts (home counts those of home.garden), shown under it
            by their last part, indented; 'todo list project:home' lists them. Done items are not counted.
            """)
    static let key = "project"
    static let noneHint = "No open item has a project. Give one with: todo add \"Fix the fence\" project:home\n"
    var json = false

    func counts(in manager: ItemManager) -> [NameCount] { manager.projectCounts() }

    /// A project's parts under it, by their last part, as Taskwarrior shows them.
    func shown(_ name: String) -> String {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return String(repeating: "  ", count: parts.count - 1) + TerminalText.printable(String(parts.last ?? ""))
    }
}

/// `todo tags`.
struct TagsCommand: CountsCommand {
    static let spec = CommandSpec(
        name: "tags", summary: "Show the tags of the open items, with their counts.",
        options: [jsonCounts],
        discussion: "Tags are told apart ignoring case; 'todo list +home' lists the items. Done items are not counted.")
    static let key = "tag"
    static let noneHint = "No open item has a tag. Give one with: todo add \"Buy milk\" +errand\n"
    var json = false

    func counts(in manager: ItemManager) -> [NameCount] { manager.tagCounts() }

    func shown(_ name: String) -> String { TerminalText.printable(name) }
}

private let jsonCounts = OptionSpec(
    name: "json", valueName: nil, help: "Print each name and its count as JSON instead of text.")

extension CountsCommand {
    init(_ arguments: CommandArguments) throws(CommandError) {
        try arguments.noPositionals()
        self.init(json: arguments.flag(jsonCounts))
    }

    func run(with runner: CommandRunner) throws {
        let manager = try runner.load()
        let counts = counts(in: manager)
        if json {
            let objects: [JSONValue] = counts.map { count in
                var object = JSONObject()
                object[Self.key] = .string(count.name)
                object["open"] = .number(String(count.open))
                return .object(object)
            }
            runner.context.output.write(bytes: JSONValue.array(objects).serializedOneElementPerLine())
            return
        }
        let names = counts.map { shown($0.name) }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let countWidth = counts.map { String($0.open).count }.max() ?? 0
        for (name, count) in zip(names, counts) {
            let number = String(count.open)
            runner.write(
                name + String(repeating: " ", count: nameWidth - DisplayWidth.of(name) + 2 + countWidth - number.count)
                    + number + "\n")
        }
        if counts.isEmpty, runner.context.output.isTerminal {
            runner.context.errorOutput.write(Self.noneHint)
        }
    }
}
