import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

extension Harness {
    /// `todo ui`'s screen on this harness's list, without a terminal: keys in, rows out, as
    /// `UICommand` drives it.
    func uiSession(columns: Int, rows: Int, colour: Bool = false) throws -> UISession {
        let now = self.now
        let context = Context(
            environment: environment, currentDirectory: directory.path, homeDirectory: directory.path,
            systemTimeZone: .utc, now: { now }, input: ScriptedInput(), output: CapturedOutput(),
            errorOutput: CapturedOutput())
        let settings = try Settings(environment: environment, systemTimeZone: { TimeZoneRules.utc })
        let session = UISession(
            todo: InProcessTodo(context: context, globalArguments: ["--color", colour ? "always" : "never"]),
            store: JSONFileStore(path: fileURL.path, timeZone: settings.timeZone), timeZone: settings.timeZone,
            colour: colour)
        _ = session.start(filter: [], list: nil, columns: columns, rows: rows)
        return session
    }
}

extension UISession {
    /// The screen's rows as a person reads them: without colours, without the spaces at their ends.
    var shownRows: [String] {
        frame().rows.map { row in
            var plain = ScreenText.plain(ArraySlice(row.utf8))
            while plain.last == " " { plain.removeLast() }
            return plain
        }
    }

    /// Types `keys`; a `"text"` word is typed a character at a time.
    func type(_ keys: Key...) {
        for key in keys { _ = handle(key) }
    }

    func type(text: String) {
        for character in text { _ = handle(.character(character)) }
    }
}

/// `todo ui`'s keys, in process: each runs the command it names, the screen is that listing's
/// output, and what is written to the terminal is only what changed.
final class UISessionTests: HarnessTestCase {
    func test_theScreen_isTheListAsTodoListShowsIt_withTheFirstRowSelected() throws {
        todo.succeed("add", "Call Mom", "due:2030-01-10", "+family")
        todo.succeed("add", "Buy milk", "pri:H")
        todo.succeed("check", "2")
        let screen = try todo.uiSession(columns: 60, rows: 15)
        let list = todo.run(["--color", "never", "list"], input: [], outputIsTerminal: true).stdout
        XCTAssertEqual(
            Array(screen.shownRows[1...4]),
            list.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
        XCTAssertEqual(screen.shownRows.count, 15)
        XCTAssertEqual(screen.shownRows[0], " todo list" + String(repeating: " ", count: 35) + "? keys  q quit")
        XCTAssertEqual(screen.selectedRow, ShownLines.Row(number: 1, mark: .open))
        // The selected row is drawn in reverse video, the whole width.
        XCTAssertEqual(
            screen.frame().rows[1],
            "\u{1B}[7m" + ScreenText.padded("1 [ ]   Call Mom +family  01/10/30", to: 60) + "\u{1B}[0m")
    }

    func test_eachKey_runsTheCommandItNames_withItsHistoryAndUndo() throws {
        todo.succeed("add", "Call Mom", "due:2030-01-10")
        todo.succeed("add", "Buy milk")
        let screen = try todo.uiSession(columns: 60, rows: 15)
        screen.type(.character("j"), .character("x"))
        XCTAssertEqual(screen.status, "Checked 2: Buy milk")
        XCTAssertEqual(screen.selectedRow, ShownLines.Row(number: 2, mark: .done))
        screen.type(.character(" "))
        XCTAssertEqual(screen.status, "Unchecked 2: Buy milk")
        screen.type(.character("s"))
        XCTAssertEqual(screen.selectedRow, ShownLines.Row(number: 2, mark: .inProgress))
        screen.type(.character("s"))
        XCTAssertEqual(screen.selectedRow?.mark, .open)
        screen.type(.character("a"))
        screen.type(text: "Water the plants due:2030-06-14 +home pri:H")
        screen.type(.enter)
        XCTAssertEqual(screen.status, "Added 3: Water the plants (due Friday 06/14/30, priority high, +home)")
        XCTAssertEqual(screen.selectedRow?.number, 3)
        screen.type(.character("p"))
        screen.type(text: "1w")
        screen.type(.enter)
        XCTAssertTrue(
            screen.status.hasPrefix("Postponed 1 week: 3: Water the plants (due Friday 06/21/30"), screen.status)
        screen.type(.character("d"), .character("n"))
        XCTAssertEqual(screen.status, "Not removed.")
        screen.type(.character("d"), .character("y"))
        XCTAssertEqual(screen.status, "Removed 3: Water the plants (due Friday 06/21/30, priority high, +home)")
        screen.type(.character("u"))
        XCTAssertTrue(screen.status.hasPrefix("Undid change 9: todo remove 3"), screen.status)
        screen.type(.character("r"))
        XCTAssertTrue(screen.status.hasPrefix("Redid change 9: todo remove 3"), screen.status)
        // What the history says is what the commands typed would have made it say.
        let history = todo.succeed("history")
        for command in [
            "todo check 2", "todo uncheck 2", "todo start 2", "todo stop 2", "todo add Water the plants",
            "todo postpone 3 1w", "todo remove 3"
        ] {
            XCTAssertTrue(history.contains(command), "\(command) in\n\(history)")
        }
        XCTAssertEqual(todo.succeed("list"), "1 [ ] Call Mom  01/10/30\n2 [ ] Buy milk\n")
    }

    func test_editing_prefillsTheItemsWords_andTakesAwayWhatIsErased() throws {
        todo.succeed("add", "Call Mom", "due:2030-01-10", "+family", "+phone", "pri:H", "project:home")
        let screen = try todo.uiSession(columns: 80, rows: 15)
        XCTAssertEqual(
            screen.editLine(of: 1),
            EditLine(title: "Call Mom", attributes: ["due:2030-01-10", "pri:H", "project:home", "+family", "+phone"]))
        screen.type(.character("e"))
        XCTAssertEqual(screen.shownRows.last, "edit 1: 'Call Mom' due:2030-01-10 pri:H project:home +family +phone")
        // Erase "+phone" and the priority, rename.
        for _ in 0..<7 { screen.type(.backspace) }
        screen.type(.control("a"), .right)
        for _ in 0..<4 { screen.type(.delete) }
        screen.type(text: "Ring")
        screen.type(.control("e"))
        for _ in 0..<3 { screen.type(.control("w")) }
        screen.type(text: "project:home +family")
        screen.type(.enter)
        XCTAssertFalse(screen.statusIsError, screen.status)
        let item = try XCTUnwrap(JSONFileStore(path: todo.fileURL.path).load().item(withNumber: 1))
        XCTAssertEqual(item.title, "Ring Mom")
        XCTAssertEqual(item.tags, ["family"])
        XCTAssertNil(item.priority)
        XCTAssertEqual(item.project, "home")
        XCTAssertTrue(todo.succeed("history").contains("todo edit 1 '--title=Ring Mom' pri: -phone"))
    }

    /// Only what the line changed is sent: a field another process changed meanwhile stays as it
    /// made it, and a title with words like options or fields stays a title.
    func test_editing_sendsOnlyWhatChanged_andATitleStaysATitle() throws {
        todo.succeed("add", "Use --list flag", "due:2030-01-01", "+orig")
        todo.succeed("add", "Eight", "--priority", "8")
        let screen = try todo.uiSession(columns: 80, rows: 15)
        screen.type(.character("e"))
        XCTAssertEqual(screen.shownRows.last, "edit 1: 'Use --list flag' due:2030-01-01 +orig")
        todo.succeed("edit", "1", "due:2030-05-05", "pri:A")
        screen.type(.control("a"), .right)
        screen.type(text: "Please ")
        screen.type(.enter)
        XCTAssertEqual(screen.status, "Edited 1: Please Use --list flag (due Sunday 05/05/30, priority high, +orig)")
        screen.type(.character("j"), .character("e"))
        XCTAssertEqual(screen.shownRows.last, "edit 2: Eight pri:8")
        screen.type(text: " z")
        screen.type(.enter)
        let store = JSONFileStore(path: todo.fileURL.path)
        XCTAssertEqual(try store.load().item(withNumber: 2)?.title, "Eight z")
        XCTAssertEqual(try store.load().item(withNumber: 2)?.priority, 8)
    }

    /// A key meant for a row another process changed meanwhile does nothing but say so.
    func test_aKeyForARowChangedMeanwhile_isNotApplied() throws {
        for title in ["One", "Two", "Three"] { todo.succeed("add", title) }
        let screen = try todo.uiSession(columns: 60, rows: 15)
        screen.type(.character("j"))
        todo.succeed("remove", "2")
        screen.type(.character("x"))
        XCTAssertEqual(
            screen.status, "The list changed meanwhile (another process): look again before pressing the key.")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] One\n3 [ ] Three\n")
        screen.type(.character("x"))
        XCTAssertEqual(screen.status, "Checked 3: Three")
        // An undo right after another process's change would take back that change, not the
        // one the screen shows as last: it waits for a second press.
        todo.succeed("add", "Four")
        screen.type(.character("u"))
        XCTAssertEqual(
            screen.status, "The list changed meanwhile (another process): look again before pressing the key.")
        screen.type(.character("u"))
        XCTAssertTrue(screen.status.hasPrefix("Undid change 6: todo add Four"), screen.status)
    }

    func test_todosOwnOptions_areRefusedInALine_andAnUnreadableList_isSaid() throws {
        todo.succeed("add", "One")
        let screen = try todo.uiSession(columns: 80, rows: 15)
        for line in ["--file /tmp/other.json", "--color=always", "--help", "+home --json"] {
            screen.type(.character("/"))
            screen.type(text: line)
            screen.type(.enter)
            XCTAssertTrue(
                screen.status.hasSuffix("cannot be given here: todo ui keeps its list, colours and screen"),
                screen.status)
            XCTAssertEqual(screen.filter, [])
        }
        let kept = try XCTUnwrap(todo.fileContents)
        try Data("not a list".utf8).write(to: todo.fileURL)
        XCTAssertTrue(screen.reloadIfChanged())
        XCTAssertTrue(screen.statusIsError)
        XCTAssertTrue(screen.status.hasPrefix("Error: cannot read "), screen.status)
        XCTAssertEqual(screen.shownRows[1], "1 [ ] One")
        try kept.write(to: todo.fileURL)
        XCTAssertTrue(screen.reloadIfChanged())
        XCTAssertEqual(screen.status, "")
    }

    func test_aFilter_isListsWords_andABadOne_isSaidAndLeavesTheScreen() throws {
        todo.succeed("add", "Call Mom", "+family")
        todo.succeed("add", "Fix the fence", "--list", "Home")
        let screen = try todo.uiSession(columns: 60, rows: 15)
        screen.type(.character("/"))
        screen.type(text: "+family")
        screen.type(.enter)
        XCTAssertEqual(screen.shownRows[0].split(separator: " ").prefix(3), ["todo", "list", "+family"])
        XCTAssertEqual(screen.shownRows[1], "1 [ ] Call Mom +family")
        XCTAssertEqual(screen.shownRows[2], "")
        screen.type(.character("/"), .control("u"))
        screen.type(text: "due.before:banana")
        screen.type(.enter)
        XCTAssertTrue(screen.statusIsError)
        XCTAssertTrue(screen.status.hasPrefix("Error: "), screen.status)
        XCTAssertEqual(screen.filter, ["+family"])
        screen.type(.escape)
        XCTAssertEqual(screen.filter, [])
        XCTAssertEqual(screen.shownRows[2], "2 [ ] Fix the fence --list Home")
        // Tab: every list, the default list, Home, every list again.
        screen.type(.tab)
        XCTAssertEqual(screen.shownCommand, ["list", "--list", "default"])
        XCTAssertEqual(screen.shownRows[1...2], ["1 [ ] Call Mom +family", ""])
        screen.type(.tab)
        XCTAssertEqual(screen.shownRows[1], "2 [ ] Fix the fence --list Home")
        // What is added goes to the list shown.
        screen.type(.character("a"))
        screen.type(text: "Paint the door")
        screen.type(.enter)
        XCTAssertEqual(try JSONFileStore(path: todo.fileURL.path).load().item(withNumber: 3)?.list, "Home")
        screen.type(.tab)
        XCTAssertEqual(screen.shownCommand, ["list"])
        screen.type(.backTab)
        XCTAssertEqual(screen.shownCommand, ["list", "--list", "Home"])
    }

    func test_nextAndTheAgenda_fillTheScreen_andTheKeysWorkThere() throws {
        todo.succeed("add", "Later", "due:2030-06-14")
        todo.succeed("add", "Urgent", "due:2026-11-22", "pri:H")
        let screen = try todo.uiSession(columns: 60, rows: 15)
        screen.type(.character("n"), .character("g"))
        XCTAssertEqual(screen.shownRows[1...2], ["2 [ ] H Urgent  11/22/26", "1 [ ]   Later   06/14/30"])
        screen.type(.character("x"))
        XCTAssertEqual(screen.status, "Checked 2: Urgent (due Sunday 11/22/26, priority high)")
        screen.type(.character("A"))
        XCTAssertEqual(screen.shownRows[0].split(separator: " ").prefix(2), ["todo", "agenda"])
        screen.type(.character("A"))
        XCTAssertEqual(screen.shownCommand, ["list"])
    }

    func test_aChangeByAnotherProcess_isShown_andTheSelectionStaysOnItsItem() throws {
        todo.succeed("add", "One")
        todo.succeed("add", "Two")
        let screen = try todo.uiSession(columns: 60, rows: 15)
        screen.type(.character("j"))
        XCTAssertFalse(screen.reloadIfChanged())
        todo.succeed("add", "Zero", "--list", "Home")
        todo.succeed("remove", "1")
        XCTAssertTrue(screen.reloadIfChanged())
        XCTAssertEqual(screen.shownRows[1...2], ["2 [ ] Two", "3 [ ] Zero --list Home"])
        XCTAssertEqual(screen.selectedRow?.number, 2)
        XCTAssertFalse(screen.reloadIfChanged())
    }

    /// At 10,000 items, moving the selection writes the two rows that changed, and a jump to the
    /// end a screen's worth.
    func test_movingTheSelection_writesOnlyWhatChanged() throws {
        let lines = (1...10_000).map { "Item \($0) due:2030-01-\(String(format: "%02d", $0 % 28 + 1)) +tag\($0 % 7)" }
        XCTAssertEqual(todo.run(["add", "-"], input: Array(lines.joined(separator: "\n").utf8)).status, 0)
        let screen = try todo.uiSession(columns: 200, rows: 50, colour: true)
        let first = screen.paint()
        XCTAssertLessThan(first.count, 50 * 300)
        screen.type(.character("j"))
        let moved = screen.paint()
        let rowWrites = String(decoding: moved, as: UTF8.self).components(separatedBy: ";1H").count - 1
        XCTAssertEqual(rowWrites, 2)
        XCTAssertLessThan(moved.count, 2 * 300)
        screen.type(.character("G"))
        let jumped = screen.paint()
        XCTAssertLessThan(jumped.count, 50 * 300)
        XCTAssertEqual(screen.selectedRow?.number, 10_000)
        XCTAssertEqual(screen.paint(), [], "nothing changed, nothing written")
    }

    func test_keys_areReadAsTerminalsSendThem() {
        XCTAssertEqual(
            Key.keys(in: Array("j\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[5~\u{1B}[6~\u{1B}[Z\t\r\u{7F}\u{03}é📄\u{1B}".utf8)),
            [
                .character("j"), .up, .down, .right, .pageUp, .pageDown, .backTab, .tab, .enter, .backspace,
                .control("c"), .character("é"), .character("📄"), .escape
            ])
        XCTAssertEqual(ShellWords.split(#"Call "Mom now" it\'s due:fri"#), ["Call", "Mom now", "it's", "due:fri"])
        XCTAssertNil(ShellWords.split("Call 'Mom"))
        XCTAssertNil(ShellWords.split(#"Call Mom\"#))
        XCTAssertEqual(ShellWords.quoted("it's"), #"'it'\''s'"#)
        XCTAssertEqual(
            Key.keys(in: Array("\u{1B}[200~Buy\nmilk x\u{1B}[201~\u{1B}xq".utf8)),
            [.paste("Buy milk x"), .alt("x"), .character("q")])
        // A paste longer than a read of the terminal: held until its end, none of it keys.
        var reader = KeyReader()
        let long = String(repeating: "z", count: 5000) + "x"
        let bytes = Array("j\u{1B}[200~\(long)\u{1B}[201~k".utf8)
        XCTAssertEqual(reader.keys(in: Array(bytes[..<4096])), [.character("j")])
        XCTAssertEqual(reader.keys(in: Array(bytes[4096..<5010])), [])
        XCTAssertEqual(reader.keys(in: Array(bytes[5010...])), [.paste(long), .character("k")])
        // The paste's end split between two reads; a paste past the limit kept to it, and ended by its
        // end even when that comes split after the limit.
        var split = KeyReader()
        XCTAssertEqual(split.keys(in: Array("\u{1B}[200~abc\u{1B}[20".utf8)), [])
        XCTAssertEqual(split.keys(in: Array("1~q".utf8)), [.paste("abc"), .character("q")])
        var huge = KeyReader()
        XCTAssertEqual(huge.keys(in: Array("x\u{1B}[200~".utf8)), [.character("x")])
        for _ in 0..<300 { XCTAssertEqual(huge.keys(in: [UInt8](repeating: 0x7A, count: 4096)), []) }
        XCTAssertEqual(huge.keys(in: Array("\u{1B}[20".utf8)), [])
        let ended = huge.keys(in: Array("1~j".utf8))
        XCTAssertEqual(ended.count, 2)
        XCTAssertEqual(ended.last, .character("j"))
        guard case .paste(let text)? = ended.first else { return XCTFail("no paste: \(ended.count) keys") }
        XCTAssertEqual(text.count, KeyReader.pasteLimit)
        XCTAssertTrue(text.allSatisfy { $0 == "z" })
    }
}
