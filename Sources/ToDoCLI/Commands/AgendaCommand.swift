import ToDoCore
import ToDoModel

/// `todo agenda`: the open items by when they are due: overdue, today, tomorrow, each of the next
/// days, later, and without a date.
struct AgendaCommand: ListCommand {
    static let days = OptionSpec(
        name: "days", valueName: "n", help: "How many days, from today, get a heading of their own (default 7).")

    static let spec = CommandSpec(
        name: "agenda", summary: "Show open items by day, overdue first.",
        arguments: [QueryOptions.filterWords],
        options: [days] + QueryOptions.filters + [CommonOptions.json],
        exclusiveOptions: QueryOptions.exclusions,
        discussion: """
            Every open item (or those the filters of 'todo list' let through: todo agenda +work
            --list Work), under Overdue, Today, Tomorrow, then each following day by name and
            date up to --days days from today, then Later and No date; a day without items is left
            out. Within a day, items come by due time, then in list order. --json gives the same
            groups: [{"group": "Today", "date": "2026-11-23", "items": [...]}, ...].
            """,
        attributeWords: .filter)

    /// The default of `--days`: a week, today included.
    static let defaultDays = 7

    var days = AgendaCommand.defaultDays
    var json = false
    var query = ItemQuery()

    init(days: Int = AgendaCommand.defaultDays, json: Bool = false, query: ItemQuery = ItemQuery()) {
        self.days = days
        self.json = json
        self.query = query
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        let section: ListSection
        (section, query) = try arguments.selection()
        if section == .done {
            throw arguments.error("'todo agenda' shows open items; 'todo list --done' shows the done ones")
        }
        if let text = arguments.value(Self.days) {
            days = try arguments.count(text, of: Self.days.flag, noun: "a number of days")
            guard days <= 3660 else {
                throw arguments.error("invalid value '\(text)' for '\(Self.days.flag)'; use at most 3660 days")
            }
        }
        json = arguments.flag(CommonOptions.json)
    }

    func run(with runner: CommandRunner) throws {
        let manager = try runner.load()
        let now = runner.context.now(), dates = runner.renderer.dates
        let open = manager.openStored.array
        let items =
            query.isEmpty ? open : query.apply(open: open, done: [], now: now, dates: dates, latestDone: nil).open
        let groups = Agenda.groups(items, days: days, now: now, dates: dates)
        if json {
            let objects: [JSONValue] = groups.map { group in
                var object = JSONObject()
                object["group"] = .string(Self.heading(of: group.when, runner.renderer))
                if case .day(let day, _) = group.when { object["date"] = .string(day.isoText) }
                object["items"] = .array(group.items.map(\.item.json))
                return .object(object)
            }
            runner.context.output.write(bytes: JSONValue.array(objects).serialized())
        } else {
            runner.renderer.writeGroups(
                groups.map { (Self.heading(of: $0.when, runner.renderer), $0.items) },
                width: runner.context.outputWidth,
                priorityLetters: !query.isEmpty && ItemQuery.haveFinePriorities(open), to: runner.context.output)
        }
    }

    /// `Overdue`, `Today`, `Tomorrow`, `Wednesday 11/25/26`, `Later`, `No date`.
    static func heading(of when: Agenda.When, _ renderer: ItemRenderer) -> String {
        switch when {
        case .overdue: "Overdue"
        case .day(_, 0): "Today"
        case .day(_, 1): "Tomorrow"
        case .day(let day, _): renderer.dayAndDate(.day(day))
        case .later: "Later"
        case .undated: "No date"
        }
    }
}
