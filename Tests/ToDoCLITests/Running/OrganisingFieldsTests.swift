import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// Priorities, tags and the modified time, from the command line to the file and back, with exact
/// output and exit codes.
final class OrganisingFieldsTests: HarnessTestCase {
    private func addThree() {
        XCTAssertEqual(
            todo.succeed(
                "add", "Call Mom", "--priority", "high", "--tag", "family", "--tag", "+phone", "--due", "tomorrow"),
            "Added 1: Call Mom (due Monday 11/23/26, priority high, +family +phone)\n")
        XCTAssertEqual(
            todo.succeed("add", "Buy milk", "--tag", "errand", "--tag", "ERRAND"), "Added 2: Buy milk (+errand)\n",
            "a tag repeated in another case is kept once")
        XCTAssertEqual(todo.succeed("add", "Read", "--priority", "7"), "Added 3: Read (priority low)\n")
    }

    func test_theList_showsPriorityLettersAndTags_andFiltersAndSortsByThem() {
        addThree()
        // 7 is a priority no level names: the column shows todo.txt's letters (issue 52).
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] A Call Mom +family +phone  11/23/26
            2 [ ]   Buy milk +errand
            3 [ ] G Read

            """)
        XCTAssertEqual(
            todo.succeed("list", "--priority", "high"), "1 [ ] A Call Mom +family +phone  11/23/26\n",
            "a filtered view says the list's letters")
        XCTAssertEqual(
            todo.succeed("list", "--tag", "Errand"), "2 [ ] Buy milk +errand\n", "no priority shown: no column")
        XCTAssertEqual(
            todo.succeed("list", "--tag", "family", "--tag", "phone"), "1 [ ] A Call Mom +family +phone  11/23/26\n")
        XCTAssertEqual(todo.succeed("list", "--tag", "family", "--tag", "errand"), "", "every tag must match")
        XCTAssertEqual(todo.succeed("list", "--priority", "low"), "3 [ ] G Read\n")
        XCTAssertEqual(
            todo.succeed("list", "--priority", "1"), "1 [ ] A Call Mom +family +phone  11/23/26\n",
            "a digit means its level")
        XCTAssertEqual(
            todo.succeed("list", "--sort", "priority"),
            """
            1 [ ] A Call Mom +family +phone  11/23/26
            3 [ ] G Read
            2 [ ]   Buy milk +errand

            """, "high first, no priority last")
        XCTAssertEqual(
            todo.succeed("list", "--sort", "priority", "--reverse").split(separator: "\n").map { $0.prefix(1) },
            ["3", "1", "2"])
        XCTAssertEqual(todo.succeed("export", "--format", "todotxt", "--tag", "errand").split(separator: " ")[1], "Buy")
    }

    func test_edit_setsAndClearsPriority_addsAndRemovesTags_andSaysWhenNothingChanged() {
        addThree()
        XCTAssertOutcome(
            todo.run("edit", "2", "--priority", "M", "--untag", "ERRAND", "--tag", "shop", "--tag", "dairy"),
            Outcome(status: 0, stdout: "Edited 2: Buy milk (priority medium, +shop +dairy)\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("edit", "2", "--tag", "Shop"),
            Outcome(
                status: 0,
                stdout: """
                    Unchanged 2: Buy milk (priority medium, +shop +dairy): it already has these values

                    """, stderr: ""))
        XCTAssertOutcome(
            todo.run("edit", "2", "--no-tags", "--tag", "milk", "--no-priority"),
            Outcome(status: 0, stdout: "Edited 2: Buy milk (+milk)\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("edit", "1", "--priority", "none"),
            Outcome(status: 0, stdout: "Edited 1: Call Mom (due Monday 11/23/26, +family +phone)\n", stderr: ""))
        XCTAssertEqual(
            todo.succeed("history", "--limit", "1"),
            """
            6  11/22/26 10:30  todo edit 1 --priority none
              Edited 1: Call Mom (due Monday 11/23/26, +family +phone) [priority]

            """)
        XCTAssertEqual(
            todo.succeed("undo"),
            "Undid change 6: todo edit 1 --priority none\n  Edited 1: Call Mom (due Monday 11/23/26, priority high, +family +phone) [priority]\n"
        )
    }

    func test_badPrioritiesAndTags_areUsageErrors_andChangeNothing() {
        addThree()
        let before = todo.fileContents
        let more = "  See 'todo add --help' for more information.\n"
        XCTAssertOutcome(
            todo.run("add", "X", "--priority", "urgent"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid priority 'urgent' for '--priority'; use high, medium, low (or H, M, L), 1 (highest) to 9 (lowest), a todo.txt letter A to Z, or none
                      --priority <priority>  high, medium or low (H, M, L), 1 (highest) to 9 (lowest), or a todo.txt letter (A is 1, B 2, … I 9).

                    """ + more))
        let usage = "  --tag <tag>...  A tag, one word; repeat for more.\n" + more
        XCTAssertEqual(todo.run("add", "X", "--priority", "0").status, 64)
        XCTAssertEqual(todo.run("add", "X", "--priority", "10").status, 64)
        XCTAssertOutcome(
            todo.run("add", "X", "--tag", "two words"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid tag 'two words' for '--tag'; a tag is one word, without spaces

                    """ + usage))
        XCTAssertOutcome(
            todo.run("add", "X", "--tag", "+"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: the value of '--tag' is empty; a tag is one word, as home

                    """ + usage))
        XCTAssertEqual(todo.run("edit", "1", "--untag", "x", "--no-tags").status, 64)
        XCTAssertEqual(todo.run("edit", "1", "--priority", "high", "--no-priority").status, 64)
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_show_andJSON_carryTheFields_andEveryChangeStampsTheModifiedTime() throws {
        addThree()
        let show = todo.succeed("show", "1").split(separator: "\n")
        XCTAssertEqual(
            show.filter { $0.hasPrefix("Priority") || $0.hasPrefix("Tags") || $0.hasPrefix("Modified") },
            ["Priority:    high (1)", "Tags:        +family +phone", "Modified:    11/22/26 10:30"])
        XCTAssertTrue(
            todo.succeed("show", "1", "--json").contains(
                """
                  "priority": 1,
                  "tags": [
                    "family",
                    "phone"
                  ],
                """))
        todo.now = todo.now.addingTimeInterval(3600)
        todo.succeed("check", "3")
        todo.now = todo.now.addingTimeInterval(3600)
        todo.succeed("edit", "2", "--tag", "shop")
        let manager = try JSONFileStore(fileURL: todo.fileURL).load()
        XCTAssertEqual(manager.item(withNumber: 1)?.modifiedAt, 1_795_361_400, "added")
        XCTAssertEqual(manager.item(withNumber: 3)?.modifiedAt, 1_795_365_000, "checked")
        XCTAssertEqual(manager.item(withNumber: 2)?.modifiedAt, 1_795_368_600, "edited")
        todo.succeed("check", "3")
        XCTAssertEqual(
            try JSONFileStore(fileURL: todo.fileURL).load().item(withNumber: 3)?.modifiedAt, 1_795_365_000,
            "checking a done item changes nothing")
    }

    func test_datesAsPeopleSayThem_areEchoedInFull() {
        XCTAssertEqual(todo.succeed("add", "A", "--due", "in 3 days"), "Added 1: A (due Wednesday 11/25/26)\n")
        XCTAssertEqual(todo.succeed("add", "B", "--due", "fri 9am"), "Added 2: B (due Friday 11/27/26 09:00)\n")
        XCTAssertEqual(
            todo.succeed("add", "C", "--due", "next monday 5:30pm"), "Added 3: C (due Monday 11/23/26 17:30)\n")
        XCTAssertEqual(todo.succeed("add", "D", "--due", "eom"), "Added 4: D (due Monday 11/30/26)\n")
        XCTAssertEqual(todo.succeed("add", "E", "--due", "in 1 month"), "Added 5: E (due Tuesday 12/22/26)\n")
        // Before the end of the month holds its last day, as Taskwarrior reads `eom`.
        XCTAssertEqual(
            todo.succeed("list", "--due-after", "eod", "--due-before", "eom").split(separator: "\n").map {
                $0.prefix(1)
            }, ["1", "2", "3", "4"])
        let before = todo.fileContents
        let outcome = todo.run("add", "F", "--due", "in a while")
        XCTAssertEqual(outcome.status, 64)
        XCTAssertTrue(outcome.stderr.hasPrefix("Error: invalid date 'in a while'\nAccepted forms: "), outcome.stderr)
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_anItemThatStartsAfterToday_waits_andListAllShowsIt() throws {
        XCTAssertEqual(
            todo.succeed("add", "Renew passport", "--start", "in 2 weeks", "--due", "in 1 month"),
            "Added 1: Renew passport (due Tuesday 12/22/26, starts Sunday 12/06/26)\n")
        todo.succeed("add", "Today", "--start", "today")
        todo.succeed("add", "Plain")
        XCTAssertOutcome(
            todo.run("list"),
            Outcome(
                status: 0,
                stdout: """
                    2 [ ] Today
                    3 [ ] Plain

                    """, stderr: "… 1 item waits for a start date after today: todo list --all\n"))
        XCTAssertOutcome(
            todo.run("list", "--all"),
            Outcome(
                status: 0,
                stdout: """
                    1 [ ] Renew passport  12/22/26
                    2 [ ] Today
                    3 [ ] Plain

                    """, stderr: "… 1 of these waits for a start date after today\n"))
        XCTAssertEqual(
            todo.succeed("list", "--json").split(separator: "\n").count, 4, "--json gives the same items as the text")
        XCTAssertEqual(
            todo.succeed("list", "--all", "--json").split(separator: "\n").count, 5, "--all --json gives every item")
        XCTAssertTrue(todo.succeed("show", "1").contains("Starts:      12/06/26 (Sunday)\n"))
        // The day it starts, it is listed.
        todo.now = todo.now.addingTimeInterval(14 * 86_400)
        XCTAssertEqual(todo.succeed("list").split(separator: "\n").first, "1 [ ] Renew passport  12/22/26")
        XCTAssertEqual(todo.succeed("edit", "1", "--no-start"), "Edited 1: Renew passport (due Tuesday 12/22/26)\n")
    }

    func test_aStartAfterTheDue_isAllowed_withAWarning() {
        XCTAssertOutcome(
            todo.run("add", "Odd", "--due", "tomorrow", "--start", "in 3 days"),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Odd (due Monday 11/23/26, starts Wednesday 11/25/26)

                    """, stderr: "Warning: 1 starts Wednesday 11/25/26 but is due earlier, Monday 11/23/26\n"))
        let before = todo.fileContents
        XCTAssertEqual(todo.run("edit", "1", "--start", "someday").status, 64)
        XCTAssertEqual(todo.run("edit", "1", "--start", "today", "--no-start").status, 64)
        XCTAssertEqual(todo.fileContents, before)
    }

    /// Sunday 22 November 2026, 10:30 in New York.
    func test_agenda_groupsOpenItemsByDay_leavingEmptyDaysOut() throws {
        todo.succeed("add", "Pay rent", "--due", "11/20/26")
        todo.succeed("add", "Call Mom", "--due", "today 17:00")
        todo.succeed("add", "Dentist", "--due", "tomorrow 9am")
        todo.succeed("add", "Report", "--due", "in 3 days", "--priority", "high")
        todo.succeed("add", "Taxes", "--due", "in 2 months")
        todo.succeed("add", "Someday")
        todo.succeed("add", "Lunch", "--due", "today noon", "--tag", "food")
        todo.succeed("add", "Done already", "--due", "today")
        todo.succeed("check", "8")
        XCTAssertOutcome(
            todo.run("agenda"),
            Outcome(
                status: 0,
                stdout: """
                    Overdue
                    1 [ ]   Pay rent     11/20/26

                    Today
                    7 [ ]   Lunch +food  11/22/26 12:00
                    2 [ ]   Call Mom     11/22/26 17:00

                    Tomorrow
                    3 [ ]   Dentist      11/23/26 09:00

                    Wednesday 11/25/26
                    4 [ ] H Report       11/25/26

                    Later
                    5 [ ]   Taxes        01/22/27

                    No date
                    6 [ ]   Someday

                    """, stderr: ""))
        XCTAssertEqual(
            todo.succeed("agenda", "--days", "2").split(separator: "\n").filter {
                !$0.hasPrefix(" ") && !$0.contains("[ ]") && !$0.isEmpty
            },
            ["Overdue", "Today", "Tomorrow", "Later", "No date"])
        let json = try JSONValue(parsing: Array(todo.succeed("agenda", "--json").utf8))
        guard case .array(let groups) = json else { return XCTFail("\(json)") }
        XCTAssertEqual(
            groups.compactMap { group -> String? in
                guard case .object(let object) = group, case .string(let name)? = object["group"] else { return nil }
                let date: String = {
                    if case .string(let date)? = object["date"] { return " " + date }; return ""
                }()
                guard case .array(let items)? = object["items"] else { return nil }
                return "\(name)\(date): \(items.count)"
            },
            [
                "Overdue: 1", "Today 2026-11-22: 2", "Tomorrow 2026-11-23: 1", "Wednesday 11/25/26 2026-11-25: 1",
                "Later: 1", "No date: 1"
            ])
        XCTAssertEqual(todo.run("agenda", "--days", "0").status, 64)
        XCTAssertEqual(todo.run("agenda", "--days", "x").status, 64)
        XCTAssertEqual(todo.run("agenda", "status:completed").status, 64, "the agenda is of open items")
    }

    /// A subtask added after other items still stands under its parent, and the list keeps its
    /// order around it.
    func test_aSubtaskAddedLater_standsUnderItsParent() throws {
        todo.succeed("add", "Plan trip")
        todo.succeed("add", "Other")
        todo.succeed("add", "Book flight", "--parent", "1")
        todo.succeed("add", "Last")
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Plan trip
            3 [ ]   Book flight
            2 [ ] Other
            4 [ ] Last

            """)
    }

    func test_subtasks_standUnderTheirParent_andKeepItFromBeingCheckedOrRemovedAlone() throws {
        todo.succeed("add", "Plan trip", "--due", "in 2 weeks")
        todo.succeed("add", "Book flight", "--parent", "1")
        todo.succeed("add", "Pack", "--parent", "1")
        todo.succeed("add", "Buy socks", "--parent", "3", "--tag", "shop")
        todo.succeed("add", "Other")
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Plan trip            12/06/26
            2 [ ]   Book flight
            3 [ ]   Pack
            4 [ ]     Buy socks +shop
            5 [ ] Other

            """)
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("check", "1"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: 1 "Plan trip" has open subtasks: 2 "Book flight", 3 "Pack", 4 "Buy socks"; check or remove them first, or give them too: 1,2,3,4

                    """))
        XCTAssertEqual(todo.run("remove", "3").status, 3)
        XCTAssertOutcome(
            todo.run("edit", "1", "--parent", "4"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: 4 "Buy socks" is the item itself or one of its subtasks; an item cannot be its own subtask

                    """))
        XCTAssertEqual(todo.run("edit", "1", "--parent", "1").status, 64)
        XCTAssertEqual(todo.run("add", "Orphan", "--parent", "99").stderr, "Error: no item matches \"99\"\n")
        XCTAssertEqual(todo.fileContents, before)

        XCTAssertEqual(todo.succeed("check", "4"), "Checked 4: Buy socks (+shop)\n")
        XCTAssertEqual(
            todo.succeed("list", "--parent", "1"),
            """
            2 [ ] Book flight
            3 [ ] Pack

            Done
            4 [x] Buy socks +shop

            """, "a subtask whose parent is not shown stands at the top")
        XCTAssertEqual(
            todo.succeed("show", "1").split(separator: "\n").filter {
                $0.hasPrefix("Parent") || $0.hasPrefix("Subtasks") || $0.hasPrefix("  ")
            },
            ["Parent:      -", "Subtasks:    2 Book flight", "             3 Pack"])
        XCTAssertTrue(todo.succeed("show", "4").contains("Parent:      3 Pack\n"))
        XCTAssertEqual(todo.succeed("check", "1-3").split(separator: "\n").count, 3, "all given together")
        XCTAssertEqual(todo.succeed("edit", "4", "--no-parent"), "Edited 4: Buy socks (+shop)\n")
        XCTAssertTrue(todo.succeed("list", "--json").contains(#""parent":""#))
    }

    /// A quoted title is a todo.txt line, read as todo.sh reads it (issue 52): its priority
    /// letter, `+project` and `@context` are read; after `--` it is text.
    func test_aQuotedTitle_isReadAsTodoShReadsALine() {
        XCTAssertEqual(
            todo.succeed("add", "(A) Call Mom +family @phone"), "Added 1: Call Mom +family @phone (priority high)\n",
            "the text whole, its words tags as well, shown once")
        XCTAssertEqual(todo.succeed("list", "+family"), "1 [ ] H Call Mom +family @phone\n")
        XCTAssertEqual(
            todo.succeed("export", "--format", "todotxt").split(separator: " ").prefix(4).joined(separator: " "),
            "(A) 2026-11-22 Call Mom")
        XCTAssertEqual(todo.succeed("add", "(K) Sort photos"), "Added 2: Sort photos (priority low)\n")
        XCTAssertEqual(todo.succeed("add", "Call (A) Dad -home x:1"), "Added 3: Call (A) Dad -home x:1\n")
        XCTAssertEqual(todo.succeed("add", "--", "Plan trip +travel @home"), "Added 4: Plan trip +travel @home\n")
        XCTAssertEqual(todo.run("add", "(B) Pay rent", "pri:H").status, 64, "two priorities")
    }
}
