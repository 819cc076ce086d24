import ToDoModel
import ToDoStorage

/// An item as a CalDAV server keeps it: one calendar resource, a VCALENDAR holding the item's
/// VTODO (RFC 4791 4.1: one UID per resource) and, beside it, what the calendar keeps with it
/// that todo does not write: time zones, a series' occurrences (VTODOs with the same UID and a
/// `RECURRENCE-ID`), the calendar's own properties.
public enum CalendarResource {
    /// The text to store for `item`. Where the server holds a version already (`serverText`),
    /// what todo does not write stays as the server had it: the VCALENDAR's own properties (but
    /// `VERSION` and `PRODID`, which are the writer's), and every component but the item's own
    /// VTODO. The item's VTODO is written anew; what the calendar wrote in it that todo has no
    /// field for is with the item already (`icalendarLines`).
    public static func text(
        for item: ToDoItem, replacing serverText: String?, timeZone: TimeZoneRules, now: Date, productID: String
    ) -> String {
        // The calendar the resource is in says its list.
        var item = item
        item.list = nil
        let written = ICalendarFormat.write([item], timeZone: timeZone, now: now, productID: productID)
        guard let serverText, let kept = try? keptLines(of: serverText), !kept.isEmpty else { return written }
        // The new calendar's lines end with END:VCALENDAR and its CRLF; what is kept goes before it.
        let end = "END:VCALENDAR\r\n"
        guard written.hasSuffix(end) else { return written }
        return String(written.dropLast(end.count)) + kept.map(ICalendarFormat.folded).joined() + end
    }

    /// The item a resource holds: its VTODO without a `RECURRENCE-ID` (the task, or the series),
    /// with what the others say of it (`ICalendarFormat.read`); `nil` for a resource that holds no
    /// task (an event of a mixed calendar). A task the calendar cancelled is done here: todo has
    /// no cancelled state, and a cancelled task is not to be done, as a done one is not (an import
    /// leaves such tasks out; a sync cannot, or it would take them for deleted). The item is in
    /// `list`, the list of the calendar the resource is in (`nil`: the default list), whatever the
    /// text says, as `text(for:…)` writes none. Throws when the text is not iCalendar todo can read.
    public static func item(
        of text: String, timeZone: TimeZoneRules, list: String? = nil
    ) throws(ImportError) -> ImportedItem? {
        let items = try ICalendarFormat.read(text, timeZone: timeZone)
        guard
            var task = items.first(where: {
                !$0.item.icalendarLines.contains { $0.uppercased().hasPrefix("RECURRENCE-ID") }
            }) ?? items.first
        else {
            return nil
        }
        if task.ignoredBecause == ICalendarFormat.cancelled { task.item.done = true }
        task.item.list = list
        return task
    }

    /// The unfolded lines of `text` that stay when todo writes its item: the VCALENDAR's own
    /// properties but `VERSION` and `PRODID`, and every component but the VTODO without a
    /// `RECURRENCE-ID`.
    static func keptLines(of text: String) throws(ImportError) -> [String] {
        let lines = try ICalendarFormat.contentLines(text)
        var kept: [String] = []
        var component: [ICalendarFormat.ContentLine] = []
        var depth = 0
        for line in lines where line.problem == nil {
            if line.name == "BEGIN" { depth += 1 }
            if depth == 1 {
                // The VCALENDAR's own lines.
                if !["BEGIN", "END", "VERSION", "PRODID"].contains(line.name) { kept.append(line.raw) }
            } else if depth >= 2 {
                component.append(line)
            }
            if line.name == "END" {
                depth -= 1
                if depth == 1 {
                    let isTheItem =
                        component.first?.value.uppercased() == "VTODO"
                        && !component.contains { $0.name == "RECURRENCE-ID" }
                    if !isTheItem { kept += component.map(\.raw) }
                    component = []
                }
            }
        }
        return kept
    }
}
