import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// Taskwarrior's and todo.sh's verbs and habits as todo answers them (issue 52), on a real file
/// with exact output and exit codes; TheirWordsTests gives the same words to the real Taskwarrior.
/// The clock is Sunday 22 November 2026, 10:30 in New York.
final class TheirVerbsTests: HarnessTestCase {
    // MARK: The items first

    func test_itemsFirst_asTaskwarriorOrdersThem() {
        todo.succeed("add", "Call Mom")
        todo.succeed("add", "Pay rent")
        XCTAssertEqual(todo.succeed("2", "done"), "Checked 2: Pay rent\n")
        XCTAssertEqual(todo.succeed("1", "modify", "pri:L"), "Edited 1: Call Mom (priority low)\n")
        XCTAssertEqual(todo.succeed("1"), todo.succeed("show", "1"), "the numbers alone show the item")
        XCTAssertEqual(todo.succeed("1,2", "info"), todo.succeed("show", "1", "2"))
        XCTAssertEqual(todo.succeed("1", "--json"), todo.succeed("show", "1", "--json"))
        let history = todo.succeed("history")
        XCTAssertTrue(history.contains("done 2") && history.contains("modify 1 pri:L"), history)
        let before = todo.fileContents
        let unknown = todo.run("1", "frobnicate")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("Error: unknown command 'frobnicate'"), unknown.stderr)
        // A command of no items does not take numbers first: `todo 2 undo` is not `todo undo 2`.
        for command in ["undo", "redo", "add", "history", "tags"] {
            let outcome = todo.run("2", command)
            XCTAssertEqual(outcome.status, 64, command)
            XCTAssertTrue(
                outcome.stderr.hasPrefix(
                    "Error: '\(command)' takes no items; the numbers go after the commands that do,"
                        + " as todo 2 done"), outcome.stderr)
        }
        XCTAssertEqual(todo.fileContents, before)
    }

    // MARK: Reports

    func test_reports_areTheListsTheyName() {
        todo.succeed("add", "Late", "due:yesterday")
        todo.succeed("add", "Begun")
        todo.succeed("start", "2")
        todo.succeed("add", "Later", "wait:2026-12-01")
        todo.succeed("add", "Finished")
        todo.succeed("check", "4")
        XCTAssertEqual(todo.succeed("overdue"), "1 [ ] Late  11/21/26\n")
        XCTAssertEqual(todo.succeed("overdue"), todo.succeed("list", "--overdue"))
        XCTAssertEqual(todo.succeed("active"), "2 [>] Begun\n")
        XCTAssertEqual(todo.succeed("waiting"), "3 [ ] Later\n")
        XCTAssertEqual(todo.succeed("completed"), "4 [x] Finished\n")
        XCTAssertEqual(todo.succeed("all"), todo.succeed("list", "--all"))
        XCTAssertEqual(todo.succeed("waiting", "--json"), todo.succeed("list", "--waiting", "--json"))
        XCTAssertEqual(todo.run("list", "--done", "--active").status, 64)
    }

    func test_projectsAndTags_countTheOpenItems_asTaskwarriorCountsThem() {
        todo.succeed("add", "Fix the fence", "project:home.garden", "+weekend")
        todo.succeed("add", "Call the plumber", "project:Home", "+weekend", "@phone")
        todo.succeed("add", "File taxes", "project:admin")
        todo.succeed("add", "Old", "project:gone", "+weekend")
        todo.succeed("check", "4")
        XCTAssertEqual(
            todo.succeed("projects"),
            """
            admin     1
            home      2
              garden  1

            """)
        XCTAssertEqual(
            todo.succeed("tags"),
            """
            @phone   1
            weekend  2

            """)
        XCTAssertEqual(
            todo.succeed("projects", "--json"),
            """
            [
              {"project":"admin","open":1},
              {"project":"home","open":2},
              {"project":"home.garden","open":1}
            ]

            """)
        XCTAssertEqual(todo.run("projects", "extra").status, 64)
    }

    func test_nextAndAgenda_takeListsFilters() {
        todo.succeed("add", "Send the report", "due:tomorrow", "--list", "Work")
        todo.succeed("add", "Buy milk", "due:tomorrow", "+errand")
        XCTAssertEqual(todo.succeed("next", "--list", "Work"), "1 [ ] Send the report --list Work  11/23/26\n")
        XCTAssertEqual(todo.succeed("next", "+errand"), "2 [ ] Buy milk +errand  11/23/26\n")
        XCTAssertEqual(
            todo.succeed("agenda", "+errand"),
            """
            Tomorrow
            2 [ ] Buy milk +errand  11/23/26

            """)
        XCTAssertEqual(todo.succeed("agenda", "--list", "Work", "--json").contains("Buy milk"), false)
        XCTAssertEqual(todo.run("agenda", "status:completed").status, 64)
    }

    // MARK: Import into a list

    func test_import_intoAList() throws {
        let file = todo.directory.appendingPathComponent("todo.txt")
        try Data("(A) Call Mom +family\nPay rent\n".utf8).write(to: file)
        XCTAssertEqual(
            todo.succeed("import", file.path, "--list", "Home"),
            "Added 1: Call Mom +family (priority high, list Home)\nAdded 2: Pay rent (list Home)\n"
                + "Imported 2 items from \(file.path) (todotxt).\n")
        XCTAssertEqual(todo.succeed("lists"), "default  0 open items\nHome     2 open items\n")
        XCTAssertEqual(todo.run("import", file.path, "--list", " ").status, 64)
    }

    // MARK: Near misses

    func test_aNearMissOfAnAttribute_isAnError_butOtherWordsStayText() {
        let cases: [([String], String)] = [
            (
                ["add", "X", "projet:home"],
                "cannot read 'projet:home': did you mean 'project:'? (words after -- are kept as text)"
            ),
            (
                ["add", "X", "deu:tomorrow"],
                "cannot read 'deu:tomorrow': did you mean 'due:'? (words after -- are kept as text)"
            ),
            (
                ["list", "prioirty:H"],
                "cannot read 'prioirty:H': did you mean 'priority:'? (words after -- are kept as text)"
            ),
            (
                ["mod", "1", "wiat:fri"],
                "cannot read 'wiat:fri': did you mean 'wait:'? (words after -- are kept as text)"
            )
        ]
        todo.succeed("add", "A")
        let before = todo.fileContents
        for (arguments, message) in cases {
            let outcome = todo.run(arguments, input: [])
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), "Error: " + message)
        }
        XCTAssertEqual(todo.fileContents, before)
        XCTAssertEqual(
            todo.succeed("add", "task:", "review", "at", "10:30", "ratio", "1:2", "https://example.com/a:b"),
            "Added 2: task: review at 10:30 ratio 1:2 https://example.com/a:b\n")
        XCTAssertEqual(todo.succeed("add", "Y", "prio:H"), "Added 3: Y (priority high)\n")
        XCTAssertEqual(todo.succeed("add", "--", "projet:home"), "Added 4: projet:home\n")
    }

    // MARK: Undo and redo count the same

    func test_redoN_countsChanges_asUndoN() {
        for title in ["A", "B", "C"] { todo.succeed("add", title) }
        todo.succeed("undo", "3")
        let splitRedo = todo.run("redo", "1")
        XCTAssertEqual(splitRedo.status, 5)
        XCTAssertEqual(
            splitRedo.stderr,
            "Error: cannot redo 1 change: change 4 (todo undo 3) took back several together, and a redo brings them"
                + " back together: todo redo 3; nothing was changed\n")
        XCTAssertTrue(todo.succeed("redo", "3").hasPrefix("Redid"))
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n2 [ ] B\n3 [ ] C\n")
        let split = todo.run("undo", "1")
        XCTAssertEqual(split.status, 5, "the redo made three again: undo takes them back together")
        XCTAssertTrue(split.stderr.contains("todo undo 3;"), split.stderr)
        todo.succeed("undo", "3")
        todo.succeed("redo")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n2 [ ] B\n3 [ ] C\n", "redo alone: the last undo, whole")
        todo.succeed("undo")
        XCTAssertEqual(todo.succeed("list"), "", "undo alone: the last redo, whole")
        todo.succeed("redo")
        todo.succeed("add", "D")
        todo.succeed("add", "E")
        todo.succeed("undo")
        todo.succeed("undo")
        todo.succeed("redo", "2")
        XCTAssertEqual(
            todo.succeed("list"), "1 [ ] A\n2 [ ] B\n3 [ ] C\n4 [ ] D\n5 [ ] E\n", "two single undos, one redo 2")
    }

    // MARK: Standard input's lines

    func test_addFromStandardInput_namesTheLinesAsAnEditorNumbersThem() {
        let outcome = todo.run("add", "-", input: "Call Mom\n\nPay rent\n\nCall Mom\n")
        XCTAssertEqual(outcome.status, 3)
        XCTAssertEqual(
            outcome.stderr,
            "Error: line 5 of standard input repeats line 1 (\"Call Mom\"); nothing was added\n")
    }

    // MARK: A description comes back a description

    func test_taskwarriorRoundTrip_keepsTheDescription() throws {
        todo.succeed("add", "File taxes", "--description", "Forms in the drawer\nCall the accountant")
        todo.succeed("annotate", "1", "Asked for an extension")
        let file = todo.directory.appendingPathComponent("tasks.json").path
        todo.succeed("export", "--format", "taskwarrior", "--output", file)
        todo.succeed("remove", "1")
        todo.succeed("import", file)
        let shown = todo.succeed("show", "2")
        XCTAssertTrue(shown.contains("Description: Forms in the drawer\n             Call the accountant\n"), shown)
        XCTAssertEqual(
            shown.components(separatedBy: "\n").first { $0.hasPrefix("Annotations:") }?.hasSuffix(
                "Asked for an extension"),
            true, shown)
    }

    // MARK: next ranks as Taskwarrior ranks

    /// Each title's urgency, as `next --json` gives it.
    private func urgencies() throws -> [String: Double] {
        let items = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(todo.succeed("next", "--json").utf8)) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: items.compactMap { item in
                (item["title"] as? String).flatMap { title in (item["urgency"] as? Double).map { (title, $0) } }
            })
    }

    func test_next_countsAnnotations_aKeptScheduled_andKeptDependencies() throws {
        todo.succeed("add", "One note")
        todo.succeed("annotate", "1", "a")
        todo.succeed("add", "Three notes")
        for note in ["a", "b", "c"] { todo.succeed("annotate", "2", note) }
        // Y depends on A, and X on A too: A is Y's subtask, and X's dependency stays Taskwarrior's.
        let tasks = """
            [{"uuid":"aaaaaaaa-0000-4000-8000-000000000001","description":"A","status":"pending"},
            {"uuid":"aaaaaaaa-0000-4000-8000-000000000002","description":"Y","status":"pending","depends":"aaaaaaaa-0000-4000-8000-000000000001"},
            {"uuid":"aaaaaaaa-0000-4000-8000-000000000003","description":"X","status":"pending","depends":["aaaaaaaa-0000-4000-8000-000000000001"]},
            {"uuid":"aaaaaaaa-0000-4000-8000-000000000004","description":"Scheduled","status":"pending","scheduled":"20261101T050000Z"},
            {"uuid":"aaaaaaaa-0000-4000-8000-000000000005","description":"Later","status":"pending","scheduled":"20301101T050000Z"}]
            """
        let file = todo.directory.appendingPathComponent("tasks.json")
        try Data(tasks.utf8).write(to: file)
        todo.succeed("import", file.path)
        XCTAssertEqual(
            try urgencies(),
            ["One note": 0.8, "Three notes": 1, "A": 8, "Y": -5, "X": -5, "Scheduled": 5, "Later": 0])
    }

    // MARK: A month's end

    /// A series that keeps the month's end says so in words, and `postpone` by months lands on a
    /// day its rule gives (from 11/30, 12/31; from the 30th, February's last day, then the 30th).
    func test_aMonthEndSeries_saysSo_andPostponesAlongItsRule() {
        XCTAssertEqual(
            todo.succeed("add", "Rent", "--due", "11/30/26", "--repeat", "monthly"),
            "Added 1: Rent (due Monday 11/30/26, repeats every month on its last day)\n")
        XCTAssertEqual(
            todo.succeed("postpone", "1", "1m"),
            "Postponed 1 month: 1: Rent (due Thursday 12/31/26, repeats every month on its last day)\n")
        XCTAssertTrue(
            todo.succeed("show", "1").contains(
                "Repeats:     every month on its last day (FREQ=MONTHLY;BYMONTHDAY=-1)\n"))
        todo.succeed("add", "Invoice", "--due", "01/30/27 17:00", "--repeat", "every 2 months")
        XCTAssertEqual(
            todo.succeed("postpone", "2", "1m"),
            "Postponed 1 month: 2: Invoice (due Sunday 02/28/27 17:00, repeats every 2 months on the 30th, or its last"
                + " day)\n")
        XCTAssertTrue(todo.succeed("postpone", "2", "1m").contains("due Tuesday 03/30/27 17:00"))
        XCTAssertTrue(todo.succeed("postpone", "2", "2w").contains("due Tuesday 04/13/27 17:00"), "weeks are days")
    }

    // MARK: todo.txt's letters

    /// A letter stays a letter (issue 52): after an import, (A) to (D) are shown as A to D, not
    /// all as H; `pri:B` and `--priority B` are typed, and filter by that priority. H, M and L
    /// typed are Taskwarrior's levels; a list whose priorities are all levels shows H, M, L.
    func test_todoTxtsLetters_areShownTypedAndFiltered() throws {
        let file = todo.directory.appendingPathComponent("todo.txt")
        try Data("(A) Call Mom\n(B) Pay rent\n(D) Sort photos\n(E) Water plants\n".utf8).write(to: file)
        todo.succeed("import", file.path)
        XCTAssertEqual(
            todo.succeed("list"), "1 [ ] A Call Mom\n2 [ ] B Pay rent\n3 [ ] D Sort photos\n4 [ ] E Water plants\n")
        XCTAssertEqual(todo.succeed("add", "Buy milk", "pri:B"), "Added 5: Buy milk (priority high)\n")
        XCTAssertEqual(todo.succeed("add", "Read", "--priority", "c"), "Added 6: Read (priority high)\n")
        XCTAssertEqual(todo.succeed("list", "pri:B"), "2 [ ] B Pay rent\n5 [ ] B Buy milk\n")
        XCTAssertEqual(todo.succeed("list", "--priority", "C"), "6 [ ] C Read\n")
        XCTAssertEqual(todo.succeed("list", "pri:H", "--limit", "2"), "1 [ ] A Call Mom\n2 [ ] B Pay rent\n")
        XCTAssertTrue(todo.succeed("export", "--format", "todotxt").hasPrefix("(A) "))
        // Levels alone: H, M, L.
        XCTAssertEqual(
            todo.succeed("list", "pri:medium"), "4 [ ] E Water plants\n", "a filtered view says the list's letters")
        XCTAssertEqual(todo.succeed("list", "pri:A"), "1 [ ] A Call Mom\n")
        XCTAssertEqual(
            todo.succeed("pri", "4", "Z"), "Edited 4: Water plants (priority low)\n", "a letter after I is 9")
        XCTAssertEqual(todo.run("add", "X", "pri:Ä").status, 64)
    }

    // MARK: A line's words

    /// A tag taken away leaves the title where a todo.txt line holds it as a word; `append` and
    /// `prepend` read a `+project` and `@context` as todo.sh's line has them; a quoted title's
    /// `rec:+1w` is todo.txt's strict repeat.
    func test_aLinesTagWords_followTheTags() {
        XCTAssertEqual(
            todo.succeed("add", "Call +Home mom about +home stuff @phone"),
            "Added 1: Call +Home mom about +home stuff @phone\n")
        XCTAssertEqual(
            todo.succeed("edit", "1", "--untag", "home"), "Edited 1: Call mom about stuff @phone\n",
            "the words go with the tag")
        XCTAssertEqual(todo.succeed("list", "+home"), "")
        XCTAssertTrue(
            todo.succeed("export", "--format", "todotxt").hasPrefix("2026-11-22 Call mom about stuff @phone id:"))
        XCTAssertEqual(todo.succeed("add", "+solo @x"), "Added 2: +solo @x\n")
        XCTAssertEqual(todo.succeed("edit", "2", "--no-tags"), "Edited 2: +solo @x\n", "a title is never emptied")
        XCTAssertEqual(
            todo.succeed("append", "1", "+extra", "@ctx"), "Edited 1: Call mom about stuff @phone +extra @ctx\n")
        XCTAssertEqual(todo.succeed("list", "+extra"), "1 [ ] Call mom about stuff @phone +extra @ctx\n")
        XCTAssertEqual(
            todo.succeed("add", "(A) Stretch due:2026-11-23 rec:+1w +health"),
            "Added 3: Stretch +health (due Monday 11/23/26, repeats every week, priority high)\n")
    }

    /// `postpone` by months keeps a month-end series on its rule's day only while it is on it.
    func test_postponingOffTheRulesDay_movesByThePeriodAsked() {
        todo.succeed("add", "U", "--due", "04/30/27", "--repeat", "monthly")
        XCTAssertTrue(todo.succeed("postpone", "1", "1w").contains("due Friday 05/07/27"))
        XCTAssertTrue(todo.succeed("postpone", "1", "1y").contains("due Sunday 05/07/28"))
    }
}
