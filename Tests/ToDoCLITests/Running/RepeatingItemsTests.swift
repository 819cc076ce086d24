import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// Repeating items and whole-day versus timed dues, from the command line to the file and back,
/// with exact output and exit codes. The harness's clock is Sunday 22 November 2026, 10:30 in New
/// York.
final class RepeatingItemsTests: HarnessTestCase {
    func test_checkingARepeatingItem_recordsTheOccurrence_andMovesTheDue_undoTakesBothBack() {
        XCTAssertEqual(
            todo.succeed("add", "Water the plants", "--due", "2026-11-13", "--repeat", "weekly"),
            "Added 1: Water the plants (due Friday 11/13/26, repeats every week)\n")
        XCTAssertEqual(
            todo.succeed("add", "Standup", "--due", "tomorrow 9:30", "--repeat", "weekdays"),
            "Added 2: Standup (due Monday 11/23/26 09:30, repeats every weekday)\n")
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Water the plants  11/13/26 ↻
            2 [ ] Standup           11/23/26 09:30 ↻

            """)

        XCTAssertOutcome(
            todo.run("check", "1"),
            Outcome(
                status: 0,
                stdout: """
                    Checked 1: Water the plants (due Friday 11/13/26, repeats every week); next due Friday 11/27/26, this time kept as done item 3

                    """, stderr: ""))
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Water the plants  11/27/26 ↻
            2 [ ] Standup           11/23/26 09:30 ↻

            Done
            3 [x] Water the plants  11/13/26

            """, "a fortnight overdue, it moves to the coming Friday, not one week on")
        XCTAssertEqual(
            todo.succeed("history", "--limit", "1"),
            """
            3  11/22/26 10:30  todo check 1
              Added 3: Water the plants (due Friday 11/13/26)
              Edited 1: Water the plants (due Friday 11/27/26, repeats every week) [due date]

            """)
        XCTAssertEqual(
            todo.succeed("undo"),
            """
            Undid change 3: todo check 1
              Removed 3: Water the plants (due Friday 11/13/26)
              Edited 1: Water the plants (due Friday 11/13/26, repeats every week) [due date]

            """)
        XCTAssertEqual(
            todo.succeed("list", "--repeating"),
            """
            1 [ ] Water the plants  11/13/26 ↻
            2 [ ] Standup           11/23/26 09:30 ↻

            """)
        XCTAssertEqual(
            todo.succeed("check", "2"),
            "Checked 2: Standup (due Monday 11/23/26 09:30, repeats every weekday); next due Tuesday 11/24/26 09:30, this time kept as done item 4\n",
            "checked ahead of its day: the occurrence after it")
    }

    func test_checkJSON_showsTheMovedItem_withTheDoneOccurrence() throws {
        todo.succeed("add", "Pay rent", "--due", "2026-11-01", "--repeat", "FREQ=MONTHLY;BYMONTHDAY=1;COUNT=2")
        let json = try JSONValue(parsing: Array(todo.succeed("check", "1", "--json").utf8))
        guard case .array(let items) = json, case .object(let series) = items[0],
            case .object(let record)? = series["checkedOccurrence"]
        else {
            return XCTFail("\(json)")
        }
        XCTAssertEqual(series["number"], .number(1))
        XCTAssertEqual(series["repeat"], .string("FREQ=MONTHLY;BYMONTHDAY=1;COUNT=1"), "one occurrence left")
        XCTAssertEqual(series["dueDate"], .string("2026-12-01"), "a whole day, moved a month")
        XCTAssertEqual(series["changed"], .bool(true))
        XCTAssertEqual(series["done"], .bool(false))
        XCTAssertEqual(record["number"], .number(2))
        XCTAssertEqual(record["done"], .bool(true))
        XCTAssertNil(record["repeat"])
        XCTAssertEqual(
            todo.succeed("show", "1").split(separator: "\n")[1...2].joined(separator: "\n"),
            """
            Due:         12/01/26 (Tuesday)
            Repeats:     FREQ=MONTHLY;BYMONTHDAY=1;COUNT=1
            """)

        XCTAssertEqual(
            todo.succeed("check", "1"),
            "Checked 1: Pay rent (due Tuesday 12/01/26, repeats FREQ=MONTHLY;BYMONTHDAY=1;COUNT=1); its last time, so it is done\n"
        )
        XCTAssertEqual(
            todo.succeed("list", "--done"),
            """
            2 [x] Pay rent  11/01/26
            1 [x] Pay rent  12/01/26 ↻

            """)
        XCTAssertEqual(
            todo.succeed("uncheck", "2"), "Unchecked 2: Pay rent (due Sunday 11/01/26)\n",
            "a done occurrence comes back as an item of its own")
    }

    func test_editSetsAndEndsARepeat_andTheRulesAreUsageErrors_thatChangeNothing() {
        todo.succeed("add", "Water the plants", "--due", "2026-11-27")
        XCTAssertEqual(
            todo.succeed("edit", "1", "--repeat", "every 2 weeks"),
            "Edited 1: Water the plants (due Friday 11/27/26, repeats every 2 weeks)\n")
        XCTAssertEqual(
            todo.succeed("history", "--limit", "1").split(separator: "\n")[1],
            "  Edited 1: Water the plants (due Friday 11/27/26, repeats every 2 weeks) [repeat]")
        let before = todo.fileContents

        let usage = { (command: String) in
            "Usage: todo \(command) <\(command == "add" ? "title> ..." : "ref> ... [<word> ...]") [options]\n  See 'todo \(command) --help' for more information.\n"
        }
        XCTAssertOutcome(
            todo.run("edit", "1", "--no-due"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: a repeating item needs a due date to repeat from: 1 "Water the plants"; give --due, or --no-repeat

                    """))
        XCTAssertOutcome(
            todo.run("add", "Stretch", "--repeat", "daily"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: a repeating item needs a due date to repeat from; give --due too

                    """))
        XCTAssertOutcome(
            todo.run("edit", "1", "--repeat", "sometimes"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid repeat 'sometimes': use \(RepeatRule.typedForms)
                    \(usage("edit"))
                    """))
        XCTAssertOutcome(
            todo.run("edit", "1", "--repeat", "FREQ=WEEKLY;BYDAY=2MO"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid repeat rule 'FREQ=WEEKLY;BYDAY=2MO': a numbered weekday (2MO) needs FREQ=MONTHLY or YEARLY
                    \(usage("edit"))
                    """))
        XCTAssertOutcome(
            todo.run("edit", "1", "--repeat", "daily", "--no-repeat"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: '--repeat' and '--no-repeat' cannot be used together
                      --repeat <rule>  \(CommonOptions.repeatRule.help)
                      See 'todo edit --help' for more information.

                    """))
        XCTAssertEqual(todo.fileContents, before)

        XCTAssertEqual(
            todo.succeed("edit", "1", "--repeat", "FREQ=DAILY;BYHOUR=9"),
            "Edited 1: Water the plants (due Friday 11/27/26, repeats FREQ=DAILY;BYHOUR=9)\n")
        let kept = todo.fileContents
        XCTAssertOutcome(
            todo.run("check", "1"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: todo cannot work out when 1 "Water the plants" is next due from its repeat rule FREQ=DAILY;BYHOUR=9 (todo follows FREQ=DAILY, WEEKLY, MONTHLY and YEARLY with INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS and WKST); change it with edit 1 --repeat, or end it with edit 1 --no-repeat

                    """))
        XCTAssertEqual(todo.fileContents, kept)
        XCTAssertEqual(todo.succeed("edit", "1", "--no-repeat"), "Edited 1: Water the plants (due Friday 11/27/26)\n")
        XCTAssertEqual(todo.succeed("check", "1"), "Checked 1: Water the plants (due Friday 11/27/26)\n")
    }

    func test_aWholeDay_andATimeAtMidnight_areTwoThings_everywhere() throws {
        XCTAssertEqual(
            todo.succeed("add", "Tax return", "--due", "2030-01-10"), "Added 1: Tax return (due Thursday 01/10/30)\n")
        XCTAssertEqual(
            todo.succeed("add", "Launch", "--due", "2030-01-10 00:00"),
            "Added 2: Launch (due Thursday 01/10/30 00:00, as Thursday begins)\n")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] Tax return  01/10/30\n2 [ ] Launch      01/10/30 00:00\n")
        XCTAssertEqual(todo.succeed("show", "2").split(separator: "\n")[1], "Due:         01/10/30 00:00 (Thursday)")
        // The whole day means "by the end of the day": after the day's midnight.
        XCTAssertEqual(
            todo.succeed("agenda", "--days", "3"),
            "Later\n2 [ ] Launch      01/10/30 00:00\n1 [ ] Tax return  01/10/30\n")
        let file = String(decoding: try XCTUnwrap(todo.fileContents), as: UTF8.self)
        XCTAssertTrue(file.contains(#""title":"Tax return","dueDate":"2030-01-10","#), file)
        XCTAssertTrue(file.contains(#""title":"Launch","timestamp":1894251600,"#), file)

        let ical = todo.succeed("export", "--format", "ical")
        XCTAssertTrue(ical.contains("DUE;VALUE=DATE:20300110\r\n"), ical)
        XCTAssertTrue(ical.contains("DUE:20300110T050000Z\r\n"), ical)
        let todotxt = todo.succeed("export", "--format", "todotxt")
        XCTAssertTrue(todotxt.contains("Tax return due:2030-01-10 id:"), todotxt)
        XCTAssertTrue(todotxt.contains("Launch due:2030-01-10T00:00 id:"), todotxt)

        // Read back into a new list, each stays what it was.
        for (format, text) in [("ics", ical), ("txt", todotxt)] {
            let source = todo.directory.appendingPathComponent("export.\(format)")
            try text.write(to: source, atomically: true, encoding: .utf8)
            todo.environment["TODO_FILE"] = todo.directory.appendingPathComponent("\(format).json").path
            todo.succeed("import", source.path)
            XCTAssertEqual(
                todo.succeed("list"), "1 [ ] Tax return  01/10/30\n2 [ ] Launch      01/10/30 00:00\n", format)
        }
    }

    func test_aFileWrittenBeforeAllDay_readsLocalMidnightAsAWholeDay() throws {
        let id = UUID().uuidString
        try Data(
            """
            {"version":1,"items":[{"id":"\(id)","number":1,"title":"Old","timestamp":1894251600,"done":false},
            {"id":"\(UUID().uuidString)","number":2,"title":"Timed","timestamp":1894313400,"done":false}]}
            """.utf8
        ).write(to: todo.fileURL)
        XCTAssertEqual(todo.succeed("list"), "1 [ ] Old    01/10/30\n2 [ ] Timed  01/10/30 17:10\n")
        todo.environment["TZ"] = "Europe/Berlin"
        XCTAssertEqual(
            todo.succeed("list"), "1 [ ] Old    01/10/30 06:00\n2 [ ] Timed  01/10/30 23:10\n",
            "unsaid, a time that is not a local midnight is a time")
    }
}
