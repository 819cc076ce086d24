import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// `todo undo`, `todo redo` and `todo history` as a user types them: exact output, exit codes, and
/// a list that comes back byte for byte.
final class UndoCommandTests: HarnessTestCase {
    func test_undo_takesBackTheLastChange_andSaysWhat() {
        todo.succeed("add", "Call Mom", "--due", "tomorrow")
        todo.succeed("add", "Pay rent")
        let before = todo.fileContents
        todo.succeed("check", "1")

        XCTAssertOutcome(
            todo.run("undo"),
            Outcome(
                status: 0,
                stdout: """
                    Undid change 3: todo check 1
                      Unchecked 1: Call Mom (due Monday 11/23/26)

                    """, stderr: ""))
        XCTAssertEqual(todo.succeed("list"), "1 [ ] Call Mom  11/23/26\n2 [ ] Pay rent\n")
        XCTAssertEqual(todo.fileContents.map(Self.withoutRevision), before.map(Self.withoutRevision))
    }

    func test_undoN_takesBackSeveral_newestFirst_andRedoMakesThemAgain() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")
        todo.succeed("remove", "1")
        todo.succeed("edit", "2", "--title", "B2", "--description", "more")

        XCTAssertOutcome(
            todo.run("undo", "2"),
            Outcome(
                status: 0,
                stdout: """
                    Undid change 4: todo edit 2 --title B2 --description more
                      Edited 2: B [title, description]
                    Undid change 3: todo remove 1
                      Restored 1: A

                    """, stderr: ""))
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n2 [ ] B\n")
        XCTAssertOutcome(
            todo.run("redo"),
            Outcome(
                status: 0,
                stdout: """
                    Redid change 4: todo edit 2 --title B2 --description more; change 3: todo remove 1
                      Edited 2: B2 [title, description]
                      Removed 1: A

                    """, stderr: ""))
        XCTAssertEqual(todo.succeed("list"), "2 [ ] B2\n")
    }

    func test_undoN_afterUndoRedoCycles_isWhatNSingleUndosDo() throws {
        let single = try Harness()
        for harness in [todo!, single] {
            harness.succeed("add", "base")
            harness.succeed("add", "a")
            for command in ["undo", "redo", "undo", "redo"] { harness.succeed(command) }
        }

        XCTAssertOutcome(
            todo.run("undo", "2"),
            Outcome(
                status: 0,
                stdout: """
                    Undid change 6: todo add a
                      Removed 2: a
                    Undid change 1: todo add base
                      Removed 1: base

                    """, stderr: ""))
        single.succeed("undo")
        single.succeed("undo")

        XCTAssertEqual(todo.succeed("list"), "")
        XCTAssertEqual(single.succeed("list"), "")
        todo.succeed("redo")
        single.succeed("redo", "2")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] base\n2 [ ] a\n")
        XCTAssertEqual(single.succeed("list"), "1 [ ] base\n2 [ ] a\n")
    }

    func test_history_listsChangesNewestFirst_withWhatEachDid() {
        todo.succeed("add", "Call Mom")
        todo.succeed("add", "-", input: "One\nTwo\nThree\nFour\nFive\nSix\n")
        todo.succeed("check", "1")
        todo.succeed("undo")

        XCTAssertOutcome(
            todo.run("history"),
            Outcome(
                status: 0,
                stdout: """
                    4  11/22/26 10:30  todo undo  (undid 3)
                      Unchecked 1: Call Mom
                    3  11/22/26 10:30  todo check 1  [taken back by 4]
                      Checked 1: Call Mom
                    2  11/22/26 10:30  todo add -
                      Added 2: One
                      Added 3: Two
                      Added 4: Three
                      Added 5: Four
                      Added 6: Five
                      … and 1 more
                    1  11/22/26 10:30  todo add 'Call Mom'
                      Added 1: Call Mom

                    """, stderr: ""))
        XCTAssertEqual(
            todo.succeed("history", "--limit", "1"),
            "4  11/22/26 10:30  todo undo  (undid 3)\n  Unchecked 1: Call Mom\n")
    }

    func test_historyJSON_givesEachChangeWithItsItemsBeforeAndAfter() throws {
        todo.succeed("add", "A")
        todo.succeed("check", "1")
        todo.succeed("undo")

        let json = try JSONValue(parsing: Array(todo.succeed("history", "--json").utf8))
        guard case .array(let entries) = json, entries.count == 3, case .object(let newest) = entries[0],
            case .object(let checked) = entries[1], case .array(let items)? = checked["items"],
            case .object(let item) = items[0], case .object(let before)? = item["before"],
            case .object(let after)? = item["after"]
        else { return XCTFail("\(json)") }
        XCTAssertEqual(newest["kind"], .string("undo"))
        XCTAssertEqual(newest["reverts"], .array([.number("2")]))
        XCTAssertEqual(checked["command"], .array([.string("check"), .string("1")]))
        XCTAssertEqual(checked["revertedBy"], .number("3"))
        XCTAssertEqual(checked["time"], .number("1795361400"))
        XCTAssertEqual(before["done"], .bool(false))
        XCTAssertEqual(after["done"], .bool(true))
        XCTAssertEqual(after["number"], .number("1"))
    }

    func test_refusals_sayWhy_exitWith5_andChangeNothing() {
        XCTAssertOutcome(
            todo.run("undo"),
            Outcome(
                status: 5, stdout: "",
                stderr: "Error: nothing to undo: the history has no change in effect\n"))
        XCTAssertOutcome(
            todo.run("redo"),
            Outcome(
                status: 5, stdout: "",
                stderr: "Error: nothing to redo: no undo since the last change\n"))
        todo.succeed("add", "A")
        todo.succeed("edit", "1", "--title", "A2")
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("undo", "--change", "1"),
            Outcome(
                status: 5, stdout: "",
                stderr: """
                    Error: cannot take back change 1 (todo add A): change 2 (todo edit 1 --title A2) depends on it: it changed item 1 "A2" since; undo that first; nothing was changed

                    """))
        XCTAssertOutcome(
            todo.run("undo", "3"),
            Outcome(
                status: 5, stdout: "",
                stderr: """
                    Error: cannot undo 3 changes: only 2 can be undone; nothing was changed

                    """))
        XCTAssertOutcome(
            todo.run("undo", "--change", "7"),
            Outcome(
                status: 5, stdout: "",
                stderr: """
                    Error: there is no change 7 in the history (it keeps changes 1 to 2)

                    """))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_aNewChange_endsTheRedoChain() {
        todo.succeed("add", "r1")
        todo.succeed("remove", "1")
        todo.succeed("undo")
        todo.succeed("add", "other")
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("redo"),
            Outcome(status: 5, stdout: "", stderr: "Error: nothing to redo: no undo since the last change\n"))
        XCTAssertEqual(todo.fileContents, before)
        XCTAssertEqual(todo.succeed("list"), "1 [ ] r1\n2 [ ] other\n")
        // Undos after the new change can be redone, as far back as that change.
        todo.succeed("undo")
        XCTAssertOutcome(
            todo.run("redo", "2"),
            Outcome(
                status: 5, stdout: "",
                stderr: """
                    Error: cannot redo 2 changes: only 1 can be redone; nothing was changed

                    """))
        XCTAssertOutcome(
            todo.run("redo"),
            Outcome(status: 0, stdout: "Redid change 4: todo add other\n  Added 2: other\n", stderr: ""))
    }

    func test_undoAndRedoOfARedo_sayWhatTheyDo_notTodoRedo() {
        todo.succeed("add", "a")
        todo.succeed("undo")
        XCTAssertEqual(todo.succeed("redo"), "Redid change 1: todo add a\n  Added 1: a\n")
        XCTAssertEqual(todo.succeed("undo"), "Undid change 3: todo add a\n  Removed 1: a\n")
        XCTAssertEqual(todo.succeed("redo"), "Redid change 3: todo add a\n  Added 1: a\n")
        XCTAssertEqual(todo.succeed("undo", "--change", "5"), "Undid change 5: todo add a\n  Removed 1: a\n")
    }

    func test_badArguments_areUsageErrors() {
        for arguments in [
            ["undo", "0"], ["undo", "two"], ["undo", "1", "2"], ["undo", "--change", "x"],
            ["undo", "2", "--change", "1"],
            ["redo", "-1"], ["history", "--limit", "-1"], ["history", "extra"]
        ] {
            XCTAssertEqual(todo.run(arguments, input: []).status, 64, "\(arguments)")
        }
        XCTAssertEqual(
            todo.run("undo", "two").stderr,
            """
            Error: invalid value 'two' for '<n>'; use a number of changes, as 2
            Usage: todo undo [<n>] [options]
              See 'todo undo --help' for more information.

            """)
    }

    /// The data file with its revision left out: undo makes a new revision of the same list.
    private static func withoutRevision(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"revision\"") }.joined(
            separator: "\n")
    }
}
