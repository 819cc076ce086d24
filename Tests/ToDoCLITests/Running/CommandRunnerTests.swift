import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// Each command run in-process against a real file, comparing standard output, standard error and
/// the exit code exactly. The clock is Sunday 22 November 2026, 10:30 in New York.
final class CommandRunnerTests: HarnessTestCase {
    // MARK: add

    func test_add_printsTheNumberAndWhatWasStored() {
        XCTAssertOutcome(
            todo.run("add", "Call Mom", "--due", "01/10/22"),
            Outcome(status: 0, stdout: "Added 1: Call Mom (due Monday 01/10/22)\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("add", "Buy", "milk", "--due", "tomorrow", "--location", "Shop"),
            Outcome(status: 0, stdout: "Added 2: Buy milk (due Monday 11/23/26, at Shop)\n", stderr: ""))
    }

    func test_add_storesEveryField() throws {
        todo.succeed(
            "add", "Call Mom", "--due", "2022-01-10 14:30", "--description", "About Sunday",
            "--location", "Home", "--address", "Main St 1", "--coordinate", "40.7128,-74.006")

        let item = try JSONFileStore(fileURL: todo.fileURL).load().item(at: 0)
        XCTAssertEqual(item.title, "Call Mom")
        XCTAssertEqual(item.timestamp, 1_641_843_000)
        XCTAssertEqual(item.itemDescription, "About Sunday")
        XCTAssertEqual(
            item.location, Location(name: "Home", coordinate: Coordinate(latitude: 40.7128, longitude: -74.006)))
        XCTAssertEqual(item.location?.address, "Main St 1")
        XCTAssertEqual(item.createdAt, 1_795_361_400)
    }

    func test_add_refusesAnOpenTwinWithExitCode3AndChangesNothing() {
        todo.succeed("add", "Call Mom")
        let before = todo.fileContents

        XCTAssertOutcome(
            todo.run("add", "Call Mom"),
            Outcome(
                status: 3, stdout: "",
                stderr: "Error: an open item with the same content already exists: 1 \"Call Mom\"\n"))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_add_acceptsTheTitleOfADoneItem() {
        todo.succeed("add", "Water the plants")
        todo.succeed("check", "1")

        XCTAssertEqual(todo.succeed("add", "Water the plants"), "Added 2: Water the plants\n")
    }

    func test_addDash_addsEveryNonBlankLineInOneTransaction() {
        XCTAssertOutcome(
            todo.run("add", "-", "--due", "+1w", input: "Buy milk\r\n\n   \n  Call Mom  \nPay rent"),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Buy milk (due Sunday 11/29/26)
                    Added 2: Call Mom (due Sunday 11/29/26)
                    Added 3: Pay rent (due Sunday 11/29/26)

                    """, stderr: ""))
    }

    func test_addDash_withARefusedLine_addsNothing() {
        todo.succeed("add", "Call Mom")
        let before = todo.fileContents

        XCTAssertOutcome(
            todo.run("add", "-", input: "Buy milk\nCall Mom\n"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: line 2 of standard input: an open item with the same content already exists: 1 "Call Mom"; nothing was added

                    """))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_addDash_refusesTheSameTitleTwice() {
        XCTAssertEqual(todo.run("add", "-", input: "A\nB\nA\n").status, 3)
        XCTAssertNil(todo.fileContents)
    }

    func test_addDash_withEmptyInput_addsNothingAndSaysSo() {
        XCTAssertOutcome(
            todo.run("add", "-", input: "\n \n"),
            Outcome(status: 0, stdout: "", stderr: "No titles on standard input; nothing was added.\n"))
    }

    func test_addDash_refusesInvalidUTF8() {
        let outcome = todo.run(["add", "-"], input: [0x41, 0x0A, 0xFF, 0x0A])

        XCTAssertEqual(outcome.status, 64)
        XCTAssertTrue(
            outcome.stderr.hasPrefix("Error: standard input is not valid UTF-8; nothing was added\nUsage: todo add"))
        XCTAssertNil(todo.fileContents)
    }

    func test_addDash_jsonIsAnArray_addTitleJSONIsAnObject() throws {
        let one = try JSONValue(parsing: Array(todo.succeed("add", "A", "--json").utf8))
        let many = try JSONValue(parsing: Array(todo.succeed("add", "-", "--json", input: "B\nC\n").utf8))

        guard case .object(let object) = one, case .array(let array) = many else { return XCTFail() }
        XCTAssertEqual(object["number"], .number(1))
        XCTAssertEqual(object["title"], .string("A"))
        XCTAssertEqual(array.count, 2)
    }

    // MARK: list

    func test_list_showsOpenItemsThenDoneItemsWithAlignedColumns() {
        todo.succeed("add", "Call Mom", "--due", "01/10/22")
        todo.succeed("add", "Buy milk", "--location", "Shop")
        todo.succeed("add", "Water the plants", "--due", "2026-11-24 18:00", "--location", "Home")
        for index in 4...10 { todo.succeed("add", "Item \(index)") }
        todo.succeed("check", "1", "5")

        XCTAssertOutcome(
            todo.run("list"),
            Outcome(
                status: 0,
                stdout: """
                     2 [ ] Buy milk                          @Shop
                     3 [ ] Water the plants  11/24/26 18:00  @Home
                     4 [ ] Item 4
                     6 [ ] Item 6
                     7 [ ] Item 7
                     8 [ ] Item 8
                     9 [ ] Item 9
                    10 [ ] Item 10

                    Done
                     1 [x] Call Mom          01/10/22
                     5 [x] Item 5

                    """, stderr: ""))
    }

    func test_list_sections() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")
        todo.succeed("check", "2")

        XCTAssertEqual(todo.succeed("list", "--open"), "1 [ ] A\n")
        XCTAssertEqual(todo.succeed("list", "--done"), "2 [x] B\n")
        XCTAssertEqual(todo.succeed(), "1 [ ] A\n\nDone\n2 [x] B\n")
    }

    func test_list_whenEmpty_printsNothingAndSucceeds() {
        XCTAssertOutcome(todo.run("list"), Outcome(status: 0, stdout: "", stderr: ""))
        XCTAssertOutcome(todo.run("list", "--json"), Outcome(status: 0, stdout: "[]\n", stderr: ""))
        XCTAssertNil(todo.fileContents, "reading never creates the file")
    }

    func test_list_onATerminal_hintsHowToAddWhenEmpty() {
        XCTAssertOutcome(
            todo.run("list", outputIsTerminal: true),
            Outcome(
                status: 0, stdout: "", stderr: "No items. Add one with: todo add \"Call Mom\" --due tomorrow\n"))
    }

    func test_list_json_isTheStoreSchemaWithNumbersInListOrder() throws {
        todo.succeed("add", "A", "--due", "01/10/22")
        todo.succeed("add", "B")
        todo.succeed("check", "1")

        let json = try JSONValue(parsing: Array(todo.succeed("list", "--json").utf8))

        guard case .array(let items) = json, case .object(let first) = items[0], case .object(let second) = items[1]
        else { return XCTFail() }
        XCTAssertEqual(first.keys, ["id", "number", "title", "done", "createdAt", "modifiedAt"])
        XCTAssertEqual(first["number"], .number(2))
        XCTAssertEqual(
            second.keys, ["id", "number", "title", "dueDate", "done", "createdAt", "completedAt", "modifiedAt"])
        XCTAssertEqual(second["dueDate"], .string("2022-01-10"))
        XCTAssertEqual(second["done"], .bool(true))
    }

    func test_list_colour_onlyWhenAskedOrOnATerminalWithoutNoColor() {
        todo.succeed("add", "A", "--due", "11/22/26")
        todo.succeed("add", "B", "--due", "11/20/26")
        todo.succeed("check", "2")
        let plain = "1 [ ] A  11/22/26\n\nDone\n2 [x] B  11/20/26\n"
        let coloured =
            "\u{1B}[1m1\u{1B}[0m [ ] A  \u{1B}[33m11/22/26\u{1B}[0m\n\n\u{1B}[1mDone\u{1B}[0m\n"
            + "\u{1B}[1m2\u{1B}[0m \u{1B}[32m[x]\u{1B}[0m \u{1B}[2mB\u{1B}[0m  11/20/26\n"

        XCTAssertEqual(todo.run("list").stdout, plain)
        XCTAssertEqual(todo.run("list", outputIsTerminal: true).stdout, coloured)
        XCTAssertEqual(todo.run("list", "--color", "always").stdout, coloured)
        XCTAssertEqual(todo.run("list", "--color=never", outputIsTerminal: true).stdout, plain)
        todo.environment["NO_COLOR"] = "1"
        XCTAssertEqual(todo.run("list", outputIsTerminal: true).stdout, plain)
        XCTAssertEqual(todo.run("list", "--color", "always").stdout, coloured)
    }

    func test_list_colour_marksOverdueItemsRed() {
        todo.succeed("add", "Late", "--due", "11/21/26")

        XCTAssertEqual(
            todo.run("list", "--color", "always").stdout,
            "\u{1B}[1m1\u{1B}[0m [ ] Late  \u{1B}[31m11/21/26\u{1B}[0m\n")
    }

    // MARK: show

    func test_show_printsEveryField() {
        todo.succeed(
            "add", "Call Mom", "--due", "01/10/22", "--description", "About Sunday\nand the trip",
            "--location", "Home", "--address", "Main St 1", "--coordinate", "40.7128,-74.006")
        let id = todo.run("list", "--json").stdout.split(separator: "\"")[3]

        XCTAssertOutcome(
            todo.run("show", "1"),
            Outcome(
                status: 0,
                stdout: """
                    Title:       Call Mom
                    Due:         01/10/22 (Monday)
                    Repeats:     -
                    Starts:      -
                    Reminders:   -
                    Description: About Sunday
                                 and the trip
                    Annotations: -
                    Location:    Home
                    Address:     Main St 1
                    Coordinate:  40.7128, -74.006
                    Map:         https://www.openstreetmap.org/?mlat=40.7128&mlon=-74.006#map=16/40.7128/-74.006
                    Project:     -
                    URL:         -
                    List:        -
                    Priority:    -
                    Tags:        -
                    Parent:      -
                    Subtasks:    -
                    Status:      open
                    Number:      1
                    ID:          \(id)
                    Created:     11/22/26 10:30
                    Completed:   -
                    Modified:    11/22/26 10:30

                    """, stderr: ""))
    }

    /// The prefix includes the dash: digits alone would be a number.
    func test_show_marksAbsentFieldsAndAcceptsAnIDPrefix() throws {
        todo.succeed("add", "Buy milk")
        todo.succeed("check", "1")
        let id = try JSONFileStore(fileURL: todo.fileURL).load().doneItem(at: 0).id.uuidString

        XCTAssertEqual(
            todo.succeed("show", String(id.prefix(9)).lowercased()),
            """
            Title:       Buy milk
            Due:         -
            Repeats:     -
            Starts:      -
            Reminders:   -
            Description: -
            Annotations: -
            Location:    -
            Address:     -
            Coordinate:  -
            Project:     -
            URL:         -
            List:        -
            Priority:    -
            Tags:        -
            Parent:      -
            Subtasks:    -
            Status:      done
            Number:      1
            ID:          \(id)
            Created:     11/22/26 10:30
            Completed:   11/22/26 10:30
            Modified:    11/22/26 10:30

            """)
    }

    func test_show_json_isOneObject() throws {
        todo.succeed("add", "A")

        guard case .object(let object) = try JSONValue(parsing: Array(todo.succeed("show", "1", "--json").utf8))
        else { return XCTFail() }
        XCTAssertEqual(object["title"], .string("A"))
    }

    func test_show_unknownRef_exitsWith2() {
        XCTAssertOutcome(
            todo.run("show", "7"), Outcome(status: 2, stdout: "", stderr: "Error: no item matches \"7\"\n"))
    }

    // MARK: check, uncheck, remove

    func test_check_andUncheck_moveItemsBetweenSections() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")

        XCTAssertEqual(todo.succeed("check", "2", "1"), "Checked 2: B\nChecked 1: A\n")
        XCTAssertEqual(todo.succeed("check", "1"), "Already done 1: A\n")
        XCTAssertEqual(todo.succeed("list", "--done"), "2 [x] B\n1 [x] A\n")
        XCTAssertEqual(todo.succeed("uncheck", "1"), "Unchecked 1: A\n")
        XCTAssertEqual(todo.succeed("uncheck", "1"), "Already open 1: A\n")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n\nDone\n2 [x] B\n")
    }

    func test_severalRefs_areAllOrNothing() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")
        let before = todo.fileContents

        XCTAssertOutcome(
            todo.run("check", "1", "3", "2"), Outcome(status: 2, stdout: "", stderr: "Error: no item matches \"3\"\n"))
        XCTAssertOutcome(
            todo.run("remove", "2", "9"), Outcome(status: 2, stdout: "", stderr: "Error: no item matches \"9\"\n"))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_uncheck_refusedByAnOpenTwin_exitsWith3AndChangesNothing() {
        todo.succeed("add", "A")
        todo.succeed("check", "1")
        todo.succeed("add", "A")
        let before = todo.fileContents

        XCTAssertOutcome(
            todo.run("uncheck", "1"),
            Outcome(
                status: 3, stdout: "", stderr: "Error: an open item with the same content already exists: 2 \"A\"\n"))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_ambiguousPrefix_exitsWith2NamingTheMatches() throws {
        try Data(
            """
            {"items": [{"id": "ABCD1111-1111-4111-8111-111111111111", "number": 1, "title": "A"},
                       {"id": "ABCD2222-2222-4222-8222-222222222222", "number": 2, "title": "B"}]}
            """.utf8
        ).write(to: todo.fileURL)

        XCTAssertOutcome(
            todo.run("check", "abcd"),
            Outcome(
                status: 2, stdout: "", stderr: "Error: \"abcd\" matches more than one item: 1 \"A\", 2 \"B\"\n"))
        XCTAssertEqual(todo.succeed("check", "abcd2"), "Checked 2: B\n")
    }

    func test_remove_deletesAndNumbersAreNotReused() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")

        XCTAssertEqual(todo.succeed("remove", "2"), "Removed 2: B\n")
        XCTAssertEqual(todo.succeed("add", "C"), "Added 3: C\n")
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A\n3 [ ] C\n")
    }

    func test_check_json_isAnArrayOfTheChangedItems() throws {
        todo.succeed("add", "A")

        guard case .array(let items) = try JSONValue(parsing: Array(todo.succeed("check", "1", "--json").utf8)),
            case .object(let item) = items[0]
        else { return XCTFail() }
        XCTAssertEqual(item["done"], .bool(true))
        XCTAssertEqual(item["completedAt"], .number(1_795_361_400))
    }

    // MARK: edit

    func test_edit_changesAndRemovesFields() throws {
        todo.succeed("add", "Call Mom", "--due", "01/10/22", "--description", "old")

        XCTAssertEqual(
            todo.succeed("edit", "1", "--title", "Call Dad", "--due", "friday", "--no-description"),
            "Edited 1: Call Dad (due Friday 11/27/26)\n")
        let item = try JSONFileStore(fileURL: todo.fileURL).load().item(at: 0)
        XCTAssertEqual(item.title, "Call Dad")
        XCTAssertNil(item.itemDescription)
        XCTAssertEqual(todo.succeed("edit", "1", "--no-due"), "Edited 1: Call Dad\n")
    }

    func test_edit_location_newPlaceReplacesAddressAndCoordinateWhileAddressAloneKeepsTheName() throws {
        todo.succeed("add", "A", "--location", "Home", "--address", "Main St 1", "--coordinate", "1,2")

        todo.succeed("edit", "1", "--address", "Elm St 2")
        var location = try XCTUnwrap(JSONFileStore(fileURL: todo.fileURL).load().item(at: 0).location)
        XCTAssertEqual(location.name, "Home")
        XCTAssertEqual(location.address, "Elm St 2")
        XCTAssertEqual(location.coordinate, Coordinate(latitude: 1, longitude: 2))

        todo.succeed("edit", "1", "--no-coordinate")
        location = try XCTUnwrap(JSONFileStore(fileURL: todo.fileURL).load().item(at: 0).location)
        XCTAssertNil(location.coordinate)

        todo.succeed("edit", "1", "--location", "Office")
        location = try XCTUnwrap(JSONFileStore(fileURL: todo.fileURL).load().item(at: 0).location)
        XCTAssertEqual(location.name, "Office")
        XCTAssertNil(location.address)

        todo.succeed("edit", "1", "--no-location")
        XCTAssertNil(try JSONFileStore(fileURL: todo.fileURL).load().item(at: 0).location)
    }

    func test_edit_addressWithoutALocation_isAUsageError() {
        todo.succeed("add", "A")

        XCTAssertOutcome(
            todo.run("edit", "1", "--address", "Main St 1"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: item 1 has no location; give '--location <name>' too
                      --location <name>  A new place, with the address and coordinate given here (else none: the echo says what went).
                      See 'todo edit --help' for more information.

                    """))
    }

    func test_edit_intoAnOpenTwin_isRefusedWithExitCode3() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")
        let before = todo.fileContents

        XCTAssertEqual(todo.run("edit", "2", "--title", "A").status, 3)
        XCTAssertEqual(todo.fileContents, before)
    }

    // MARK: clear

    func test_clear_withoutATerminal_refusesWithExitCode64AndChangesNothing() {
        todo.succeed("add", "A")
        let before = todo.fileContents

        XCTAssertOutcome(
            todo.run("clear"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: 'clear' would remove 1 item; add '--yes' to confirm (there is no terminal to ask)
                      --yes  Do not ask for confirmation.
                      See 'todo clear --help' for more information.

                    """))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_clear_onATerminal_asksAboutAllTheItems() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")

        XCTAssertOutcome(
            todo.run("clear", input: "N\n", inputIsTerminal: true),
            Outcome(status: 0, stdout: "", stderr: "Remove all 2 items? [y/N] Nothing was removed.\n"))
    }

    func test_clear_yes_removesEverythingAndNumbersGoOn() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")

        XCTAssertEqual(todo.succeed("clear", "--yes"), "Removed 2 items.\n")
        XCTAssertEqual(todo.succeed("list"), "")
        XCTAssertEqual(todo.succeed("add", "C"), "Added 3: C\n")
    }

    func test_clear_done_removesOnlyDoneItems() {
        todo.succeed("add", "A")
        todo.succeed("add", "B")
        todo.succeed("check", "1")

        XCTAssertEqual(todo.succeed("clear", "--done", "--yes"), "Removed 1 done item.\n")
        XCTAssertEqual(todo.succeed("list"), "2 [ ] B\n")
    }

    func test_clear_onATerminal_asksAndHonoursTheAnswer() {
        todo.succeed("add", "A")

        XCTAssertOutcome(
            todo.run("clear", input: "n\n", inputIsTerminal: true),
            Outcome(status: 0, stdout: "", stderr: "Remove the 1 item? [y/N] Nothing was removed.\n"))
        XCTAssertOutcome(
            todo.run("clear", input: "", inputIsTerminal: true),
            Outcome(status: 0, stdout: "", stderr: "Remove the 1 item? [y/N] Nothing was removed.\n"))
        XCTAssertOutcome(
            todo.run("clear", input: "yes\n", inputIsTerminal: true),
            Outcome(status: 0, stdout: "Removed 1 item.\n", stderr: "Remove the 1 item? [y/N] "))
    }

    func test_clear_withNothingToRemove_asksNothing() {
        XCTAssertOutcome(todo.run("clear"), Outcome(status: 0, stdout: "No items to remove.\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("clear", "--done"), Outcome(status: 0, stdout: "No done items to remove.\n", stderr: ""))
    }
}
