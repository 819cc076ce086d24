import Foundation
import ToDoCore

/// Turns items into the text `todo` prints: list rows, one-line summaries, the fields of `show`,
/// and JSON.
struct ItemRenderer {
    let style: Style
    let dates: DueDateFormatter
    let now: Date

    // MARK: list

    /// The list as `todo list` prints it: open items, then done items under a "Done" heading when
    /// both sections are shown. Columns line up across both sections.
    func list(open: [ToDoItem], done: [ToDoItem], section: ListSection) -> String {
        let shownOpen = section == .done ? [] : open
        let shownDone = section == .open ? [] : done
        let columns = Columns(items: [shownOpen, shownDone].joined(), dates: dates)
        var output = ""
        output.reserveCapacity((shownOpen.count + shownDone.count) * (columns.number + columns.title + columns.due + 24))
        for item in shownOpen { appendRow(item, columns, to: &output) }
        if !shownDone.isEmpty {
            if section == .all {
                if !shownOpen.isEmpty { output += "\n" }
                output += style.bold("Done") + "\n"
            }
            for item in shownDone { appendRow(item, columns, to: &output) }
        }
        return output
    }

    private struct Columns {
        var number = 0, title = 0, due = 0

        init<Items: Sequence<ToDoItem>>(items: Items, dates: DueDateFormatter) {
            for item in items {
                number = max(number, String(item.number).count)
                title = max(title, ItemRenderer.width(of: TerminalText.printable(item.title)))
                due = max(due, item.timestamp.map { dates.string(from: $0).count } ?? 0)
            }
        }
    }

    /// How many columns `text` takes: its characters (counted cheaply when it is ASCII).
    static func width(of text: String) -> Int {
        text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.count : text.count
    }

    /// Appends one row: number, mark, title, due date, location, in aligned columns. A column is
    /// padded only when another follows it, so no row ends in spaces.
    private func appendRow(_ item: ToDoItem, _ columns: Columns, to output: inout String) {
        let number = String(item.number)
        let title = TerminalText.printable(item.title)
        output += String(repeating: " ", count: columns.number - number.count)
        output += style.bold(number)
        output += item.done ? " \(style.green("[x]")) " : " [ ] "
        output += item.done ? style.dim(title) : title
        var owed = columns.title - Self.width(of: title)
        if columns.due > 0 {
            let due = item.timestamp.map { dates.string(from: $0) } ?? ""
            if !due.isEmpty || item.location != nil {
                output += String(repeating: " ", count: owed) + "  " + colouredDue(due, of: item)
                owed = columns.due - due.count
            }
        }
        if let location = item.location {
            output += String(repeating: " ", count: owed) + "  " + style.dim("@") + TerminalText.printable(location.name)
        }
        output += "\n"
    }

    /// Overdue open items in red, those due today in yellow.
    private func colouredDue(_ text: String, of item: ToDoItem) -> String {
        guard style.isEnabled, !item.done, let timestamp = item.timestamp else { return text }
        let days = dates.daysFrom(now, to: timestamp)
        return days < 0 ? style.red(text) : days == 0 ? style.yellow(text) : text
    }

    // MARK: One item

    /// `3: Call Mom (due Monday 01/10/22, at Home)`.
    func summary(_ item: ToDoItem) -> String {
        var details: [String] = []
        if let timestamp = item.timestamp {
            details.append("due \(dates.weekdayName(of: timestamp)) \(dates.string(from: timestamp))")
        }
        if let location = item.location { details.append("at \(TerminalText.printable(location.name))") }
        return "\(item.number): \(TerminalText.printable(item.title))" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// Every field of the item, one per line, `-` for an absent one.
    func details(_ item: ToDoItem) -> String {
        let coordinate = item.location?.coordinate
        var fields: [(String, String)] = [
            ("Title", TerminalText.printable(item.title)),
            ("Due", item.timestamp.map { "\(dates.string(from: $0)) (\(dates.weekdayName(of: $0)))" } ?? "-"),
            ("Description", item.itemDescription.map(TerminalText.printableLines) ?? "-"),
            ("Location", item.location.map { TerminalText.printable($0.name) } ?? "-"),
            ("Address", item.location?.address.map(TerminalText.printable) ?? "-"),
            ("Coordinate", coordinate.map { "\(decimal($0.latitude)), \(decimal($0.longitude))" } ?? "-"),
        ]
        if let coordinate {
            let latitude = decimal(coordinate.latitude), longitude = decimal(coordinate.longitude)
            fields.append(("Map", "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=16/\(latitude)/\(longitude)"))
        }
        fields += [
            ("Status", item.done ? style.green("done") : "open"),
            ("Number", String(item.number)),
            ("ID", item.id.uuidString),
            ("Created", item.createdAt.map(moment) ?? "-"),
            ("Completed", item.completedAt.map(moment) ?? "-"),
        ]
        let width = fields.map(\.0.count).max()! + 2
        return fields.map { label, value in
            let head = style.bold(label + ":") + String(repeating: " ", count: width - label.count - 1)
            // Continuation lines of a long description line up under its first line.
            return head + value.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + String(repeating: " ", count: width)) + "\n"
        }.joined()
    }

    /// A created or completed time: its date and time of day.
    private func moment(_ timestamp: Double) -> String {
        let text = dates.string(from: timestamp)
        return text.contains(":") ? text : text + " 00:00"
    }

    private func decimal(_ value: Double) -> String {
        JSONValue.literal(for: value)
    }

    // MARK: JSON

    /// One item as JSON, in the store's item schema with its number.
    func json(_ item: ToDoItem) -> String {
        String(decoding: item.json.serialized(), as: UTF8.self)
    }

    /// Writes items as a JSON array, one item per line, in pieces.
    func writeJSON<Items: Sequence<ToDoItem>>(_ items: Items, to output: TextOutput) {
        ToDoItem.writeJSONArray(items) { output.write(bytes: $0) }
    }
}
