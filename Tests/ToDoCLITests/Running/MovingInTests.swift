import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// What people moving in from Taskwarrior and todo.txt type (issue 32), run against a real file
/// with exact output and exit codes. The clock is Sunday 22 November 2026, 10:30 in New York.
final class MovingInTests: HarnessTestCase {
    // MARK: Taskwarrior's words

    func test_add_readsTaskwarriorsWords_andTheRestIsTheTitle() {
        XCTAssertOutcome(
            todo.run("add", "Buy", "milk", "due:tomorrow", "+groceries", "pri:H", "project:home"),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Buy milk (due Monday 11/23/26, priority high, project:home, +groceries)

                    """, stderr: ""))
        XCTAssertEqual(
            todo.succeed(
                "add", "Water", "plants", "scheduled:fri", "recur:weekly", "due:sat", "@home", "proj:home.garden"),
            "Added 2: Water plants (due Saturday 11/28/26, repeats every week, starts Friday 11/27/26, project:home.garden, @home)\n"
        )
        XCTAssertEqual(
            todo.succeed("add", "--", "pri:H", "is", "a", "word", "here"), "Added 3: pri:H is a word here\n",
            "-- ends them")
        XCTAssertEqual(
            todo.succeed("add", "Re:", "budget", "10:30", "http://example.com"),
            "Added 4: Re: budget 10:30 http://example.com\n",
            "a word that is not one of Taskwarrior's names stays text")
        let show = todo.succeed("show", "2")
        XCTAssertTrue(show.contains("Project:     home.garden\n") && show.contains("Tags:        @home\n"), show)
    }

    func test_aWordTodoCannotRead_isAnErrorNamingIt_andChangesNothing() {
        todo.succeed("add", "A")
        let before = todo.fileContents
        let someday =
            "cannot read 'due:someday': invalid date 'someday': todo keeps no far-off stand-in date (Taskwarrior's is"
            + " 9999-12-30); leave the date out (an item without a due sorts after every dated one), or give the day it"
            + " should wait until"
        let cases: [([String], String)] = [
            (["add", "X", "due:someday"], someday),
            (
                ["add", "X", "pri:urgent"],
                "cannot read 'pri:urgent': use H, M or L (high, medium, low), 1 (highest) to 9 (lowest), a todo.txt letter A to Z,"
                    + " or none"
            ),
            (
                ["add", "X", "recur:sometimes"],
                "cannot read 'recur:sometimes': use daily, weekdays, weekly, monthly, yearly, or a number and a unit as 2w, 3d, 6mo, 1y"
            ),
            (["add", "X", "end:today"], "cannot read 'end:today': todo does not read Taskwarrior's 'end:' here"),
            (["add", "X", "depends:9"], "no item matches \"9\""),
            (["mod", "1", "due:someday"], someday),
            (["add", "X", "due:banana"], "cannot read 'due:banana': invalid date 'banana'")
        ]
        for (arguments, message) in cases {
            let outcome = todo.run(arguments, input: [])
            XCTAssertEqual(
                outcome.stderr.split(separator: "\n").first.map(String.init), "Error: " + message, "\(arguments)")
            XCTAssertNotEqual(outcome.status, 0, "\(arguments)")
        }
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_mod_changesFieldsByWords_andEditTakesRangesAndLists() {
        for title in ["One", "Two", "Three", "Four"] { todo.succeed("add", title, "+home") }
        XCTAssertEqual(
            todo.succeed("mod", "1", "due:fri", "-home", "+work", "pri:H", "project:work.admin"),
            "Edited 1: One (due Friday 11/27/26, priority high, project:work.admin, +work)\n")
        XCTAssertEqual(
            todo.succeed("mod", "1", "due:", "pri:", "project:"), "Edited 1: One (+work)\n",
            "an empty value removes the field")
        XCTAssertEqual(
            todo.succeed("edit", "2-3", "pri:M"),
            """
            Edited 2: Two (priority medium, +home)
            Edited 3: Three (priority medium, +home)

            """)
        XCTAssertEqual(
            todo.succeed("edit", "2,4", "--tag", "x"),
            "Edited 2: Two (priority medium, +home +x)\nEdited 4: Four (+home +x)\n")
        XCTAssertEqual(
            todo.succeed("edit", "1", "3", "--priority", "low"),
            "Edited 1: One (priority low, +work)\nEdited 3: Three (priority low, +home)\n")
        XCTAssertEqual(
            todo.succeed("mod", "4", "Four", "and", "more"), "Edited 4: Four and more (+home +x)\n",
            "other words are the title")
        XCTAssertEqual(todo.succeed("mod", "4", "depends:2"), "  Its subtasks now: 2\n")
        XCTAssertEqual(todo.succeed("list", "--parent", "4"), "2 [ ] M Two +home +x\n")
        // A subtask of another item is not taken from it in silence (issue 50).
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("add", "Five", "depends:2"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: 2 "Two" is already a subtask of 4 "Four and more"; nothing was changed (to move it: todo edit 2 --parent <ref>)

                    """))
        XCTAssertEqual(todo.run("mod", "3", "depends:2").status, 3)
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_list_filtersByWords_andAProjectHoldsItsParts() {
        todo.succeed("add", "Rake", "project:home.garden", "+outside")
        todo.succeed("add", "Dust", "project:home")
        todo.succeed("add", "Homework", "project:homework", "+outside")
        todo.succeed("add", "Report", "project:work", "pri:H", "due:today")
        XCTAssertEqual(
            todo.succeed("list", "project:home"), "1 [ ] Rake project:home.garden +outside\n2 [ ] Dust project:home\n")
        XCTAssertEqual(
            todo.succeed("list", "+outside", "-home"),
            "1 [ ] Rake project:home.garden +outside\n3 [ ] Homework project:homework +outside\n")
        XCTAssertEqual(todo.succeed("list", "-outside", "pri:H"), "4 [ ] H Report project:work  11/22/26\n")
        XCTAssertEqual(todo.succeed("list", "due:today"), "4 [ ] H Report project:work  11/22/26\n")
        XCTAssertEqual(todo.succeed("list", "due.before:tomorrow"), "4 [ ] H Report project:work  11/22/26\n")
        XCTAssertEqual(
            todo.succeed("list", "ra"), "1 [ ] Rake project:home.garden +outside\n", "a plain word is searched for")
        XCTAssertEqual(
            todo.succeed("+outside", "ho"), "3 [ ] Homework project:homework +outside\n", "todo +tag is todo list +tag")
        XCTAssertEqual(
            todo.succeed("list", "--sort", "project"),
            """
            2 [ ]   Dust project:home
            1 [ ]   Rake project:home.garden +outside
            3 [ ]   Homework project:homework +outside
            4 [ ] H Report project:work                 11/22/26

            """)
        todo.succeed("check", "2")
        XCTAssertEqual(todo.succeed("list", "status:completed"), "2 [x] Dust project:home\n")
        XCTAssertEqual(
            todo.succeed("export", "project:home", "status:pending", "--format", "todotxt").split(separator: " ")
                .prefix(3),
            ["2026-11-22", "Rake", "+home.garden"], "export takes the same words")
    }

    // MARK: start, stop, postpone, pri, append, prepend

    func test_startAndStop_setTheStateTheListAndShowShow() {
        todo.succeed("add", "Write report")
        todo.succeed("add", "Read")
        XCTAssertOutcome(todo.run("start", "1"), Outcome(status: 0, stdout: "Started 1: Write report\n", stderr: ""))
        XCTAssertEqual(todo.succeed("start", "1"), "Already begun 1: Write report\n")
        XCTAssertEqual(todo.succeed("list"), "1 [>] Write report\n2 [ ] Read\n")
        XCTAssertTrue(todo.succeed("show", "1").contains("Status:      in progress\n"))
        XCTAssertEqual(todo.succeed("stop", "1"), "Stopped 1: Write report\n")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] Write report\n2 [ ] Read\n")
        todo.succeed("check", "2")
        XCTAssertOutcome(
            todo.run("start", "2"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: 2 "Read" is done; open it again with todo uncheck 2 to begin it

                    """))
        todo.succeed("start", "1")
        XCTAssertEqual(todo.succeed("undo"), "Undid change 6: todo start 1\n  Edited 1: Write report [progress]\n")
    }

    func test_postpone_movesTheDueAndTheStart_fromWhereTheyAre() {
        todo.succeed("add", "Pay", "--due", "2026-12-01 09:00", "--start", "2026-11-28")
        todo.succeed("add", "Call", "--due", "2027-01-31")
        todo.succeed("add", "Plan", "--due", "yesterday")
        XCTAssertEqual(
            todo.succeed("postpone", "1", "2d"),
            "Postponed 2 days: 1: Pay (due Thursday 12/03/26 09:00, starts Monday 11/30/26)\n")
        XCTAssertEqual(
            todo.succeed("postpone", "2-3", "1m"),
            """
            Postponed 1 month: 2: Call (due Sunday 02/28/27)
            Postponed 1 month: 3: Plan (due Monday 12/21/26)

            """, "a month later keeps the day, or the month's last; from the due, not from today")
        todo.succeed("add", "Someday")
        let before = todo.fileContents
        // A rule of the item, not of the words: refused (exit 3), as the core decides it.
        XCTAssertOutcome(
            todo.run("postpone", "1", "4", "1w"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: 4 "Someday" has no due date to postpone; give it one with todo edit 4 --due <date>

                    """))
        XCTAssertEqual(todo.fileContents, before, "all or nothing")
    }

    func test_todoShsVerbs() {
        todo.succeed("add", "Buy milk")
        XCTAssertEqual(todo.succeed("pri", "1", "A"), "Edited 1: Buy milk (priority high)\n")
        XCTAssertEqual(
            todo.succeed("show", "1").split(separator: "\n").first { $0.hasPrefix("Priority") }, "Priority:    high (1)"
        )
        XCTAssertEqual(todo.succeed("pri", "1", "E"), "Edited 1: Buy milk (priority medium)\n")
        XCTAssertEqual(todo.succeed("depri", "1"), "Edited 1: Buy milk\n")
        XCTAssertEqual(todo.succeed("append", "1", "for", "Mom"), "Edited 1: Buy milk for Mom\n")
        XCTAssertEqual(todo.succeed("prepend", "1", "Urgent:"), "Edited 1: Urgent: Buy milk for Mom\n")
    }

    func test_annotate_addsADatedNote_thatTaskwarriorAndICalendarCarry() throws {
        todo.succeed("add", "Call Mom")
        XCTAssertEqual(todo.succeed("annotate", "1", "Called,", "no", "answer"), "Annotated 1: Call Mom\n")
        XCTAssertTrue(todo.succeed("show", "1").contains("Annotations: 11/22/26 10:30  Called, no answer\n"))
        XCTAssertTrue(
            todo.succeed("export", "--format", "taskwarrior").contains(
                #""annotations":[{"entry":"20261122T153000Z","description":"Called, no answer"}]"#))
        XCTAssertTrue(
            todo.succeed("export", "--format", "ical").contains(
                "COMMENT;X-TODO-TIME=20261122T153000Z:Called\\, no answer\r\n"))
        let task =
            #"[{"uuid":"5b1c3e9a-2f4d-4a7b-9c8e-1d2f3a4b5c6d","description":"File taxes","status":"pending","project":"home.admin","start":"20261120T090000Z","annotations":[{"entry":"20261101T120000Z","description":"forms in the drawer"}]}]"#
        XCTAssertEqual(
            todo.succeed("import", "-", input: task),
            "Added 2: File taxes (project:home.admin)\nImported 1 item from standard input (taskwarrior).\n")
        XCTAssertEqual(
            todo.succeed("list"), "1 [ ] Call Mom\n2 [>] File taxes project:home.admin\n",
            "the active task is in progress")
        XCTAssertTrue(todo.succeed("show", "2").contains("Annotations: 11/01/26 07:00  forms in the drawer\n"))
        XCTAssertEqual(
            todo.succeed("undo"), "Undid change 3: todo import -\n  Removed 2: File taxes (project:home.admin)\n")
        XCTAssertEqual(
            todo.run("annotate", "1").stderr.split(separator: "\n").first, "Error: missing '<text>', the note to add")
    }

    // MARK: next

    func test_next_ranksByUrgency_andLeavesOutWaitingAndDone() {
        todo.succeed("add", "Someday")
        todo.succeed("add", "Overdue", "due:-8d")
        todo.succeed("add", "High", "pri:H")
        todo.succeed("add", "Begun")
        todo.succeed("start", "4")
        todo.succeed("add", "Later", "scheduled:+3d")
        todo.succeed("add", "Done")
        todo.succeed("check", "6")
        todo.succeed("add", "Next one", "+next")
        XCTAssertOutcome(
            todo.run("next"),
            Outcome(
                status: 0,
                stdout: """
                    7 [ ]   Next one +next
                    2 [ ]   Overdue         11/14/26
                    3 [ ] H High
                    4 [>]   Begun
                    1 [ ]   Someday

                    """, stderr: ""))
        XCTAssertEqual(todo.succeed("next", "--limit", "2").split(separator: "\n").count, 2)
        XCTAssertEqual(todo.run("next", "--limit", "2").stderr, "… 3 more items: todo next --limit 5\n")
        XCTAssertTrue(
            todo.succeed("next", "--json", "--limit", "1").contains(
                #""title":"Next one","tags":["next"],"done":false,"#))
        XCTAssertTrue(todo.succeed("next", "--json", "--limit", "1").contains(#""urgency":15.8"#))
    }

    // MARK: Right answers

    func test_hints_goToStandardError_andCountWhatTheFilterLetsThrough() {
        todo.succeed("add", "Wait", "--start", "next month", "+x")
        todo.succeed("add", "Now")
        for number in 1...11 { todo.succeed("add", "D\(number)") }
        todo.succeed("check", "3-13")
        XCTAssertOutcome(todo.run("list", "--search", "nomatch"), Outcome(status: 0, stdout: "", stderr: ""))
        let all = todo.run("list")
        XCTAssertEqual(
            all.stderr,
            "… and 1 more done item: todo list --done\n… 1 item waits for a start date after today: todo list --all\n")
        XCTAssertFalse(all.stdout.contains("…"))
        XCTAssertEqual(todo.run("list", "+x").stderr, "… 1 item waits for a start date after today: todo list --all\n")
        XCTAssertEqual(
            todo.run("list", "--limit", "2"),
            Outcome(
                status: 0, stdout: "2 [ ] Now\n\nDone\n4 [x] D2\n",
                stderr: """
                    … 9 more items past --limit 2
                    … and 1 more done item: todo list --done
                    … 1 item waits for a start date after today: todo list --all

                    """))
        XCTAssertEqual(
            todo.succeed("list", "--json").split(separator: "\n").count, 13,
            "the same items as the text: the open one and ten done")
        XCTAssertEqual(todo.succeed("list", "--all", "--json").split(separator: "\n").count, 15, "--all: every item")
    }

    func test_uncheck_putsTheItemBackAtItsPlaceInTheAddedOrder() {
        for title in ["A", "B", "C"] { todo.succeed("add", title) }
        todo.succeed("check", "2")
        todo.succeed("uncheck", "2")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n2 [ ] B\n3 [ ] C\n")
        todo.succeed("undo")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n3 [ ] C\n\nDone\n2 [x] B\n")
    }

    func test_aMistake_printsTheErrorAndTheOneLineOfHelpItIsAbout() {
        XCTAssertOutcome(
            todo.run("add", "x", "--priority", "urgent"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid priority 'urgent' for '--priority'; use high, medium, low (or H, M, L), 1 (highest) to 9 (lowest), a todo.txt letter A to Z, or none
                      --priority <priority>  high, medium or low (H, M, L), 1 (highest) to 9 (lowest), or a todo.txt letter (A is 1, B 2, … I 9).
                      See 'todo add --help' for more information.

                    """))
        XCTAssertOutcome(
            todo.run("show"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: missing '<ref>'
                    Usage: todo show <ref> ... [options]
                      See 'todo show --help' for more information.

                    """))
    }

    func test_aMonthlyRepeatFromTheMonthsEnd_keepsIt_neverSkippingAMonth() throws {
        XCTAssertEqual(
            todo.succeed("add", "Rent", "--due", "eom", "--repeat", "monthly"),
            "Added 1: Rent (due Monday 11/30/26, repeats \(ItemRenderer.repeatText("FREQ=MONTHLY;BYMONTHDAY=-1")))\n")
        var dues: [String] = []
        for _ in 0..<3 {
            todo.succeed("check", "1")
            dues.append(String(todo.succeed("show", "1").split(separator: "\n")[1]))
        }
        XCTAssertEqual(
            dues,
            ["Due:         12/31/26 (Thursday)", "Due:         01/31/27 (Sunday)", "Due:         02/28/27 (Sunday)"])
        todo.succeed("add", "Invoice", "due:2027-01-30", "recur:monthly")
        var invoice: [String] = []
        for _ in 0..<2 {
            todo.succeed("check", "5")
            invoice.append(String(todo.succeed("show", "5").split(separator: "\n")[1]))
        }
        XCTAssertEqual(
            invoice, ["Due:         02/28/27 (Sunday)", "Due:         03/30/27 (Tuesday)"],
            "the 30th, or the month's last day")
        let ical = todo.succeed("export", "--format", "ical")
        XCTAssertTrue(
            ical.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=-1\r\n")
                && ical.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1\r\n"), ical)
        // RFC 5545 wants DTSTART with RRULE: a series without a start is anchored on its due.
        XCTAssertTrue(
            ical.contains(
                "DTSTART;VALUE=DATE:20270228\r\nDUE;VALUE=DATE:20270228\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1\r\n"), ical)
        XCTAssertEqual(
            todo.succeed("export", "--format", "taskwarrior").components(separatedBy: #""recur":"monthly""#).count, 3,
            "Taskwarrior's monthly keeps the month's end itself")
    }

    // MARK: Scripts

    func test_json_onImportUndoRedoClearAndSyncStatus() throws {
        guard
            case .object(let imported) = try JSONValue(
                parsing: Array(todo.succeed("import", "--json", "-", input: "(A) a +x\nb\n").utf8))
        else {
            return XCTFail("not an object")
        }
        XCTAssertEqual(imported["format"], .string("todotxt"))
        XCTAssertEqual(imported["dryRun"], .bool(false))
        guard case .array(let added)? = imported["added"], case .object(let first)? = added.first else {
            return XCTFail("\(imported)")
        }
        XCTAssertEqual(added.count, 2)
        XCTAssertEqual(first["title"], .string("a +x"), "the line read whole")
        XCTAssertEqual(first["tags"], .array([.string("x")]))
        guard case .array(let undone) = try JSONValue(parsing: Array(todo.succeed("undo", "--json").utf8)),
            case .object(let change)? = undone.first, case .array(let items)? = change["items"],
            case .object(let item)? = items.first
        else {
            return XCTFail("undo --json")
        }
        XCTAssertEqual(change["change"], .number("1"))
        XCTAssertEqual(item["after"], .null, "taking the import back removed the item")
        guard case .array(let redone) = try JSONValue(parsing: Array(todo.succeed("redo", "--json").utf8)),
            case .object(let again)? = redone.first, case .array(let back)? = again["items"],
            case .object(let restored)? = back.first,
            case .object(let after)? = restored["after"]
        else {
            return XCTFail("redo --json")
        }
        XCTAssertEqual(after["title"], .string("b"), "the last item the import added, put back first")
        XCTAssertEqual(todo.succeed("clear", "--yes", "--json"), "{\"removed\": 2}\n")
        XCTAssertEqual(todo.succeed("sync", "status", "--json"), "{\"configured\": false}\n")
        XCTAssertEqual(todo.run("sync", "status", "--dry-run").status, 64)
    }

    func test_helpEnvironment_namesEveryVariableTodoReads() {
        let help = todo.succeed("help", "environment")
        for name in Context.variableNames {
            XCTAssertTrue(help.contains("\n  \(name) "), "todo help environment names \(name)")
        }
        let file = todo.succeed("help", "file")
        for name in ["items.json.lock", "items.json.history", "items.json.sync", "items.json.sync.lock"] {
            XCTAssertTrue(file.contains(name), "todo help file names \(name)")
        }
    }

    func test_midnight_isSaidToBeTheStartOfTheDay() {
        XCTAssertEqual(
            todo.succeed("add", "Launch", "--due", "tomorrow midnight"),
            "Added 1: Launch (due Monday 11/23/26 00:00, as Monday begins)\n")
    }
}
