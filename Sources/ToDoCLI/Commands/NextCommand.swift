import ToDoCore
import ToDoModel

/// `todo next`: the open items to do next, most urgent first, as Taskwarrior's default report.
struct NextCommand: ListCommand {
    static let spec = CommandSpec(
        name: "next", summary: "Show the open items to do next, most urgent first.",
        arguments: [QueryOptions.filterWords],
        options: QueryOptions.filters + [QueryOptions.limit, CommonOptions.json],
        exclusiveOptions: QueryOptions.exclusions,
        discussion: """
            Open items that can be done now, ranked as Taskwarrior's 'next' ranks its tasks, with its
            coefficients: the due (12, from two weeks ahead to a week overdue), the tag +next (15),
            another item waits for it (8: a subtask of an open item, or a task an open one still
            depends on in Taskwarrior), priority (high 6, medium 3.9, low 1.8), a start or
            Taskwarrior's scheduled that has come (5), in progress (4), age (2 at a year),
            annotations and tags (0.8, 0.9, 1 for one, two, three or more), a project (1); an item
            that waits for open ones (its subtasks, or tasks it depends on) counts 5 less. Items waiting for a start
            after today and done items are left out. Shows a screenful on a terminal (--limit sets
            how many; 20 when the output is not a terminal), and the filters of 'todo list'
            (todo next +work --list Work due.before:eow). --json gives the same items, each with its "urgency". 'todo' alone
            stays 'todo list'.
            """,
        attributeWords: .filter)

    /// How many a pipe gets when no `--limit` is given.
    static let defaultLimit = 20

    var query = ItemQuery()
    var limit: Int?
    var json = false

    init(_ arguments: CommandArguments) throws(CommandError) {
        let section: ListSection
        (section, query) = try arguments.selection()
        if section == .done {
            throw arguments.error("'todo next' shows open items; 'todo list --done' shows the done ones")
        }
        // The query's limit is applied here, after the ranking.
        limit = query.limit
        query.limit = nil
        json = arguments.flag(CommonOptions.json)
    }

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        let manager = try runner.load()
        let now = context.now(), dates = runner.renderer.dates
        let open = manager.openStored.array
        let matching = query.apply(open: open, done: [], now: now, dates: dates, latestDone: nil).open
        let (ranked, finePriorities) = manager.rankedByUrgency(matching, now: now, dates: dates)
        // A screenful: the terminal's rows less the prompt and the line that says what was left.
        let shown = limit ?? context.outputHeight.map { max($0 - 3, 5) } ?? Self.defaultLimit
        let items = ranked.prefix(shown)
        if json {
            let objects: [JSONValue] = items.map { ranked in
                guard case .object(var object) = ranked.item.item.json else { return ranked.item.item.json }
                object["urgency"] = .number(JSONValue.literal(for: (ranked.urgency * 100).rounded() / 100))
                return .object(object)
            }
            context.output.write(bytes: JSONValue.array(objects).serializedOneElementPerLine())
            return
        }
        runner.renderer.writeList(
            open: items.map(\.item), done: [], section: .open, width: context.outputWidth,
            priorityLetters: finePriorities, to: context.output)
        if ranked.count > items.count {
            context.errorOutput.write(
                "… \(counted(ranked.count - items.count, "more item")): todo next --limit \(ranked.count)\n")
        }
        if ranked.isEmpty, context.output.isTerminal {
            context.errorOutput.write("Nothing to do next. Add an item with: todo add \"Call Mom\" --due tomorrow\n")
        }
    }
}
