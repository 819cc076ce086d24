import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// The verbs people bring from Taskwarrior and todo.sh, shortened command names, `todo --open`,
/// and ranges and lists of refs, run against a real file with exact output and exit codes.
final class FamiliarVerbsTests: HarnessTestCase {
    private func addFive() {
        for title in ["One", "Two", "Three", "Four", "Five"] { todo.succeed("add", title) }
    }

    func test_neighboursVerbs_runTheirCommands() {
        addFive()
        XCTAssertOutcome(todo.run("done", "1"), Outcome(status: 0, stdout: "Checked 1: One\n", stderr: ""))
        XCTAssertOutcome(todo.run("do", "2"), Outcome(status: 0, stdout: "Checked 2: Two\n", stderr: ""))
        XCTAssertOutcome(todo.run("rm", "3"), Outcome(status: 0, stdout: "Removed 3: Three\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("mod", "4", "--title", "Four!"), Outcome(status: 0, stdout: "Edited 4: Four!\n", stderr: ""))
        XCTAssertEqual(todo.run("info", "4").stdout, todo.run("show", "4").stdout)
        XCTAssertOutcome(todo.run("ls", "--open"), Outcome(status: 0, stdout: "4 [ ] Four!\n5 [ ] Five\n", stderr: ""))
        XCTAssertEqual(todo.run("hist", "--limit", "1").stdout, todo.run("history", "--limit", "1").stdout)
    }

    func test_theList_showsTheTenDoneItemsCheckedLast_thenHowManyMore() {
        for number in 1...13 { todo.succeed("add", "D\(number)") }
        todo.succeed("add", "Still open")
        todo.succeed("check", "13")
        todo.succeed("check", "1-12")
        XCTAssertOutcome(
            todo.run("list"),
            Outcome(
                status: 0,
                stdout: """
                    14 [ ] Still open

                    Done
                     3 [x] D3
                     4 [x] D4
                     5 [x] D5
                     6 [x] D6
                     7 [x] D7
                     8 [x] D8
                     9 [x] D9
                    10 [x] D10
                    11 [x] D11
                    12 [x] D12

                    """, stderr: "… and 3 more done items: todo list --done\n"))
        XCTAssertEqual(
            todo.run("list", "--done").stdout.split(separator: "\n").count, 13, "--done shows every done item")
        XCTAssertEqual(
            todo.run("list", "--json").stdout.split(separator: "\n").count, 13, "--json shows the same items")
        XCTAssertEqual(
            todo.run("list", "--all", "--json").stdout.split(separator: "\n").count, 16, "--all --json shows every item"
        )
        XCTAssertEqual(
            todo.run("list", "--search", "D1").stdout,
            """
            Done
            13 [x] D13
             1 [x] D1
            10 [x] D10
            11 [x] D11
            12 [x] D12

            """, "fewer than ten match: all of them, in check order")
    }

    func test_aCommandThatChangesNothing_onAListThatDoesNotExist_leavesNoFileBehind() throws {
        let cases: [([String], Int32, String)] = [
            (["check", "1"], 2, "Error: no item matches \"1\"\n"),
            (["uncheck", "1"], 2, "Error: no item matches \"1\"\n"),
            (["remove", "1-2"], 2, "Error: no item matches \"1\"\n"),
            (["edit", "1", "--title", "x"], 2, "Error: no item matches \"1\"\n"),
            (["undo"], 5, "Error: nothing to undo: the history has no change in effect\n"),
            (["redo"], 5, "Error: nothing to redo: no undo since the last change\n"),
            (["clear", "--yes"], 0, "")
        ]
        for (arguments, status, error) in cases {
            let outcome = todo.run(["--file", "typo/typo.json"] + arguments, input: [])
            XCTAssertEqual(outcome.status, status, "\(arguments): \(outcome)")
            XCTAssertEqual(outcome.stderr, error, "\(arguments)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: todo.directory.path), [], "\(arguments)")
        }
        todo.succeed("--file", "typo/typo.json", "add", "Now it exists")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: todo.directory.appendingPathComponent("typo").path)
                .sorted(),
            ["typo.json", "typo.json.history", "typo.json.lock"])
    }

    func test_checkJSON_saysWhetherEachItemChanged() {
        addFive()
        todo.succeed("check", "2")
        let output = todo.run("check", "1,2", "--json").stdout
        let lines = output.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, output)
        XCTAssertTrue(
            lines[1].hasPrefix(#"  {"id":"#)
                && lines[1].hasSuffix(
                    #""title":"One","done":true,"createdAt":1795361400,"completedAt":1795361400,"modifiedAt":1795361400,"changed":true},"#
                ), output)
        XCTAssertTrue(
            lines[2].hasSuffix(
                #""title":"Two","done":true,"createdAt":1795361400,"completedAt":1795361400,"modifiedAt":1795361400,"changed":false}"#
            ), output)
        XCTAssertTrue(
            todo.run("uncheck", "3", "--json").stdout.contains(
                #""done":false,"createdAt":1795361400,"modifiedAt":1795361400,"changed":false}"#))
        XCTAssertTrue(todo.run("remove", "3", "--json").stdout.contains(#""changed":true}"#))
    }

    func test_aNewPlaceName_saysWhichAddressAndCoordinateWentWithTheOldPlace() {
        todo.succeed(
            "add", "Buy milk", "--location", "Home", "--address", "12 Orchard Road", "--coordinate", "52.5,13.4")
        XCTAssertOutcome(
            todo.run("edit", "1", "--location", "Aldi Süd"),
            Outcome(
                status: 0,
                stdout: """
                    Edited 1: Buy milk (at Aldi Süd)
                      Removed with the old place: address "12 Orchard Road" and coordinate 52.5, 13.4; give --address or --coordinate with --location to keep them

                    """, stderr: ""))
        XCTAssertOutcome(
            todo.run("edit", "1", "--location", "Lidl", "--address", "Frankfurter Allee 1"),
            Outcome(status: 0, stdout: "Edited 1: Buy milk (at Lidl)\n", stderr: ""))
        todo.succeed("undo", "2")
        XCTAssertEqual(
            todo.succeed("show", "1").split(separator: "\n")[7...9].joined(separator: "\n"),
            """
            Location:    Home
            Address:     12 Orchard Road
            Coordinate:  52.5, 13.4
            """)
    }

    func test_export_takesOpenAndDone_asListDoes() {
        addFive()
        todo.succeed("check", "2,4")
        let open = todo.run("export", "--open", "--format", "todotxt").stdout,
            done = todo.run("export", "--done", "--format", "todotxt").stdout
        XCTAssertEqual(open.split(separator: "\n").map { $0.split(separator: " ")[1] }, ["One", "Three", "Five"])
        XCTAssertEqual(done.split(separator: "\n").map { $0.split(separator: " ")[3] }, ["Two", "Four"])
        XCTAssertEqual(todo.run("export", "--open", "--done").status, 64)
    }

    func test_taskwarriorImport_countsTasksFromOne_asTodoTxtCountsLines() {
        let tasks = #"""
            [{"description":"Pay rent","status":"pending","uuid":"a7c3e1d2-5b4f-4e6a-9c8d-1f2e3d4c5b6a"},
            {"description":"Old thing","status":"deleted","uuid":"b7c3e1d2-5b4f-4e6a-9c8d-1f2e3d4c5b6a"}]
            """#
        XCTAssertOutcome(
            todo.run("import", "-", input: tasks),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Pay rent
                    Skipped task 2 "Old thing": deleted in Taskwarrior
                    Imported 1 item from standard input (taskwarrior); skipped 1.

                    """, stderr: ""))
        let before = todo.fileContents
        let source = #"[{"description":"a","status":"pending"},{"description":7,"status":"pending"}]"#
        XCTAssertOutcome(
            todo.run("import", "--strict", "-", input: source),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import standard input: task 2: its description is not text; skipped (--strict refuses any problem); nothing was imported

                    """))
        XCTAssertEqual(todo.fileContents, before)
        XCTAssertOutcome(
            todo.run("import", "-", input: source),
            Outcome(
                status: 0,
                stdout: """
                    Added 2: a
                    Skipped task 2: its description is not text
                    Imported 1 item from standard input (taskwarrior); skipped 1.

                    """, stderr: ""))
    }

    func test_anAmbiguousStart_namesEveryCommandItCouldBe_andChangesNothing() {
        addFive()
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("un", "1"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: 'un' could be 'uncheck' or 'undo'; type more of it
                    Usage: todo [--file <path>] [--color <when>] <command> [<arguments>]
                      See 'todo --help' for more information.

                    """))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_aWordFarFromACommandThatChangesTheList_isNotSuggestedIt() {
        XCTAssertEqual(todo.run("cheque", "1").stderr.split(separator: "\n").first, "Error: unknown command 'cheque'")
        XCTAssertEqual(
            todo.run("lits").stderr.split(separator: "\n").first, "Error: unknown command 'lits'. Did you mean 'list'?")
        XCTAssertEqual(
            todo.run("chek", "1").stderr.split(separator: "\n").first,
            "Error: unknown command 'chek'. Did you mean 'check'?")
    }

    func test_listOptionsWithoutACommand_listTheItems() {
        addFive()
        todo.succeed("check", "1")
        XCTAssertOutcome(
            todo.run("--open", "--search", "f"), Outcome(status: 0, stdout: "4 [ ] Four\n5 [ ] Five\n", stderr: ""))
        XCTAssertEqual(todo.run("--json").stdout, todo.run("list", "--json").stdout)
    }

    func test_rangesAndLists_changeEveryItemOrNone() {
        addFive()
        XCTAssertOutcome(
            todo.run("check", "1-3"),
            Outcome(status: 0, stdout: "Checked 1: One\nChecked 2: Two\nChecked 3: Three\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("remove", "4,5"), Outcome(status: 0, stdout: "Removed 4: Four\nRemoved 5: Five\n", stderr: ""))
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("uncheck", "1-4"), Outcome(status: 2, stdout: "", stderr: "Error: no item matches \"4\"\n"))
        XCTAssertEqual(todo.fileContents, before, "one missing item changes none")
    }

    func test_show_takesSeveralRefs() throws {
        todo.succeed("add", "One")
        todo.succeed("add", "Two")
        let one = todo.run("show", "1").stdout, two = todo.run("show", "2").stdout
        XCTAssertOutcome(todo.run("show", "1,2"), Outcome(status: 0, stdout: one + "\n" + two, stderr: ""))
        let json = try JSONValue(parsing: Array(todo.run("show", "1", "2", "--json").stdout.utf8))
        guard case .array(let items) = json else { return XCTFail("expected an array") }
        XCTAssertEqual(
            items.map { item -> JSONValue? in
                guard case .object(let object) = item else { return nil }
                return object["title"]
            }, [.string("One"), .string("Two")])
    }

    /// Issue 22, "edits that say what they did": an edit that changes nothing says so, exits 0,
    /// and records no change (the next undo takes back the one before).
    func test_anEditThatChangesNothing_saysSo_andRecordsNothing() {
        todo.succeed("add", "Call Mom", "--location", "Home", "--address", "Main St 1")
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("edit", "1", "--title", "Call Mom", "--location", "Home", "--address", "Main St 1"),
            Outcome(status: 0, stdout: "Unchanged 1: Call Mom (at Home): it already has these values\n", stderr: ""))
        XCTAssertEqual(todo.fileContents, before)
        XCTAssertEqual(
            todo.run("history", "--json").stdout.components(separatedBy: "\"command\"").count - 1, 1, "only the add")
        XCTAssertOutcome(
            todo.run("edit", "1", "--address", "Main St 2"),
            Outcome(status: 0, stdout: "Edited 1: Call Mom (at Home)\n", stderr: ""))
    }

    func test_sortingByDueInReverse_keepsUndatedItemsLast() {
        todo.succeed("add", "Undated")
        todo.succeed("add", "Soon", "--due", "11/23/26")
        todo.succeed("add", "Later", "--due", "11/30/26")
        XCTAssertEqual(
            todo.run("list", "--sort", "due", "--reverse").stdout,
            "3 [ ] Later    11/30/26\n2 [ ] Soon     11/23/26\n1 [ ] Undated\n")
    }

    /// `add -`: a line that repeats an earlier one says so; other words beside `-` are refused;
    /// a byte-order mark is not part of the first title.
    func test_addFromStandardInput_saysWhichLineRepeatsWhich() {
        XCTAssertOutcome(
            todo.run("add", "-", input: "alpha\nbeta\nalpha\n"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: line 3 of standard input repeats line 1 ("alpha"); nothing was added

                    """))
        XCTAssertNil(todo.fileContents)
        let outcome = todo.run("add", "-", "extra", input: "x\n")
        XCTAssertEqual(outcome.status, 64)
        XCTAssertTrue(
            outcome.stderr.hasPrefix("Error: '-' reads the titles from standard input; give no other words with it\n"),
            outcome.stderr)
        XCTAssertNil(todo.fileContents)
        XCTAssertOutcome(
            todo.run("add", "-", input: "\u{FEFF}First\nSecond\n"),
            Outcome(status: 0, stdout: "Added 1: First\nAdded 2: Second\n", stderr: ""))
        XCTAssertEqual(todo.run("list", "--search", "\u{FEFF}").stdout, "")
    }

    /// An empty value is no value: `--description ""` stores none, and on `edit` removes it.
    func test_anEmptyDescription_isNone() throws {
        todo.succeed("add", "Call Mom", "--description", "")
        XCTAssertNil(try JSONFileStore(fileURL: todo.fileURL).load().item(at: 0).itemDescription)
        todo.succeed("edit", "1", "--description", "Sunday")
        XCTAssertOutcome(
            todo.run("edit", "1", "--description", " "), Outcome(status: 0, stdout: "Edited 1: Call Mom\n", stderr: ""))
        XCTAssertNil(try JSONFileStore(fileURL: todo.fileURL).load().item(at: 0).itemDescription)
    }
}
