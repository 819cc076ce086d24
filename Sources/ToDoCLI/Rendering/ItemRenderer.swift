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
    /// both sections are shown. Columns line up across both sections. Written as bytes, each row's
    /// cells worked out once: a list of years of items is printed often.
    func list(open: [ToDoItem], done: [ToDoItem], section: ListSection) -> [UInt8] {
        let openRows = section == .done ? [] : open.map { Row($0, dates) }
        let doneRows = section == .open ? [] : done.map { Row($0, dates) }
        var columns = Columns()
        for row in [openRows, doneRows].joined() { columns.widen(for: row) }
        var output: [UInt8] = []
        output.reserveCapacity((openRows.count + doneRows.count) * (columns.number + columns.title + columns.due + 24))
        for row in openRows { appendRow(row, columns, to: &output) }
        if !doneRows.isEmpty {
            if section == .all {
                if !openRows.isEmpty { output.append(UInt8(ascii: "\n")) }
                output += (style.bold("Done") + "\n").utf8
            }
            for row in doneRows { appendRow(row, columns, to: &output) }
        }
        return output
    }

    /// The cells of one row, and what the column widths depend on. The title is kept as the item's
    /// bytes (`withTitleUTF8`) unless it has control characters to show safely.
    private struct Row {
        let item: ToDoItem
        let number: String
        let safeTitle: String?
        let titleWidth: Int
        let due: String
        let place: String?

        init(_ item: ToDoItem, _ dates: DueDateFormatter) {
            self.item = item
            number = String(item.number)
            var width: Int?
            item.withTitleUTF8 { bytes in
                width = TerminalText.mayHaveControls(bytes) ? nil : ItemRenderer.width(ofUTF8: bytes)
            }
            if let width {
                safeTitle = nil
                titleWidth = width
            } else {
                let title = TerminalText.printable(item.title)
                safeTitle = title
                titleWidth = ItemRenderer.width(of: title)
            }
            due = item.timestamp.map { dates.string(from: $0) } ?? ""
            place = item.locationName.map(TerminalText.printable)
        }
    }

    private struct Columns {
        var number = 0, title = 0, due = 0

        mutating func widen(for row: Row) {
            number = max(number, row.number.utf8.count)
            title = max(title, row.titleWidth)
            due = max(due, row.due.utf8.count)
        }
    }

    /// How many columns `text` takes: its characters (counted cheaply when it is ASCII).
    static func width(of text: String) -> Int {
        var text = text
        return text.withUTF8(width(ofUTF8:))
    }

    /// How many columns the text with these UTF-8 bytes takes.
    static func width(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.allSatisfy { $0 < 0x80 } ? bytes.count : String(decoding: bytes, as: UTF8.self).count
    }

    /// Appends one row: number, mark, title, due date, location, in aligned columns. A column is
    /// padded only when another follows it, so no row ends in spaces.
    private func appendRow(_ row: Row, _ columns: Columns, to output: inout [UInt8]) {
        func pad(_ count: Int) {
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(count, 0)))
        }
        func append(_ text: String) {
            var text = text
            text.withUTF8 { output.append(contentsOf: $0) }
        }
        let item = row.item
        pad(columns.number - row.number.utf8.count)
        append(style.bold(row.number))
        append(!item.done ? " [ ] " : style.isEnabled ? " \(style.green("[x]")) " : " [x] ")
        if let title = row.safeTitle {
            append(item.done ? style.dim(title) : title)
        } else if item.done, style.isEnabled {
            append(style.dim(item.title))
        } else {
            item.withTitleUTF8 { output.append(contentsOf: $0) }
        }
        var owed = columns.title - row.titleWidth
        if columns.due > 0, !row.due.isEmpty || row.place != nil {
            pad(owed + 2)
            append(colouredDue(row))
            owed = columns.due - row.due.utf8.count
        }
        if let place = row.place {
            pad(owed + 2)
            append(style.dim("@"))
            append(place)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// Overdue open items in red, those due today in yellow.
    private func colouredDue(_ row: Row) -> String {
        guard style.isEnabled, !row.item.done, let timestamp = row.item.timestamp else { return row.due }
        let days = dates.daysFrom(now, to: timestamp)
        return days < 0 ? style.red(row.due) : days == 0 ? style.yellow(row.due) : row.due
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

    /// Writes the items of `sections`, one after another, as a JSON array, one item per line, in
    /// pieces.
    func writeJSON(_ sections: [[ToDoItem]], to output: TextOutput) {
        ToDoItem.writeJSONArray(sections, to: { output.write(bytes: $0) })
    }
}
