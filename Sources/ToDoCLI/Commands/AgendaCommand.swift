import Foundation
import ToDoCore

/// `todo agenda`: the open items by when they are due: overdue, today, tomorrow, each of the next
/// days, later, and without a date.
struct AgendaCommand: ListCommand {
    static let days = OptionSpec(name: "days", valueName: "n", help: "How many days, from today, get a heading of their own (default 7).")

    static let spec = CommandSpec(
        name: "agenda", summary: "Show open items by day, overdue first.",
        options: [days, CommonOptions.json],
        discussion: """
            Every open item, under Overdue, Today, Tomorrow, then each following day by name and
            date up to --days days from today, then Later and No date; a day without items is left
            out. Within a day, items come by due time, then in list order. --json gives the same
            groups: [{"group": "Today", "date": "2026-11-23", "items": [...]}, ...].
            """)

    /// The default of `--days`: a week, today included.
    static let defaultDays = 7

    var days = AgendaCommand.defaultDays
    var json = false

    init(days: Int = AgendaCommand.defaultDays, json: Bool = false) {
        self.days = days
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(UsageError) {
        try arguments.noPositionals()
        if let text = arguments.value(Self.days) {
            days = try arguments.count(text, of: Self.days.flag, noun: "a number of days")
            guard days <= 3660 else { throw arguments.error("invalid value '\(text)' for '\(Self.days.flag)'; use at most 3660 days") }
        }
        json = arguments.flag(CommonOptions.json)
    }

    /// One heading's items, and the day it names, if it names one.
    struct Group {
        var heading: String
        var day: Double?
        var items: [ToDoItem] = []
    }

    func run(with runner: CommandRunner) throws {
        let manager = try runner.store.load()
        let groups = Self.groups(manager.toDoItems, days: days, now: runner.context.now(), dates: runner.renderer.dates)
        if json {
            let objects: [JSONValue] = groups.map { group in
                var object = JSONObject()
                object["group"] = .string(group.heading)
                if let day = group.day { object["date"] = .string(runner.renderer.dates.isoDay(of: day)) }
                object["items"] = .array(group.items.map(\.json))
                return .object(object)
            }
            runner.context.output.write(bytes: JSONValue.array(objects).serialized())
        } else {
            runner.renderer.writeGroups(groups.map { ($0.heading, $0.items) }, width: runner.context.outputWidth, to: runner.context.output)
        }
    }

    /// The non-empty groups of `items`, in order: Overdue, Today, Tomorrow, the next days up to
    /// `days` from today (today counting as the first), Later, No date.
    static func groups(_ items: [ToDoItem], days: Int, now: Date, dates: DueDateFormatter) -> [Group] {
        let dates = dates.forManyDates()
        var overdue = Group(heading: "Overdue"), later = Group(heading: "Later"), undated = Group(heading: "No date")
        var byDay: [Int: Group] = [:]
        // Each due date read once, through the buffer (iterating the array would copy every item),
        // sorted as plain values (ties keep list order), then the items dealt out.
        var dated: [(due: Double, index: Int)] = [], undatedIndices: [Int] = []
        items.withUnsafeBufferPointer { items in
            for index in items.indices {
                if let due = items[index].due { dated.append((dates.moment(of: due), index)) } else { undatedIndices.append(index) }
            }
        }
        dated.sort { ($0.due, $0.index) < ($1.due, $1.index) }
        for (due, index) in dated {
            let item = items[index]
            let ahead = dates.daysFrom(now, to: due)
            if ahead < 0 {
                overdue.items.append(item)
            } else if ahead < days {
                if byDay[ahead] == nil {
                    let start = dates.startOfDay(of: due)
                    let heading = ahead == 0 ? "Today" : ahead == 1 ? "Tomorrow" : "\(dates.weekdayName(of: due)) \(dates.string(from: start))"
                    byDay[ahead] = Group(heading: heading, day: start)
                }
                byDay[ahead]!.items.append(item)
            } else {
                later.items.append(item)
            }
        }
        undated.items = undatedIndices.map { items[$0] }
        return ([overdue] + byDay.keys.sorted().map { byDay[$0]! } + [later, undated]).filter { !$0.items.isEmpty }
    }
}
