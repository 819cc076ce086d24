import ToDoCore
import ToDoModel

/// `todo ui`'s screen and keys: a listing command's output (`list`, `next` or `agenda`, with the
/// filter and list chosen) with a row selected, and every change made by running the command
/// that makes it (`InProcessTodo`), so that it is the same transaction, history entry and undo
/// step as typed at the shell. It reads no terminal itself: `UICommand` gives it keys and sizes
/// and writes what it paints, and tests drive it the same way.
final class UISession {
    /// Which listing fills the screen.
    enum Report: String, CaseIterable {
        case list, next, agenda
    }

    /// What the keys do now.
    enum Mode {
        case browse
        /// A line being typed at the bottom, for `kind`.
        case prompt(Prompt, LineEditor)
        /// `d`: waiting for `y` to remove item `number`.
        case confirmRemoval(number: Int, shown: String)
        /// Text to read (help, an item, a sync's report): scrolls, any other key goes back.
        case page(title: String, lines: [String], top: Int)
    }

    enum Prompt: Equatable {
        case add, filter
        case edit(number: Int, prefilled: EditLine)
        case postpone(number: Int)
    }

    /// What a key asks of the process.
    enum Outcome: Equatable {
        case keepGoing
        case quit
        case suspend
    }

    private let todo: InProcessTodo
    private let store: JSONFileStore
    private let timeZone: TimeZoneRules
    private let colour: Bool
    /// Paints a frame at once: said before a command that may take a while (a sync).
    var paintNow: ([UInt8]) -> Void = { _ in }

    private(set) var columns = 80, rows = 24
    private(set) var report = Report.list
    /// `list`'s words the rows are filtered by (`/`).
    private(set) var filter: [String] = []
    /// The list shown (`Tab`), as `--list` takes it; `nil` for every list.
    private(set) var list: String?
    private(set) var lines = ShownLines([])
    /// The selected row: an index into `lines.selectable`.
    private(set) var selected = 0
    /// The first line shown.
    private(set) var top = 0
    private(set) var mode = Mode.browse
    /// The status line: what the last key did, or why it could not.
    private(set) var status = "", statusIsError = false
    /// What the listing said on standard error (items waiting, more done ones): shown when the
    /// status line has nothing newer to say.
    private(set) var hints = ""
    private var listFiles: JSONFileStore.ListFiles?
    private var painter = ScreenPainter()
    private var mustClear = true

    init(todo: InProcessTodo, store: JSONFileStore, timeZone: TimeZoneRules, colour: Bool) {
        self.todo = todo
        self.store = store
        self.timeZone = timeZone
        self.colour = colour
    }

    // MARK: What is shown

    /// The command whose output fills the screen, as it would be typed (the title row).
    var shownCommand: [String] {
        [report.rawValue] + filter + (list.map { ["--list", ListName.shown($0)] } ?? [])
    }

    /// The command run for the screen: `shownCommand`, but `next`, which fills a screenful at
    /// most, gives all of them (the screen scrolls).
    private var listingCommand: [String] {
        report == .next ? shownCommand + ["--limit", "1000000"] : shownCommand
    }

    private var bodyHeight: Int { max(rows - 2, 1) }

    /// The selected row's item.
    var selectedRow: ShownLines.Row? {
        lines.selectable.indices.contains(selected) ? lines.rows[lines.selectable[selected]] : nil
    }

    /// Runs the listing again (after a change, a resize, another process's change) and keeps the
    /// selection on the same item, or on `number` when given. Returns the listing's outcome; on
    /// a failure (a bad filter) the screen keeps what it showed.
    @discardableResult
    func reload(selecting number: Int? = nil) -> CommandOutcome {
        let keep = number ?? selectedRow?.number
        // Read before the listing: a change made while it runs shows at the next check.
        listFiles = try? store.listFiles()
        let outcome = todo.run(listingCommand, columns: columns)
        guard outcome.succeeded else { return outcome }
        let previous = selected
        lines = ShownLines(outcome.output)
        hints = outcome.errors.split(separator: "\n").first.map(String.init) ?? ""
        if let keep, let index = lines.selectable.firstIndex(where: { lines.rows[$0]?.number == keep }) {
            selected = index
        } else {
            selected = min(previous, max(lines.selectable.count - 1, 0))
        }
        scrollToSelection()
        return outcome
    }

    /// Whether another process changed the list since it was shown: then it is shown again.
    @discardableResult
    func reloadIfChanged() -> Bool {
        let now = try? store.listFiles()
        guard now == nil || now != listFiles else { return false }
        let outcome = reload()
        if !outcome.succeeded {
            // The rows stay as they were, said to be stale; nothing is written to the list.
            say(outcome.firstLine + " (the rows shown are as it was)", isError: true)
            showsListError = true
        } else if showsListError {
            say("")
            showsListError = false
        }
        return true
    }

    /// Whether the status line says the list could not be read.
    private var showsListError = false

    /// The listing to start with, `list`'s words and the list (`--list`), on a screen of this
    /// size: run once, and its outcome returned (a list that cannot be read is refused before
    /// the screen is taken).
    func start(filter: [String], list: String?, columns: Int, rows: Int) -> CommandOutcome {
        self.filter = filter
        self.list = list
        (self.columns, self.rows) = (max(columns, 1), max(rows, 1))
        return reload()
    }

    func resize(columns: Int, rows: Int) {
        guard columns != self.columns || rows != self.rows else { return }
        (self.columns, self.rows) = (max(columns, 1), max(rows, 1))
        mustClear = true
        reload()
    }

    /// Ctrl-L, a continue after Ctrl-Z: the whole screen again.
    func redrawWhole() {
        mustClear = true
    }

    private func scrollToSelection() {
        let height = bodyHeight
        guard lines.selectable.indices.contains(selected) else {
            top = 0
            return
        }
        let line = lines.selectable[selected]
        // The heading above the first row stays in view.
        if selected == 0 { top = 0 }
        if line < top { top = line }
        if line >= top + height { top = line - height + 1 }
        top = max(min(top, lines.count - height), 0)
    }

    // MARK: Keys

    func handle(_ key: Key) -> Outcome {
        switch mode {
        case .browse: return browse(key)
        case .prompt(let prompt, var editor):
            switch key {
            case .escape, .control("c"), .control("g"):
                mode = .browse
                say("")
            case .control("z"): return .suspend
            case .paste(let text):
                for character in text { _ = editor.handle(.character(character)) }
                mode = .prompt(prompt, editor)
            case .enter:
                mode = .browse
                submit(prompt, editor.text)
            default:
                if editor.handle(key) { mode = .prompt(prompt, editor) }
            }
        case .confirmRemoval(let number, _):
            mode = .browse
            if key == .character("y") || key == .character("Y") {
                runChange(["remove", String(number)])
            } else {
                say("Not removed.")
            }
        case .page(let title, let pageLines, let top):
            let height = bodyHeight, last = max(ScreenText.wrapped(pageLines, to: columns).count - height, 0)
            var next = top
            switch key {
            case .character("j"), .down, .enter: next += 1
            case .character("k"), .up: next -= 1
            case .character(" "), .pageDown, .control("f"): next += height
            case .pageUp, .control("b"): next -= height
            case .character("g"), .home: next = 0
            case .character("G"), .end: next = last
            default:
                mode = .browse
                return .keepGoing
            }
            mode = .page(title: title, lines: pageLines, top: max(min(next, last), 0))
        }
        return .keepGoing
    }

    private func browse(_ key: Key) -> Outcome {
        let selectedBefore = selectedLine
        if reloadIfChanged() {
            // Another process changed the row the key was meant for (removed, renumbered,
            // checked), or made the change an undo or redo would take back.
            if Self.itemKeys.contains(key) && selectedLine != selectedBefore
                || key == .character("u") || key == .character("r")
            {
                say("The list changed meanwhile (another process): look again before pressing the key.", isError: true)
                return .keepGoing
            }
        }
        guard isLargeEnough || [.character("q"), .control("c"), .control("l"), .control("z")].contains(key) else {
            return .keepGoing
        }
        let count = lines.selectable.count
        switch key {
        // Ctrl-C too: the user asks to leave, nothing failed.
        case .character("q"), .control("c"): return .quit
        case .control("z"): return .suspend
        case .control("l"): redrawWhole()
        case .character("j"), .down: move(to: selected + 1)
        case .character("k"), .up: move(to: selected - 1)
        case .character("g"), .home: move(to: 0)
        case .character("G"), .end: move(to: count - 1)
        case .pageDown, .control("f"): move(by: bodyHeight)
        case .pageUp, .control("b"): move(by: -bodyHeight)
        case .character("?"): showPage("Keys", keysHelp().joined(separator: "\n"))
        case .character("a"): mode = .prompt(.add, LineEditor())
        case .character("/"):
            mode = .prompt(.filter, LineEditor(filter.map { ShellWords.quoted($0) }.joined(separator: " ")))
        case .escape:
            guard !filter.isEmpty else { break }
            reshow(saying: "Filter cleared.") { filter = [] }
        case .tab: cycleLists(by: 1)
        case .backTab: cycleLists(by: -1)
        case .character("n"): switchReport(report == .next ? .list : .next)
        case .character("A"): switchReport(report == .agenda ? .list : .agenda)
        case .character("u"): runChange(["undo"])
        case .character("r"): runChange(["redo"])
        case .character("S"): sync()
        case .paste: say("A paste goes into a line: a, e, p or /.")
        default: return itemKey(key)
        }
        return .keepGoing
    }

    /// The keys that act on the selected item.
    static let itemKeys: [Key] = [
        .character("x"), .character(" "), .character("s"), .character("e"), .character("p"), .character("d"), .enter
    ]

    /// The selected row as shown, without colours.
    private var selectedLine: String? {
        lines.selectable.indices.contains(selected) ? lines.plainLine(lines.selectable[selected]) : nil
    }

    /// Whether the screen can show a row and the status line (`frame` says so when not).
    private var isLargeEnough: Bool { rows >= 3 && columns >= 10 }

    private func itemKey(_ key: Key) -> Outcome {
        guard let row = selectedRow else {
            if Self.itemKeys.contains(key) { say("No item is selected.", isError: true) }
            return .keepGoing
        }
        let number = String(row.number)
        switch key {
        case .character("x"), .character(" "): runChange([row.mark == .done ? "uncheck" : "check", number])
        case .character("s"): runChange([row.mark == .inProgress ? "stop" : "start", number])
        case .character("p"): mode = .prompt(.postpone(number: row.number), LineEditor())
        case .character("d"):
            // The row as shown, its columns' padding taken out: `4 [ ] Call Mom 11/30/26`.
            let shown = lines.plainLine(lines.selectable[selected]).split(separator: " ").joined(separator: " ")
            mode = .confirmRemoval(number: row.number, shown: shown)
        case .character("e"):
            guard let line = editLine(of: row.number) else {
                say("Error: no item has the number \(row.number)", isError: true)
                break
            }
            mode = .prompt(.edit(number: row.number, prefilled: line), LineEditor(line.text))
        case .enter:
            let outcome = todo.run(["show", number], columns: columns)
            guard outcome.succeeded else {
                sayOutcome(outcome)
                return .keepGoing
            }
            showPage("todo show \(number)", String(decoding: outcome.output, as: UTF8.self))
        default: break
        }
        return .keepGoing
    }

    private func move(to index: Int) {
        guard !lines.selectable.isEmpty else { return }
        selected = max(min(index, lines.selectable.count - 1), 0)
        scrollToSelection()
    }

    private func move(by lines: Int) {
        guard self.lines.selectable.indices.contains(selected) else { return }
        let current = self.lines.selectable[selected]
        // To the row nearest the line a screen away.
        let target = current + lines
        let index =
            lines > 0
            ? self.lines.selectable.lastIndex { $0 <= target } ?? 0
            : self.lines.selectable.firstIndex { $0 >= target } ?? 0
        move(to: index == selected ? selected + (lines > 0 ? 1 : -1) : index)
    }

    /// A page of `text`, a row a line.
    private func showPage(_ title: String, _ text: String) {
        mode = .page(
            title: title, lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), top: 0)
    }

    /// Shows the listing as `change` makes it (another report, filter or list); when the listing
    /// refuses it (a bad filter word), puts back what was shown and says why.
    private func reshow(saying message: String, _ change: () -> Void) {
        let shown = (report, filter, list)
        change()
        let outcome = reload()
        guard outcome.succeeded else {
            (report, filter, list) = shown
            return sayOutcome(outcome)
        }
        say(message)
    }

    private func switchReport(_ next: Report) {
        reshow(saying: next == .list ? "The list." : next == .next ? "Ranked as todo next ranks them." : "The agenda.")
        {
            report = next
        }
    }

    private func cycleLists(by step: Int) {
        guard let manager = try? store.load() else { return }
        // Every list, then each by the name `--list` takes ('default' for the default list).
        let names: [String?] = [nil] + manager.lists().map { ListName.shown($0.name) }
        guard names.count > 2 else {
            say("Only one list: todo add … --list Work makes another.")
            return
        }
        let index = names.firstIndex { $0?.lowercased() == list?.lowercased() } ?? 0
        let next = names[(index + step + names.count) % names.count]
        reshow(saying: next.map { "The list \($0)." } ?? "Every list.") { list = next }
    }

    /// Runs a command that changes the list, says what it said, and shows the list again, with
    /// the item it names selected (`Added 5: …`).
    private func runChange(_ arguments: [String]) {
        let outcome = todo.run(arguments, columns: nil)
        sayOutcome(outcome)
        reload(selecting: outcome.succeeded ? Self.itemNumber(in: outcome.firstLine) : nil)
    }

    private func sayOutcome(_ outcome: CommandOutcome) {
        say(outcome.firstLine, isError: !outcome.succeeded)
    }

    private func say(_ text: String, isError: Bool = false) {
        status = text
        statusIsError = isError
    }

    /// The number a command's first line names (`Checked 3: Call Mom`, `Added 12: …`).
    private static func itemNumber(in line: String) -> Int? {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[1].hasSuffix(":") else { return nil }
        return Int(words[1].dropLast())
    }

    /// todo's own options, which a line at the screen may not give: the screen keeps the list
    /// it opened, its colours, and its keys.
    static let ownOptions = ["--file", "--color", "--help", "-h", "--version", "--json"]

    private func submit(_ prompt: Prompt, _ text: String) {
        guard let words = ShellWords.split(text) else {
            return say("Error: a quote is not closed, or a backslash ends the line: \(text)", isError: true)
        }
        if let own = words.first(where: { word in Self.ownOptions.contains { word == $0 || word.hasPrefix($0 + "=") } })
        {
            return say(
                "Error: '\(own)' cannot be given here: todo ui keeps its list, colours and screen", isError: true)
        }
        switch prompt {
        case .add:
            guard !words.isEmpty else { return say("Nothing added.") }
            let inList = list.map { ["--list", ListName.shown($0)] } ?? []
            runChange(["add"] + words + (words.contains("--list") ? [] : inList))
        case .postpone(let number):
            guard !words.isEmpty else { return say("Not postponed.") }
            runChange(["postpone", String(number)] + words)
        case .edit(let number, let prefilled):
            guard !words.isEmpty else { return say("Not edited.") }
            let quoted = text.drop { $0 == " " }.first.map { "'\"".contains($0) } ?? false
            let changes = prefilled.changes(to: words, startsQuoted: quoted)
            guard !changes.isEmpty else { return say("Nothing changed.") }
            runChange(["edit", String(number)] + changes)
        case .filter:
            reshow(saying: words.isEmpty ? "Filter cleared." : "Filtered: \(text)") { filter = words }
        }
    }

    /// `S`: `todo sync`, its report on a page.
    private func sync() {
        say("Syncing…")
        paintNow(paint())
        let outcome = todo.run(["sync"], columns: columns)
        let report = String(decoding: outcome.output, as: UTF8.self) + outcome.errors
        sayOutcome(outcome)
        reload()
        showPage("todo sync", report)
    }

    // MARK: Editing an item's words

    /// The item's line for `e` (`EditLine`): its title, due, start, priority, project and tags.
    func editLine(of number: Int) -> EditLine? {
        guard let item = try? store.load().item(withNumber: number) else { return nil }
        let time = CivilTime(rules: timeZone)
        var words: [String] = []
        if let due = item.due { words.append("due:" + time.isoText(of: due)) }
        if let start = item.start { words.append("wait:" + time.isoText(of: start)) }
        if let priority = item.priority {
            // A level's letter, else todo.txt's; but 8 as a digit: its letter, H, names the high level.
            let letter =
                PriorityLevel.isLevel(priority)
                ? PriorityLevel(priority).letter : PriorityLevel.todoTxtLetter(of: priority)
            words.append("pri:" + (priority == 8 ? "8" : String(letter)))
        }
        if let project = item.project { words.append("project:" + project) }
        for tag in Tags.notInTitle(item.tags, title: item.title) { words.append("+" + tag) }
        return EditLine(title: item.title, attributes: words)
    }

    // MARK: Painting

    /// The bytes that bring the terminal up to date: the rows that changed since the last paint.
    func paint() -> [UInt8] {
        let (frame, cursor) = self.frame()
        defer { mustClear = false }
        return painter.paint(frame, cursor: cursor, whole: mustClear)
    }

    /// The screen's rows and where the cursor is (`nil`: hidden).
    func frame() -> (rows: [String], cursor: (row: Int, column: Int)?) {
        guard rows >= 3, columns >= 10 else {
            return ([ScreenText.padded("todo ui needs 10×3", to: columns)] + Array(repeating: "", count: rows - 1), nil)
        }
        var frame: [String] = []
        let title: String
        if case .page(let pageTitle, _, _) = mode { title = pageTitle } else { title = "todo " + shownTitle }
        let right = "? keys  q quit"
        let left = DisplayWidth.cut(
            " " + TerminalText.printable(title), to: max(columns - DisplayWidth.of(right) - 2, 1))
        frame.append(
            ScreenPainter.reverse + left.text
                + String(repeating: " ", count: max(columns - left.width - DisplayWidth.of(right) - 1, 1))
                + (columns > left.width + DisplayWidth.of(right) + 2 ? right + " " : "") + ScreenPainter.reset)
        let height = bodyHeight
        if case .page(_, let pageLines, let pageTop) = mode {
            let wrapped = ScreenText.wrapped(pageLines, to: columns)
            for index in pageTop..<(pageTop + height) {
                frame.append(wrapped.indices.contains(index) ? wrapped[index] : "")
            }
        } else {
            let selectedLine = lines.selectable.indices.contains(selected) ? lines.selectable[selected] : nil
            for index in top..<(top + height) {
                guard index < lines.count else {
                    frame.append("")
                    continue
                }
                let plain = lines.plainLine(index)
                if index == selectedLine {
                    frame.append(ScreenPainter.reverse + ScreenText.padded(plain, to: columns) + ScreenPainter.reset)
                } else {
                    frame.append(ScreenText.fitted(lines.line(index), plain: plain, to: columns))
                }
            }
        }
        let (bottom, cursor) = statusLine()
        frame.append(bottom)
        return (frame, cursor.map { (rows - 1, $0) })
    }

    /// `list +home --list Work`: the command shown, as typed.
    private var shownTitle: String {
        shownCommand.map { ShellWords.quoted($0) }.joined(separator: " ")
    }

    private func statusLine() -> (String, Int?) {
        switch mode {
        case .prompt(let prompt, let editor):
            let label: String
            switch prompt {
            case .add: label = "add: "
            case .filter: label = "filter: "
            case .edit(let number, _): label = "edit \(number): "
            case .postpone(let number): label = "postpone \(number) by: "
            }
            let shown = editor.shown(after: label, width: columns)
            return (shown.text, shown.cursorColumn)
        case .confirmRemoval(_, let shown):
            return (ScreenText.padded("Remove \(shown)? y/n", to: columns - 1), nil)
        case .page:
            return (ScreenText.padded("j/k scroll, any other key goes back", to: columns - 1), nil)
        case .browse:
            let text = status.isEmpty ? hints : status
            let line = DisplayWidth.cut(TerminalText.printable(text), to: columns - 1).text
            return (statusIsError && colour && !status.isEmpty ? ScreenPainter.red + line : line, nil)
        }
    }

    /// `?`: each key and what it does, in two columns when the screen is wide enough.
    static let keys: [(keys: String, does: String)] = [
        ("j k ↓ ↑", "move"), ("g G Home End", "first, last"), ("PgDn PgUp", "a screen"),
        ("Enter", "show the item (todo show)"), ("x space", "check or uncheck"), ("s", "start or stop"),
        ("a", "add, with add's words"), ("e", "edit, with edit's words"), ("p", "postpone (1w, fri)"),
        ("d", "remove, after y"), ("u r", "undo, redo"), ("/", "filter with list's words"),
        ("Esc", "clear the filter"), ("Tab Shift-Tab", "the next list, the one before"),
        ("n", "next's ranking, or the list"), ("A", "the agenda, or the list"), ("S", "sync"),
        ("Ctrl-L", "draw again"), ("Ctrl-Z", "suspend"), ("q Ctrl-C", "quit")
    ]

    func keysHelp() -> [String] {
        let cells = Self.keys.map { ScreenText.padded($0.keys, to: 14) + $0.does }
        let cellWidth = cells.map(DisplayWidth.of).max() ?? 0
        let perRow = columns >= 2 * cellWidth + 4 ? 2 : 1
        let half = (cells.count + perRow - 1) / perRow
        var lines = (0..<half).map { row in
            perRow == 1 || row + half >= cells.count
                ? cells[row] : ScreenText.padded(cells[row], to: cellWidth + 4) + cells[row + half]
        }
        lines += [
            "", "Each key runs the todo command it names (x is todo check N):", "the same change, history and undo."
        ]
        return lines
    }
}
