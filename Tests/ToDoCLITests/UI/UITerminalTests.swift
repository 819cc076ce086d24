import Foundation
import TestSupport
import ToDoCore
import XCTest

@testable import ToDoCLI

/// A real terminal: a tmux session of a given size running `todo ui` (the built binary), typed
/// into with `send-keys` and read with `capture-pane`, as a person at a terminal meets it.
final class TmuxScreen {
    private let socket = "todo-ui-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Starts `script` (sh) in a session `columns` wide and `rows` high.
    init(columns: Int, rows: Int, script: String) throws {
        guard Self.tmux != nil else {
            throw XCTSkip("tmux is not installed: the terminal tests of todo ui are skipped")
        }
        try tmux([
            "-f", "/dev/null", "new-session", "-d", "-s", "ui", "-x", "\(columns)", "-y", "\(rows)", "sh", "-c", script
        ])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Runs tmux through `system` (a shell, waited for): its server, started by the first
    /// command, keeps that command's descriptors, so nothing is read from a pipe to its end.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(socket + ".out").path
        defer { unlink(output) }
        let command = ([Self.tmux!, "-L", socket] + arguments).map { ShellWords.quoted($0) }.joined(separator: " ")
        return try Self.shell(command, output: output)
    }

    /// What `command` (sh) writes to its standard output, run with `system`.
    static func shell(_ command: String, output: String? = nil) throws -> String {
        let output =
            output ?? FileManager.default.temporaryDirectory.appendingPathComponent("todo-ui-\(getpid()).out").path
        defer { unlink(output) }
        let status = system(command + " </dev/null >" + ShellWords.quoted(output) + " 2>/dev/null")
        guard status != -1 else { throw CocoaError(.executableLoad) }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// The screen's rows, without the spaces at their ends.
    var rows: [String] {
        get throws {
            try tmux(["capture-pane", "-p", "-t", "ui"]).split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().map { String($0.reversed().drop { $0 == " " }.reversed()) }
        }
    }

    /// The screen's rows with their decorations, as tmux writes them (`capture-pane -e`).
    var decoratedRows: [String] {
        get throws { try tmux(["capture-pane", "-p", "-e", "-t", "ui"]).split(separator: "\n").map(String.init) }
    }

    /// The row drawn in reverse video below the title row, without its decorations: the selection.
    /// tmux writes a decoration only where it changes, so reverse video is followed from row to row.
    var selectedRow: String? {
        get throws {
            var reverse = false
            for (index, row) in try decoratedRows.enumerated() {
                var startsReversed: Bool?
                var rest = Substring(row)
                while !rest.isEmpty {
                    if rest.hasPrefix("\u{1B}[") {
                        let parameters = rest.dropFirst(2).prefix { $0 != "m" }
                        for parameter in parameters.split(separator: ";", omittingEmptySubsequences: false) {
                            if parameter == "7" { reverse = true }
                            if parameter == "0" || parameter == "" || parameter == "27" { reverse = false }
                        }
                        rest = rest.dropFirst(2 + parameters.count + 1)
                    } else {
                        if startsReversed == nil { startsReversed = reverse }
                        rest = rest.dropFirst()
                    }
                }
                if index > 0, startsReversed == true {
                    return ScreenText.plain(ArraySlice(row.utf8)).trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// Sends tmux's key names (`j`, `Enter`, `C-c`, `Tab`) or, with `literally`, text.
    func send(_ keys: String..., literally: Bool = false) throws {
        try tmux(["send-keys", "-t", "ui"] + (literally ? ["-l"] : []) + keys)
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "ui", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The pane's terminal device and its shell's process.
    var tty: String {
        get throws {
            try tmux(["display", "-p", "-t", "ui", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
    var shellProcess: Int32 {
        get throws {
            Int32(
                try tmux(["display", "-p", "-t", "ui", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
                ?? 0
        }
    }

    /// Waits (at most ten seconds) until `condition` holds of the screen's rows, and returns them.
    @discardableResult
    func waitUntil(
        _ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: ([String]) -> Bool
    ) throws -> [String] {
        let deadline = Date().addingTimeInterval(10)
        var last: [String] = []
        while Date() < deadline {
            last = try rows
            if condition(last) { return last }
            usleep(30_000)
        }
        XCTFail("the screen never showed \(what):\n" + last.joined(separator: "\n"), file: file, line: line)
        return last
    }

    /// Waits until `todo ui` has ended, saying how, and returns the terminal's modes then
    /// (`icanon echo` when they are as they were).
    func modesAfterExit(_ status: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let rows = try waitUntil("the end and the modes", file: file, line: line) { rows in
            rows.contains("ui exited \(status)") && rows.contains { $0.hasSuffix("echo") }
        }
        return rows.first { $0.hasSuffix("echo") } ?? ""
    }

    /// Sends keys (as `send`), then waits until a row of the screen holds `text`.
    @discardableResult
    func press(
        _ keys: String..., literally: Bool = false, until text: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [String] {
        try tmux(["send-keys", "-t", "ui"] + (literally ? ["-l"] : []) + keys)
        return try waitFor(text, file: file, line: line)
    }

    /// Waits until a row of the screen holds `text`.
    @discardableResult
    func waitFor(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try waitUntil("'\(text)'", file: file, line: line) { $0.contains { $0.contains(text) } }
    }
}

/// `todo ui` in a real terminal, at the sizes the issue names: each key, a resize, another
/// process's change, and the terminal given back on every way out.
final class UITerminalTests: HarnessTestCase {
    private var executable: String { BinaryRunner.executable.path }

    /// The script that runs `todo ui` and then says how it ended and the terminal's modes.
    private func script(_ arguments: String = "", environment: String = "") -> String {
        // (Without the NO_COLOR the test runner may have been given.)
        "unset NO_COLOR; \(environment) TODO_FILE='\(todo.fileURL.path)' TZ=America/New_York HOME='\(todo.directory.path)' '\(executable)' ui \(arguments); echo \"ui exited $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e icanon -e -echo -e echo | tr '\\n' ' '; echo; exec sleep 600"
    }

    /// What `todo list` prints for a terminal `columns` wide, row by row.
    private func listed(_ words: [String] = [], columns: Int) -> [String] {
        todo.environment["COLUMNS"] = String(columns)
        defer { todo.environment["COLUMNS"] = nil }
        let output = todo.run(["--color", "never", "list"] + words, input: [], outputIsTerminal: true).stdout
        return output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The screen shows `todo list`'s rows under its title row.
    private func assertShowsTheList(
        _ screen: TmuxScreen, _ words: [String] = [], columns: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let expected = listed(words, columns: columns)
        try screen.waitUntil("todo list \(words)", file: file, line: line) {
            Array($0.dropFirst().prefix(expected.count)) == expected
        }
    }

    func test_everyKey_atSixtyByFifteen() throws {
        try everyKey(columns: 60, rows: 15)
    }

    func test_everyKey_atTwoHundredByFifty() throws {
        try everyKey(columns: 200, rows: 50)
    }

    private func everyKey(columns: Int, rows: Int) throws {
        todo.succeed("add", "Call Mom", "due:2030-01-10", "+family")
        todo.succeed("add", "Buy milk", "pri:H")
        todo.succeed("add", "Fix the fence", "--list", "Home", "project:home")
        // Wide characters take two columns, in the rows and in the terminal.
        todo.succeed("add", "写报告 📄 for the café", "due:2030-02-01")
        let screen = try TmuxScreen(columns: columns, rows: rows, script: script())
        try screen.waitFor("todo list")
        try assertShowsTheList(screen, columns: columns)
        // The moves: arrows, End and Home, the pages.
        for (key, selected) in [
            ("Down", "2 [ ] H Buy milk"), ("Up", "1 [ ]   Call Mom +family"),
            ("End", "4 [ ]   写报告 📄 for the café"),
            ("Home", "1 [ ]   Call Mom +family"), ("NPage", "4 [ ]   写报告 📄 for the café"),
            ("PPage", "1 [ ]   Call Mom +family")
        ] {
            try screen.send(key)
            try screen.waitUntil("\(selected) selected after \(key)") { _ in
                ((try? screen.selectedRow) ?? nil)?.hasPrefix(selected) == true
            }
        }
        // Move and check.
        try screen.send("j")
        try screen.press("x", until: "Checked 2: Buy milk (priority high)")
        try assertShowsTheList(screen, columns: columns)
        try screen.press("g", "Space", until: "Checked 1: Call Mom")
        // Add, with add's words.
        try screen.send("a")
        try screen.send("Water the plants due:2030-06-14 +home pri:M", literally: true)
        try screen.press("Enter", until: "Added 5: Water the plants (due Friday 06/14/30")
        try assertShowsTheList(screen, columns: columns)
        // Edit: the line holds the item's words.
        try screen.press("e", until: "edit 5: 'Water the plants' due:2030-06-14 pri:M +home")
        try screen.send("C-w")
        try screen.send("+garden", literally: true)
        try screen.press("Enter", until: "Edited 5: Water the plants")
        XCTAssertEqual(try JSONFileStore(path: todo.fileURL.path).load().item(withNumber: 5)?.tags, ["garden"])
        try assertShowsTheList(screen, columns: columns)
        // Start, postpone.
        try screen.press("s", until: "Started 5: Water the plants")
        try screen.send("p")
        try screen.send("1w", literally: true)
        try screen.press("Enter", until: "Postponed 1 week: 5: Water the plants (due Friday 06/21/30")
        try assertShowsTheList(screen, columns: columns)
        // Filter with list's words; Esc clears it.
        try screen.send("/")
        try screen.send("+garden", literally: true)
        try screen.press("Enter", until: "todo list +garden")
        try assertShowsTheList(screen, ["+garden"], columns: columns)
        try screen.press("Escape", until: "Filter cleared.")
        try assertShowsTheList(screen, columns: columns)
        // Lists: every list, the default one, Home.
        try screen.press("Tab", until: "todo list --list default")
        try assertShowsTheList(screen, ["--list", "default"], columns: columns)
        try screen.press("Tab", until: "todo list --list Home")
        try assertShowsTheList(screen, ["--list", "Home"], columns: columns)
        try screen.press("Tab", until: "Every list.")
        // next's ranking and the agenda.
        try screen.press("n", until: "todo next")
        try screen.press("A", until: "todo agenda")
        try screen.press("A", until: "The list.")
        // Show, help.
        try screen.press("g", "Enter", until: "todo show 3")
        try screen.waitFor("Fix the fence")
        try screen.send("q")
        try screen.press("?", until: "filter with list's words")
        try screen.send("Escape")
        // Remove after y, undo, redo.
        try screen.press("G", "d", until: "? y/n")
        try screen.press("y", until: "Removed ")
        let removed = try screen.rows.last ?? ""
        try assertShowsTheList(screen, columns: columns)
        try screen.press("u", until: "Undid change")
        try assertShowsTheList(screen, columns: columns)
        try screen.press("r", until: "Redid change")
        try assertShowsTheList(screen, columns: columns)
        XCTAssertTrue(todo.succeed("history").contains("todo remove"), removed)
        // Another process changes the list: shown without a key.
        todo.succeed("add", "Added elsewhere")
        try screen.waitFor("Added elsewhere")
        try assertShowsTheList(screen, columns: columns)
        // A resize: the rows fit the new width.
        try screen.resize(columns: columns + 20, rows: rows + 5)
        try assertShowsTheList(screen, columns: columns + 20)
        XCTAssertEqual(try screen.rows.count, rows + 5)
        // Ctrl-C leaves, and the terminal is as it was.
        try screen.send("C-c")
        XCTAssertEqual(try screen.modesAfterExit(0), "icanon echo")
    }

    func test_theTerminal_isGivenBack_onQ_onCtrlZ_andWhenKilled() throws {
        todo.succeed("add", "Call Mom")
        let screen = try TmuxScreen(columns: 60, rows: 15, script: script())
        try screen.waitFor("1 [ ] Call Mom")
        let tty = try screen.tty
        func modes() throws -> String {
            try TmuxScreen.shell("stty -a -F " + ShellWords.quoted(tty))
        }
        XCTAssertTrue(try modes().contains("-icanon"), "raw while it runs")
        // Ctrl-Z where no shell controls jobs (`sh -c`, `xterm -e todo ui`): the kernel drops the
        // stop, and the screen goes on, raw, its keys working.
        try screen.send("C-z")
        try screen.press("x", until: "Checked 1: Call Mom")
        XCTAssertTrue(try modes().contains("-icanon"), "raw again after a Ctrl-Z that could not stop")
        let ui = try XCTUnwrap(Self.child(of: try screen.shellProcess))
        // Killed: the handler gives the terminal back before the process ends.
        kill(ui, SIGTERM)
        XCTAssertEqual(try screen.modesAfterExit(143), "icanon echo")
    }

    /// Ctrl-Z in a shell with job control: the shell's prompt on the main screen while stopped,
    /// the screen again after `fg`, and the terminal as it was after `q`.
    func test_ctrlZ_inAShell_stops_andFgComesBack() throws {
        todo.succeed("add", "Call Mom")
        let screen = try TmuxScreen(
            columns: 60, rows: 15,
            script:
                "TODO_FILE='\(todo.fileURL.path)' TZ=America/New_York HOME='\(todo.directory.path)' PS1='shell$ ' exec bash --norc --noprofile -i"
        )
        try screen.waitFor("shell$")
        try screen.send("'\(executable)' ui", literally: true)
        try screen.press("Enter", until: "1 [ ] Call Mom")
        try screen.send("C-z")
        let stopped = try screen.waitFor("Stopped")
        XCTAssertFalse(stopped.contains { $0.contains("? keys") }, "the main screen while stopped")
        try screen.send("fg", literally: true)
        try screen.press("Enter", until: "? keys  q quit")
        try screen.press("x", until: "Checked 1: Call Mom")
        try screen.press("q", until: "shell$ fg")
        try screen.send(
            "stty -a | tr ' ;' '\\n\\n' | grep -x -e -icanon -e icanon -e -echo -e echo | tr '\\n' ' '; echo",
            literally: true)
        try screen.press("Enter", until: "icanon echo")
    }

    func test_q_leaves_andADumbTerminal_isRefused() throws {
        let screen = try TmuxScreen(columns: 60, rows: 15, script: script())
        try screen.waitFor("No items. Add one with")
        try screen.send("q")
        XCTAssertEqual(try screen.modesAfterExit(0), "icanon echo")
        // NO_COLOR: no colour, only the selection and the title row in reverse video.
        todo.succeed("add", "Call Mom")
        todo.succeed("add", "Buy milk", "pri:H", "due:2020-01-01")
        let plain = try TmuxScreen(columns: 60, rows: 15, script: script(environment: "NO_COLOR=1"))
        try plain.waitFor("2 [ ] H Buy milk")
        let decorations = try plain.decoratedRows.joined().components(separatedBy: "\u{1B}[").dropFirst()
            .map { String($0.prefix { $0 != "m" }) }
        XCTAssertEqual(Set(decorations).subtracting(["0", "39", "49", "7"]), [], "colours despite NO_COLOR")
        let coloured = try TmuxScreen(columns: 60, rows: 15, script: script())
        try coloured.waitFor("2 [ ] H Buy milk")
        let colouredRows = try coloured.decoratedRows.joined(separator: "\n")
        XCTAssertTrue(colouredRows.contains("\u{1B}[31m"), "the overdue due in red: \(colouredRows.debugDescription)")
        // A paste longer than a read of the terminal (4 KB): typed into the line, none of it keys;
        // in the list, nothing but a word.
        let pasted = String(repeating: "z", count: 5000) + "x\nd"
        try coloured.tmux(["set-buffer", "-b", "long", pasted])
        try coloured.send("a")
        try coloured.tmux(["paste-buffer", "-p", "-b", "long", "-t", "ui"])
        try coloured.press("Enter", until: "Added 3: zzzz")
        XCTAssertEqual(try JSONFileStore(path: todo.fileURL.path).load().item(withNumber: 3)?.title.count, 5003)
        try coloured.tmux(["paste-buffer", "-p", "-b", "long", "-t", "ui"])
        try coloured.waitFor("A paste goes into a line: a, e, p or /.")
        XCTAssertEqual(try JSONFileStore(path: todo.fileURL.path).load().toDoCount, 3)
        let dumb = try TmuxScreen(columns: 100, rows: 15, script: script(environment: "TERM=dumb"))
        try dumb.waitFor("ui exited 64")
        try dumb.waitFor("Error: todo ui needs a terminal that moves the cursor (TERM is dumb); use todo list")
    }

    func test_withoutATerminal_itIsRefused() {
        let outcome = todo.run(["ui"], input: [])
        XCTAssertEqual(outcome.status, 64)
        XCTAssertTrue(
            outcome.stderr.hasPrefix(
                "Error: todo ui needs a terminal for its input and output; use todo list to print the list\n"),
            outcome.stderr)
        XCTAssertNil(todo.fileContents)
    }

    /// The process `parent` started (the shell's `todo ui`).
    static func child(of parent: Int32) -> Int32? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for task in tasks {
            guard let pid = Int32(task), let stat = try? String(contentsOfFile: "/proc/\(task)/stat", encoding: .utf8)
            else { continue }
            // pid (comm) state ppid …: the fields after the name's closing parenthesis.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == parent { return pid }
        }
        return nil
    }
}
