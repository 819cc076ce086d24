import ToDoCore
import ToDoModel

/// `todo postpone`: moves each item's due, and its start with it, later by a period (topydo's verb).
struct PostponeCommand: EachItemCommand {
    static let spec = CommandSpec(
        name: "postpone", summary: "Move items' due dates later by a period.",
        arguments: [
            CommonOptions.references, ArgumentSpec(name: "period", help: "How much later: 2d, 1w, 3m (months), 1y.")
        ],
        options: [CommonOptions.json],
        discussion: """
            todo postpone 1 2d moves item 1's due two days later, from where it is (not from today), and its
            start with it; todo postpone 1-3 1w moves three. A time keeps its clock time; a month later keeps
            the day of the month, or the month's last. An item with neither a due nor a start is refused. All
            refs are resolved first; if one fails, nothing changes.
            """,
        argumentCompletion: .items(.open), aliases: ["defer"], changesList: true)

    var references: [ItemReference]
    var period: DatePeriod
    var json = false

    init(references: [ItemReference], period: DatePeriod, json: Bool = false) {
        self.references = references
        self.period = period
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        let words = try arguments.positionals(atLeast: 1)
        guard words.count >= 2 else { throw arguments.error("missing '<period>', as 2d or 1w") }
        guard let period = DatePeriod(words.last!) else {
            throw arguments.error(
                "invalid period '\(TerminalText.printable(words.last!))'; use a number and d, w, m or y, as 2d, 1w, 3m, 1y"
            )
        }
        self.init(
            references: try arguments.references(in: Array(words.dropLast())), period: period,
            json: arguments.flag(CommonOptions.json))
    }

    func change(_ manager: inout ItemManager, _ items: [ToDoItem], rules: TimeZoneRules) throws -> [ItemResult] {
        try items.map { item in
            ItemResult(
                item: try manager.postpone(itemWithID: item.id, by: period, rules: rules),
                verb: "Postponed \(period.text):")
        }
    }
}
