import ToDoCore
import ToDoModel

import struct ToDoStorage.StoredItem

/// Turns items into the text `todo` prints: the list, one-line summaries, the fields of `show`,
/// and JSON.
struct ItemRenderer {
    let style: Style
    let dates: DueDateFormatter
    let now: Date

    // MARK: list

    /// Writes the list as `todo list` prints it (`ListRenderer`), its rows fitted to `width` columns
    /// when there is one; with `depths` (for the open and the done items), subtasks indented under
    /// their parents.
    func writeList(
        open: [StoredItem], done: [StoredItem],
        trees: (open: ItemManager.TreeOrder, done: ItemManager.TreeOrder)? = nil,
        section: ListSection, width: Int?, priorityLetters: Bool = false, to output: TextOutput
    ) {
        ListRenderer(style: style, dates: dates, now: now, width: width, showsPriorityLetters: priorityLetters)
            .write(open: open, done: done, trees: trees, section: section, to: output)
    }

    /// Writes groups of items under headings (`todo agenda`), in the columns of the list.
    func writeGroups(
        _ groups: [(heading: String?, items: [StoredItem])], width: Int?, priorityLetters: Bool = false,
        to output: TextOutput
    ) {
        ListRenderer(style: style, dates: dates, now: now, width: width, showsPriorityLetters: priorityLetters)
            .write(groups: groups.map { ListRenderer.Group(heading: $0.heading, items: $0.items) }, to: output)
    }

    // MARK: One item

    /// `3: Call Mom (due Monday 01/10/22, at Home)`; with when its reminders ring, unless
    /// `withReminders` is false (a line that says it already).
    func summary(_ item: ToDoItem, withReminders: Bool = true) -> String {
        var details: [String] = []
        if let due = item.due {
            // 00:00 is the start of the day, which people mean by "midnight" as often as the end.
            details.append(
                "due \(dayAndDate(due))"
                    + (dates.isMidnight(due) ? ", as " + dates.weekdayName(of: due) + " begins" : ""))
        }
        if let rule = item.repeatRule { details.append("repeats \(Self.repeatText(rule))") }
        if withReminders, !item.done, !item.alarms.isEmpty {
            let moments = item.alarms.compactMap { $0.moment(of: item, in: dates.rules) }.sorted()
            details.append(
                (moments.count == 1 ? "reminder " : "reminders ")
                    + moments.map { dayAndDate(.time($0)) }.joined(separator: ", "))
        }
        if let start = item.start { details.append("starts " + dayAndDate(start)) }
        if let location = item.location { details.append("at \(TerminalText.printable(location.name))") }
        if let priority = item.priority { details.append("priority \(PriorityLevel(priority).rawValue)") }
        if let project = item.project { details.append("project:" + TerminalText.printable(project)) }
        if let list = item.list.flatMap(ListName.stored) { details.append("list " + TerminalText.printable(list)) }
        let tags = Tags.notInTitle(item.tags, title: item.title)
        if !tags.isEmpty {
            details.append(TerminalText.printable(tags.map(Tags.shown).joined(separator: " ")))
        }
        return "\(item.number): \(TerminalText.printable(item.title))"
            + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// What checking a repeating item did, after "Checked": `3: Water the plants (due Monday 11/23/26,
    /// repeats every week); next due Monday 11/30/26, this time kept as done item 12`.
    func occurrenceSummary(_ before: ToDoItem, _ checked: CheckedOccurrence) -> String {
        guard let series = checked.series else {
            return summary(checked.record) + "; its last time, so it is done"
        }
        // A calendar's task may repeat by its start alone.
        let next = dueText(series).map { "due " + $0 } ?? series.start.map { "starts " + dayAndDate($0) } ?? "due -"
        return summary(before) + "; next \(next), this time kept as done item \(checked.record.number)"
    }

    /// The due as lines show it, `Monday 01/10/22` or `Monday 01/10/22 17:00`; `nil` for none.
    func dueText(_ item: ToDoItem) -> String? {
        item.due.map(dayAndDate)
    }

    /// `Monday 01/10/22`, or `Monday 01/10/22 17:00` for a time.
    func dayAndDate(_ date: ItemDate) -> String {
        "\(dates.weekdayName(of: date)) \(dates.string(from: date))"
    }

    /// `01/10/22 (Monday)`, as `show` lists dates.
    private func dateAndDay(_ date: ItemDate) -> String {
        "\(dates.string(from: date)) (\(dates.weekdayName(of: date)))"
    }

    /// A repeat rule as people say it (`every 2 weeks`), or its RRULE text.
    static func repeatText(_ rule: String) -> String {
        (try? RepeatRule(rule))?.summary ?? rule
    }

    /// Every field of the item, one per line, `-` for an absent one; with its parent and its
    /// subtasks (`todo show`) when given.
    func details(_ item: ToDoItem, parent: ToDoItem? = nil, subtasks: [ToDoItem] = []) -> String {
        var fields = Self.shownOrder.flatMap { rows(of: $0, item, parent: parent, subtasks: subtasks) }
        fields += [
            ("Number", String(item.number)),
            ("ID", item.id.uuidString),
            ("Created", item.createdAt.map(moment) ?? "-"),
            ("Completed", item.completedAt.map(moment) ?? "-"),
            ("Modified", item.modifiedAt.map(moment) ?? "-")
        ]
        let width = fields.map(\.0.count).max()! + 2
        return fields.map { label, value in
            let head = style.bold(label + ":") + String(repeating: " ", count: width - label.count - 1)
            // Continuation lines of a long description line up under its first line.
            return head
                + value.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + String(repeating: " ", count: width)) + "\n"
        }.joined()
    }

    /// The fields in the order `show` gives them (`ItemRendererTests` checks that it holds each).
    static let shownOrder: [ItemField] =
        [.title, .due, .repeatRule, .start, .alarms, .description, .annotations, .place] + ItemField.texts
        + [.priority, .tags, .parent, .status, .progress]

    /// The rows `show` gives `field` of `item`, each labelled, `-` for an absent value.
    private func rows(
        of field: ItemField, _ item: ToDoItem, parent: ToDoItem?, subtasks: [ToDoItem]
    ) -> [(String, String)] {
        switch field {
        case .title: return [(field.label, TerminalText.printable(item.title))]
        case .due: return [(field.label, item.due.map(dateAndDay) ?? "-")]
        case .repeatRule:
            return [
                (
                    field.label,
                    item.repeatRule.map { rule in
                        let words = Self.repeatText(rule)
                        let shown =
                            words == rule ? TerminalText.printable(rule) : "\(words) (\(TerminalText.printable(rule)))"
                        // A timed series follows the zone it was made in, wherever it is shown.
                        return shown + (item.repeatZone.map { ", in " + TerminalText.printable($0) } ?? "")
                    } ?? "-"
                )
            ]
        case .start: return [(field.label, item.start.map(dateAndDay) ?? "-")]
        case .description: return [(field.label, item.itemDescription.map(TerminalText.printableLines) ?? "-")]
        case .place:
            let coordinate = item.location?.coordinate
            var rows = [
                (field.label, item.location.map { TerminalText.printable($0.name) } ?? "-"),
                ("Address", item.location?.address.map(TerminalText.printable) ?? "-"),
                ("Coordinate", coordinate.map(Self.text(of:)) ?? "-")
            ]
            if let coordinate {
                let latitude = decimal(coordinate.latitude), longitude = decimal(coordinate.longitude)
                rows.append(
                    (
                        "Map",
                        "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=16/\(latitude)/\(longitude)"
                    ))
            }
            return rows
        case .priority: return [(field.label, item.priority.map { "\(PriorityLevel($0).rawValue) (\($0))" } ?? "-")]
        case .tags:
            return [
                (
                    field.label,
                    item.tags.isEmpty
                        ? "-" : item.tags.map { TerminalText.printable(Tags.shown($0)) }.joined(separator: " ")
                )
            ]
        case .parent:
            return [
                (field.label, parent.map { "\($0.number) \(TerminalText.printable($0.title))" } ?? "-"),
                (
                    "Subtasks",
                    subtasks.isEmpty
                        ? "-"
                        : subtasks.map { "\($0.number) \(TerminalText.printable($0.title))\($0.done ? " (done)" : "")" }
                            .joined(separator: "\n")
                )
            ]
        // Open, in progress or done, with how much is done, on one row.
        case .status:
            return [
                (
                    field.label,
                    (item.done ? style.green("done") : item.inProgress ? "in progress" : "open")
                        + (item.percentComplete.map { " (\($0)% done)" } ?? "")
                )
            ]
        case .progress: return []
        // As lists are told apart: `default ` is the default list.
        case .list: return [(field.label, item.list.flatMap(ListName.stored).map(TerminalText.printable) ?? "-")]
        // One line each: when it rings, and what it counts from.
        case .alarms:
            return [
                (
                    field.label,
                    item.alarms.isEmpty
                        ? "-"
                        : item.alarms.map { alarm in
                            let moment =
                                alarm.moment(of: item, in: dates.rules).map { dayAndDate(.time($0)) }
                                ?? "never (its date is gone)"
                            return alarm.isRelative ? moment + " (" + Self.offsetText(of: alarm) + ")" : moment
                        }.joined(separator: "\n")
                )
            ]
        // One line each, oldest first: when, and the note.
        case .annotations:
            return [
                (
                    field.label,
                    item.annotations.isEmpty
                        ? "-"
                        : item.annotations.map { note in
                            (note.time.map { moment($0) + "  " } ?? "") + TerminalText.printable(note.text)
                        }.joined(separator: "\n")
                )
            ]
        // The other text fields (`ItemField.texts`: a link, a project), each as it is.
        default: return [(field.label, item[text: field].map(TerminalText.printable) ?? "-")]
        }
    }

    /// How long before or after its date a relative alarm rings: `15 minutes before the due`,
    /// `1 hour 30 minutes before the start`, `at the due`, `2 days after the due`.
    static func offsetText(of alarm: Alarm) -> String {
        let (seconds, date): (Int, String)
        switch alarm.trigger {
        case .beforeDue(let offset): (seconds, date) = (offset, "the due")
        case .beforeStart(let offset): (seconds, date) = (offset, "the start")
        case .at: return "at a set time"
        }
        guard seconds != 0 else { return "at " + date }
        return durationText(Int(seconds.magnitude)) + (seconds > 0 ? " before " : " after ") + date
    }

    /// `1 hour 30 minutes`, `2 days`, `1 week`, `45 seconds`.
    static func durationText(_ seconds: Int) -> String {
        let units = [("week", 604_800), ("day", 86_400), ("hour", 3600), ("minute", 60), ("second", 1)]
        var rest = seconds, parts: [String] = []
        for (name, length) in units where rest >= length {
            let count = rest / length
            rest %= length
            parts.append(counted(count, name))
        }
        return parts.isEmpty ? "0 seconds" : parts.joined(separator: " ")
    }

    /// A created or completed time: its date and time of day.
    func moment(_ timestamp: Double) -> String {
        let text = dates.string(from: timestamp)
        return text.contains(":") ? text : text + " 00:00"
    }

    private func decimal(_ value: Double) -> String {
        JSONValue.literal(for: value)
    }

    /// A coordinate as `39.7817, -89.6501`.
    static func text(of coordinate: Coordinate) -> String {
        "\(JSONValue.literal(for: coordinate.latitude)), \(JSONValue.literal(for: coordinate.longitude))"
    }

    // MARK: JSON

    /// One item as JSON, in the store's item schema with its number; each reminder says when it
    /// rings (`"rings"`, in seconds since 1970), as `show` does.
    func json(_ item: ToDoItem) -> String {
        var value = item.json
        if case .object(var object) = value, !item.alarms.isEmpty {
            object["alarms"] = .array(
                item.alarms.map { alarm in
                    guard case .object(var members) = alarm.json else { return alarm.json }
                    members["rings"] =
                        alarm.moment(of: item, in: dates.rules).map { .number(JSONValue.literal(for: $0)) } ?? .null
                    return .object(members)
                })
            value = .object(object)
        }
        return String(decoding: value.serialized(), as: UTF8.self)
    }

    /// Writes the items of `sections`, one after another, as a JSON array, one item per line, in
    /// pieces.
    func writeJSON(_ sections: [[StoredItem]], to output: TextOutput) {
        StoredItem.writeJSONArray(sections, to: { output.write(bytes: $0) })
    }
}
