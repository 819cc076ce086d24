import ToDoCore
import ToDoModel

import class ToDoStorage.BackgroundWork
import struct ToDoStorage.ListFields
import struct ToDoStorage.OutputBytes
import enum ToDoStorage.Parallelism
import struct ToDoStorage.ShortBytes
import struct ToDoStorage.StoredItem

/// `todo list`: open items, then done items under a "Done" heading when both sections are shown,
/// in columns that line up across both sections: number, mark, priority (`H`, `M`, `L`, when any
/// shown item has one), title with its tags (`+home`), due date (`↻` after it for an item that
/// repeats), location. A column
/// is padded only when another follows it, so no row ends in spaces. On a terminal (`width`) each
/// row fits its width: the title column gives way, down to `shortestTitle` columns, then the place;
/// what is cut ends in `…`. Widths are display widths (`DisplayWidth`): a CJK character or an emoji
/// takes two columns.
///
/// A list of years of items is printed often, so it is written as bytes straight from the items'
/// fields (`StoredItem.listFields(into:)`), without a `String` per cell: a first pass measures each row
/// and keeps what the second needs (`Row`), the second writes the rows.
struct ListRenderer {
    let style: Style
    let dates: DueDateFormatter
    let now: Date
    /// The terminal's width in columns, when the list goes to a terminal; `nil` writes whole rows.
    var width: Int?
    /// Whether the priority column shows todo.txt's letters whatever the rows shown hold: the
    /// list they were chosen from has a priority no level names, and a filtered view of it says
    /// the same letter for the same priority.
    var showsPriorityLetters = false

    /// The fewest columns the title column gives way to on a narrow terminal, and on one too
    /// narrow for the title to keep that and half the room beside the due date.
    static let shortestTitle = 20, narrowestTitle = 8

    /// Lists of this many items or more are measured and written in two halves at once, the
    /// second on another core.
    var twoHalvesMinimumCount = Parallelism.itemsInTwoHalvesMinimumCount

    func write(
        open: [StoredItem], done: [StoredItem],
        trees: (open: ItemManager.TreeOrder, done: ItemManager.TreeOrder)? = nil,
        section: ListSection, to output: TextOutput
    ) {
        write(
            groups: [
                section == .done ? Group(items: []) : Group(items: open, tree: trees?.open),
                section == .open
                    ? Group(items: []) : Group(heading: section == .all ? "Done" : nil, items: done, tree: trees?.done)
            ],
            to: output)
    }

    /// Rows under a heading: `items`, or, with a `tree`, the items at its positions, indented.
    struct Group {
        var heading: String?
        var items: [StoredItem]
        /// Subtasks under their parents: a subtask is indented two spaces a level.
        var tree: ItemManager.TreeOrder?

        var rowCount: Int { tree?.positions?.count ?? items.count }

        /// The item shown in row `row`.
        @inline(__always)
        func item(inRow row: Int) -> StoredItem {
            items[tree?.positions?[row] ?? row]
        }
    }

    /// The most levels of subtask a row is indented by.
    static let deepestIndent = 16
    /// The widest title column rows are lined up to without a terminal: a longer title takes
    /// its own row's room, not every row's.
    static let widestPaddedTitle = 100

    /// Writes groups of rows in columns that line up across all of them, each non-empty group
    /// under its bold heading (if it has one), a blank line before a heading that follows rows.
    func write(groups: [Group], to output: TextOutput) {
        let measured = groups.map(measure)
        var columns = Columns()
        for parts in measured { for part in parts { columns.widen(to: part.columns) } }
        columns.finePriority = columns.finePriority || showsPriorityLetters
        if let width {
            columns.fit(to: width)
        } else {
            // A pipe gets whole rows, lined up to the widest title up to a bound: one long title
            // must not pad every row.
            columns.title =
                columns.titleWithinBound > 0 ? columns.titleWithinBound : min(columns.title, Self.widestPaddedTitle)
        }
        var wroteRows = false
        for (group, parts) in zip(groups, measured) where group.rowCount > 0 {
            if let heading = group.heading {
                output.write((wroteRows ? "\n" : "") + style.bold(heading) + "\n")
            }
            write(group, parts, columns, to: output)
            wroteRows = true
        }
    }

    /// What the second pass needs of a row beyond the item's fields.
    private struct Row {
        /// How many columns the title and its tags take.
        var titleWidth = 0
        /// Whether the item has tags, shown after the title (`tagsShown`); made again when the row
        /// is written rather than kept, so that a row holds no reference to copy.
        var hasTags = false
        /// Whether they are shown made (decoded, or without those the title holds), not as the
        /// list holds them: only then are they made again when the row is written.
        var tagsAreMade = false
        /// How many levels of subtask the row is indented by, two spaces each (counted in `titleWidth`).
        var depth = 0
        /// The priority, 1 to 9, or 0 for none.
        var priority: UInt8 = 0
        /// Whether the title has control characters, shown made safe (`printable`): made again
        /// when the row is written, so that rows hold no reference and copy as plain bytes.
        var titleHasControls = false
        /// The due date's text (`DueDateFormatter.appendText`), held so that a row stays plain
        /// bytes to copy, and its colour.
        var due = ShortBytes()
        var dueCount: Int { due.count }
        var dueCode: Style.Code?
        /// Whether the item repeats: ` ↻` follows the due date.
        var repeats = false
        /// Whether the item has a reminder: ` ⏰` follows the due date (and its repeat mark).
        var reminds = false
        /// How many columns the due date and its marks take.
        @inline(__always)
        var dueWidth: Int {
            var width = dueCount
            if repeats { width += width > 0 ? 2 : 1 }
            if reminds { width += width > 0 ? 1 + ListRenderer.reminderMarkWidth : ListRenderer.reminderMarkWidth }
            return width
        }
        var hasPlace = false
        /// How many columns the place's name takes; measured only for a terminal.
        var placeWidth = 0
    }

    private struct Columns {
        var number = 0, title = 0, due = 0, place = 0
        /// The widest title no wider than `widestPaddedTitle`.
        var titleWithinBound = 0
        /// Whether any row has a priority: then every row has the column.
        var priority = false
        /// Whether any row's priority is one no level names (2, say, from todo.txt's `(B)`): then
        /// the column shows todo.txt's letters, `A` to `I`, rather than `H`, `M`, `L`.
        var finePriority = false
        /// The widest a title may be shown in a row without a due date or place; for a terminal.
        var titleAlone = Int.max
        /// The widest a place may be shown; for a terminal.
        var placeShown = Int.max

        @inline(__always)
        mutating func widen(to other: Columns) {
            number = max(number, other.number)
            priority = priority || other.priority
            finePriority = finePriority || other.finePriority
            title = max(title, other.title)
            titleWithinBound = max(
                titleWithinBound, other.title <= ListRenderer.widestPaddedTitle ? other.title : other.titleWithinBound)
            due = max(due, other.due)
            place = max(place, other.place)
        }

        /// Narrows the title column, then the places, so that rows fit `width` columns; a terminal
        /// too narrow even for the shortest title gets rows that wrap.
        mutating func fit(to width: Int) {
            let start = number + 5 + (priority ? 2 : 0), dueColumn = due > 0 ? due + 2 : 0
            titleAlone = max(width - start, 2)
            // What the title and the place share; the title keeps at least half of it.
            let room = width - start - dueColumn, placeColumn = place > 0 ? place + 3 : 0
            if title + placeColumn > room {
                let shortest = min(title, max(ListRenderer.narrowestTitle, min(ListRenderer.shortestTitle, room / 2)))
                title = max(shortest, room - placeColumn)
            }
            placeShown = max(room - title - 3, 2)
        }
    }

    /// The rows of `items` in consecutive parts, with the widths each part needs.
    private typealias Part = (range: Range<Int>, rows: [Row], columns: Columns)

    private func measure(_ group: Group) -> [Part] {
        // By index: iterating the array would copy (and retain) every item.
        BackgroundWork.inTwoHalves(group.rowCount, minimumCount: twoHalvesMinimumCount) { range in
            var rows: [Row] = [], columns = Columns()
            rows.reserveCapacity(range.count)
            // Each row's text, in one array for the whole part.
            var text: [UInt8] = []
            for index in range {
                let item = group.item(inRow: index)
                var row = measure(item, text: &text)
                if let depth = group.tree?.depths?[index], depth > 0 {
                    // Deeper than a screen can show, every level looks alike: a chain as deep
                    // as the list is long must not make each row as long as the list.
                    row.depth = min(depth, Self.deepestIndent)
                    row.titleWidth += 2 * row.depth
                }
                columns.widen(
                    to: Columns(
                        number: OutputBytes.digitCount(of: item.number), title: row.titleWidth,
                        due: row.dueWidth, place: row.placeWidth, priority: row.priority != 0))
                if row.priority != 0, !PriorityLevel.isLevel(Int(row.priority)) { columns.finePriority = true }
                rows.append(row)
            }
            return (range, rows, columns)
        }
    }

    private func measure(_ item: StoredItem, text: inout [UInt8]) -> Row {
        var row = Row()
        Self.makeRoom(in: &text)
        let fields = item.listFields(into: &text)
        let list = Self.listName(fields.list, in: &text)
        // Everything is appended before any part is looked at: a part held while the text grows
        // would make the text copy itself.
        if let due = fields.date {
            let start = text.count
            dates.appendText(of: due, to: &text)
            // `DueDateFormatter.longestText` is what fits (`ShortBytes.capacity`).
            row.due = ShortBytes(text[start...])
            row.dueCode = dueCode(item, due)
        }
        let title = text[fields.title]
        if TerminalText.isPlainASCII(title) {
            row.titleWidth = title.count
        } else if TerminalText.mayHaveControls(title) {
            row.titleHasControls = true
            row.titleWidth = DisplayWidth.of(Self.printable(title))
        } else {
            row.titleWidth = DisplayWidth.of(title)
        }
        if let priority = fields.priority { row.priority = UInt8(priority) }
        if let place = fields.locationName {
            row.hasPlace = true
            if width != nil {
                let name = text[place]
                row.placeWidth =
                    TerminalText.mayHaveControls(name) ? DisplayWidth.of(Self.printable(name)) : DisplayWidth.of(name)
            }
        }
        if let project = fields.project {
            row.titleWidth += Self.projectMark.count + DisplayWidth.of(Self.printable(text[project]))
        }
        if let list {
            row.titleWidth += Self.listMark.count + DisplayWidth.of(Self.printable(text[list]))
        }
        let titleMayHoldTagWords = fields.hasTags && fields.titleMayHoldTagWords(in: text)
        switch Self.tagsShown(fields, in: text, titleMayHoldTagWords: titleMayHoldTagWords) {
        case .inText(let shown)?:
            row.hasTags = true
            row.titleWidth += DisplayWidth.of(text[shown])
        case .made(let tags)?:
            (row.hasTags, row.tagsAreMade) = (true, true)
            row.titleWidth += DisplayWidth.of(tags)
        case nil: break
        }
        row.repeats = fields.repeats
        // A done item rings no more.
        row.reminds = fields.hasAlarms && !item.done
        return row
    }

    /// Overdue open items in red, those due today in yellow.
    private func dueCode(_ item: StoredItem, _ due: ItemDate) -> Style.Code? {
        guard style.isEnabled, !item.done else { return nil }
        if dates.isOverdue(due, now: now) { return .red }
        return dates.daysFrom(now, to: due) == 0 ? .yellow : nil
    }

    /// Writes the rows of `items`: the first part to `output`, the others to memory on other
    /// cores meanwhile, then to `output` in order.
    private func write(_ group: Group, _ parts: [Part], _ columns: Columns, to output: TextOutput) {
        let texts = BackgroundWork.inTwoHalves(parts.count, minimumCount: 2) { partIndexes in
            let collected = partIndexes.lowerBound == 0 ? nil : CollectedOutput()
            var bytes = OutputBytes(collected ?? output)
            // Each row's text, in one array for the whole part.
            var text: [UInt8] = []
            for part in parts[partIndexes] {
                for (index, row) in zip(part.range, part.rows) {
                    write(group.item(inRow: index), row, columns, text: &text, to: &bytes)
                }
            }
            bytes.flush()
            return collected
        }
        for case let collected? in texts { output.write(bytes: collected.bytes) }
    }

    private func write(
        _ item: StoredItem, _ row: Row, _ columns: Columns, text: inout [UInt8], to output: inout OutputBytes
    ) {
        output.append(spaces: columns.number - OutputBytes.digitCount(of: item.number))
        style.appendNumber(item.number, .bold, to: &output)
        if item.done {
            output.append(UInt8(ascii: " "))
            style.append("[x]", .green, to: &output)
            output.append(UInt8(ascii: " "))
        } else if item.inProgress {
            output.append(UInt8(ascii: " "))
            style.append("[>]", .yellow, to: &output)
            output.append(UInt8(ascii: " "))
        } else {
            output.append(Self.openMark)
        }
        if columns.priority {
            if row.priority == 0 {
                output.append(spaces: 1)
            } else {
                let priority = Int(row.priority)
                let letter = columns.finePriority ? Self.priorityLetters[priority - 1] : Self.levelLetters[priority - 1]
                switch PriorityLevel(priority) {
                case .high: style.append(letter, .bold, to: &output)
                case .medium: output.append(letter)
                case .low: style.append(letter, .dim, to: &output)
                }
            }
            output.append(UInt8(ascii: " "))
        }
        output.append(spaces: 2 * row.depth)
        Self.makeRoom(in: &text)
        let fields = item.listFields(into: &text, withDue: false)
        let list = Self.listName(fields.list, in: &text)
        // The due's text too, before any part is looked at (see `measure`).
        let dueStart = text.count
        row.due.append(to: &text)
        let dueText = dueStart..<text.count
        let titleCode: Style.Code? = item.done ? .dim : nil
        let hasColumnsAfter = row.dueWidth > 0 || row.hasPlace
        // Cut only to fit a terminal (`Columns.fit`); a pipe gets the whole title.
        let titleWidth =
            columns.titleAlone == Int.max
            ? row.titleWidth : min(row.titleWidth, hasColumnsAfter ? columns.title : columns.titleAlone)
        let safeTitle = row.titleHasControls ? Self.printable(text[fields.title]) : nil
        // The columns the title took: less than its column when a cut ends early (a wide
        // character that would not fit), so that the columns after it stay aligned.
        var shownWidth = titleWidth
        if titleWidth < row.titleWidth {
            // Cut with its tags (as they are shown, or made): the title comes first.
            let tags: String? =
                switch Self.tagsShown(made: row.tagsAreMade, fields, in: text) {
                case .inText(let shown)?: String(decoding: text[shown], as: UTF8.self)
                case .made(let tags)?: tags
                case nil: nil
                }
            let whole =
                (safeTitle ?? String(decoding: text[fields.title], as: UTF8.self))
                + (fields.project.map { Self.projectMark + Self.printable(text[$0]) } ?? "")
                + (list.map { Self.listMark + Self.printable(text[$0]) } ?? "")
                + (row.hasTags ? tags ?? "" : "")
            let cut = DisplayWidth.cut(whole, to: max(titleWidth - 2 * row.depth, 1))
            style.append(cut.text, titleCode, to: &output)
            shownWidth = 2 * row.depth + cut.width
        } else {
            if let safeTitle {
                style.append(safeTitle, titleCode, to: &output)
            } else {
                style.append(text[fields.title], titleCode, to: &output)
            }
            if let project = fields.project {
                style.append(Self.projectMark + Self.printable(text[project]), .dim, to: &output)
            }
            if let list {
                style.append(Self.listMark + Self.printable(text[list]), .dim, to: &output)
            }
            if row.hasTags {
                switch Self.tagsShown(made: row.tagsAreMade, fields, in: text) {
                case .inText(let shown)?: style.append(text[shown], .dim, to: &output)
                case .made(let tags)?: style.append(tags, .dim, to: &output)
                case nil: break
                }
            }
        }
        var owed = max(columns.title - shownWidth, 0)
        if columns.due > 0, hasColumnsAfter {
            output.append(spaces: owed + 2)
            style.append(text[dueText], row.dueCode, to: &output)
            if row.repeats { output.append(row.dueCount > 0 ? " ↻" : "↻") }
            if row.reminds {
                output.append(row.dueCount > 0 || row.repeats ? " " + Self.reminderMark : Self.reminderMark)
            }
            owed = columns.due - row.dueWidth
        }
        if let place = fields.locationName.map({ text[$0] }) {
            output.append(spaces: owed + 2)
            style.append("@", .dim, to: &output)
            if row.placeWidth > columns.placeShown {
                output.append(DisplayWidth.cut(Self.printable(place), to: columns.placeShown).text)
            } else if !TerminalText.mayHaveControls(place) {
                output.append(place)
            } else {
                output.append(Self.printable(place))
            }
        }
        output.append(UInt8(ascii: "\n"))
    }
}

extension ListRenderer {
    /// What follows the due date of an item with a reminder, and how many columns it takes.
    static let reminderMark = "⏰"
    static let reminderMarkWidth = DisplayWidth.of(reminderMark)

    /// What comes before the list's name after a title (and its project): the option that
    /// filters by it.
    fileprivate static let listMark = " --list "

    /// The list's name in `text` as lists are told apart (`ListName.key`): `nil` for the default
    /// list however a file spells it (`default `), else without spaces at its ends (appended to
    /// `text` when it had some). Made a `String` only when its first or last byte might need it.
    private static func listName(_ range: Range<Int>?, in text: inout [UInt8]) -> Range<Int>? {
        guard let range, !range.isEmpty else { return range }
        let (first, last) = (text[range.lowerBound], text[range.upperBound - 1])
        if first > 0x20, first < 0x7F, last > 0x20, last < 0x7F, range.count != ListName.defaultName.utf8.count {
            return range
        }
        guard let name = ListName.stored(String(decoding: text[range], as: UTF8.self)) else { return nil }
        guard name.utf8.count != range.count else { return range }
        let start = text.count
        text.append(contentsOf: name.utf8)
        return start..<text.count
    }

    /// Priorities 1 to 9 as todo.txt's letters, and as the levels' (made once: a list writes one a row).
    fileprivate static let priorityLetters = (1...9).map { String(PriorityLevel.todoTxtLetter(of: $0)) }
    fileprivate static let levelLetters = (1...9).map { String(PriorityLevel($0).letter) }

    /// What comes before the project after a title: the word that filters by it.
    fileprivate static let projectMark = " project:"

    /// An open item's mark, as bytes made once.
    fileprivate static let openMark = Array(" [ ] ".utf8)

    /// Empties the text rows are read into once it holds a few pages: each row reads only what it
    /// appended, and emptying it for every row would cost more than the row.
    fileprivate static func makeRoom(in text: inout [UInt8]) {
        if text.count > 1 << 14 { text.removeAll(keepingCapacity: true) }
    }

    /// The tags a row shows after its title, ` +home +errand`.
    fileprivate enum TagsShown {
        /// As the list holds them, in the text.
        case inText(Range<Int>)
        /// Made: decoded (an escape, a control character), or without those the title holds as
        /// words (a todo.txt line read whole: `Call Mom +family` shows `+family` once).
        case made(String)
    }

    /// What a measured row shows of its tags: made again only when `measure` made them (`made`).
    fileprivate static func tagsShown(made: Bool, _ fields: ListFields, in text: [UInt8]) -> TagsShown? {
        made ? tagsShown(fields, in: text, titleMayHoldTagWords: true) : fields.shownTags.map(TagsShown.inText)
    }

    /// What a row shows of the tags after its title; `nil` for none. `titleMayHoldTagWords`:
    /// the title has a `+` or an `@` (`ListFields.titleMayHoldTagWords`), asked only of a row
    /// with tags.
    fileprivate static func tagsShown(
        _ fields: ListFields, in text: [UInt8], titleMayHoldTagWords titleMayHoldTags: Bool
    ) -> TagsShown? {
        guard fields.hasTags else { return nil }
        if let shown = fields.shownTags, !titleMayHoldTags { return .inText(shown) }
        // The tags themselves: decoded, or read back from how the list shows them.
        let tags =
            fields.tagList(in: text)
            ?? fields.shownTags.map {
                String(decoding: text[$0], as: UTF8.self).split(separator: " ").map { Tags.tag(shown: $0) }
            }
            ?? []
        let kept =
            titleMayHoldTags ? Tags.notInTitle(tags, title: String(decoding: text[fields.title], as: UTF8.self)) : tags
        return kept.isEmpty ? nil : .made(TerminalText.printable(kept.map { " " + Tags.shown($0) }.joined()))
    }

    /// UTF-8 text from the list, made safe to show.
    fileprivate static func printable(_ text: ArraySlice<UInt8>) -> String {
        TerminalText.printable(String(decoding: text, as: UTF8.self))
    }
}

/// Output kept in memory, for a part of a list written on another core.
private final class CollectedOutput: TextOutput {
    private(set) var bytes: [UInt8] = []
    var isTerminal: Bool { false }
    func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
    func write(bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }
    func flush() {}
}
