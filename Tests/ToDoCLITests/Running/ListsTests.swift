import Foundation
import ToDoCore
import XCTest

@testable import ToDoCLI

/// Several lists in one file: given, filtered, counted, moved, renamed and removed, and carried
/// by iCalendar and a folder of calendars.
final class ListsTests: HarnessTestCase {
    func test_itemsBelongToLists_thatFilterCountAndMove_withNumbersAcrossThem() throws {
        XCTAssertEqual(
            todo.succeed("add", "Send the report", "--list", "Work", "--due", "fri"),
            "Added 1: Send the report (due Friday 11/27/26, list Work)\n")
        XCTAssertEqual(todo.succeed("add", "Fix the fence", "--list", "Home"), "Added 2: Fix the fence (list Home)\n")
        XCTAssertEqual(todo.succeed("add", "Buy milk"), "Added 3: Buy milk\n")
        XCTAssertEqual(
            todo.succeed("add", "Plan the offsite", "--list", "work"), "Added 4: Plan the offsite (list Work)\n",
            "a list named in another case is the one there is")
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Send the report --list Work   11/27/26
            2 [ ] Fix the fence --list Home
            3 [ ] Buy milk
            4 [ ] Plan the offsite --list Work

            """)
        XCTAssertEqual(
            todo.succeed("list", "--list", "WORK"),
            """
            1 [ ] Send the report --list Work   11/27/26
            4 [ ] Plan the offsite --list Work

            """)
        XCTAssertEqual(todo.succeed("list", "--list", "default"), "3 [ ] Buy milk\n")
        todo.succeed("check", "4")
        XCTAssertEqual(
            todo.succeed("lists"),
            """
            default  1 open item
            Home     1 open item
            Work     1 open item, 1 done

            """)
        XCTAssertEqual(
            todo.succeed("lists", "--json"),
            """
            [
              {"name":null,"open":1,"done":0},
              {"name":"Home","open":1,"done":0},
              {"name":"Work","open":1,"done":1}
            ]

            """)
        XCTAssertEqual(todo.succeed("edit", "2", "--list", "Work"), "Edited 2: Fix the fence (list Work)\n")
        XCTAssertEqual(todo.succeed("edit", "2", "--list", "default"), "Edited 2: Fix the fence\n")
        XCTAssertTrue(todo.succeed("show", "1").contains("List:        Work\n"))
        XCTAssertEqual(todo.succeed("completion", "--items", "lists"), "default\nWork\n")
        XCTAssertEqual(todo.succeed("list", "--list", "Home"), "")
    }

    func test_aListIsRenamed_orRemovedWithItsItemsMoved_andNeverWithThemLost() throws {
        todo.succeed("add", "Send the report", "--list", "Work")
        todo.succeed("add", "Plan the offsite", "--list", "Work")
        todo.succeed("add", "Fix the fence", "--list", "Home")
        XCTAssertEqual(todo.succeed("lists", "rename", "Work", "Office"), "Renamed the list Work to Office: 2 items.\n")
        XCTAssertEqual(
            todo.succeed("lists", "rename", "office", "OFFICE"), "Renamed the list Office to OFFICE: 2 items.\n",
            "a new case only")
        let before = todo.fileContents
        // A rename onto a list that holds items would merge the two for good (issue 49; simulator seed 1).
        XCTAssertOutcome(
            todo.run("lists", "rename", "OFFICE", "home"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: the list 'Home' holds 1 item already; renaming 'OFFICE' to it would merge the two lists for good; to merge them, todo lists remove OFFICE --to Home

                    """))
        XCTAssertOutcome(
            todo.run("lists", "remove", "OFFICE"),
            Outcome(
                status: 3, stdout: "",
                stderr: """
                    Error: the list OFFICE holds 2 items; give --to <list> to move them, as todo lists remove OFFICE --to default

                    """))
        XCTAssertOutcome(
            todo.run("lists", "remove", "Garden", "--to", "Home"),
            Outcome(
                status: 2, stdout: "",
                stderr: """
                    Error: no item is in the list 'Garden'; todo lists shows the lists

                    """))
        for arguments in [
            ["lists", "rename", "Home"], ["lists", "bogus"], ["lists", "--to", "Home"],
            ["lists", "remove", "Home", "--json"]
        ] {
            XCTAssertEqual(todo.run(arguments, input: []).status, 64, "\(arguments)")
        }
        XCTAssertEqual(todo.fileContents, before, "refusals change nothing")
        XCTAssertEqual(
            todo.succeed("lists", "remove", "OFFICE", "--to", "Home"),
            "Removed the list OFFICE; 2 items moved to Home.\n")
        XCTAssertEqual(todo.succeed("lists"), "default  0 open items\nHome     3 open items\n")
        XCTAssertEqual(
            todo.succeed("lists", "remove", "Home", "--to", "default"),
            "Removed the list Home; 3 items moved to default.\n")
        XCTAssertTrue(todo.succeed("undo").hasPrefix("Undid change 7: todo lists remove Home --to default\n"))
        XCTAssertEqual(
            todo.succeed("lists"), "default  0 open items\nHome     3 open items\n", "undo brings the list back")
    }

    /// iCalendar carries the list (`X-TODO-LIST`); a folder of calendars (vdirsyncer's) imports
    /// each into the list of its name; `export --list` writes one list.
    func test_iCalendarAndAFolderOfCalendars_carryTheLists() throws {
        todo.succeed("add", "Send the report", "--list", "Work")
        todo.succeed("add", "Buy milk")
        let exported = todo.succeed("export", "--format", "ical", "--list", "Work")
        XCTAssertTrue(
            exported.contains("SUMMARY:Send the report\r\n") && exported.contains("X-TODO-LIST:Work\r\n")
                && !exported.contains("Buy milk"), exported)

        let account = todo.directory.appendingPathComponent("calendars/account")
        for (folder, name, uid) in [("a1b2", "Work stuff", "report@phone"), ("c3d4", nil, "fence@phone")] {
            let calendar = account.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: calendar, withIntermediateDirectories: true)
            if let name { try Data((name + "\n").utf8).write(to: calendar.appendingPathComponent("displayname")) }
            try Data(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(uid)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                    .utf8
            )
            .write(to: calendar.appendingPathComponent("\(uid).ics"))
        }
        XCTAssertEqual(
            todo.succeed("import", "calendars/account"),
            """
            Added 3: report@phone (list Work stuff)
            Added 4: fence@phone (list c3d4)
            Imported 2 items from calendars/account (ical).

            """)
    }

    /// Spaces at either end are no part of a list's name, wherever it comes from: typed, or in a
    /// file another program wrote. `default ` is the default list everywhere (before, it showed as
    /// `default` while being a list of its own, and `lists remove "default " --to Work` moved the
    /// real default list's items instead).
    func test_aListNameWithSpacesAtAnEnd_isTheListWithout() throws {
        XCTAssertEqual(todo.succeed("add", "Buy milk", "--list", "default "), "Added 1: Buy milk\n")
        XCTAssertEqual(
            todo.succeed("add", "Fix the fence", "--list", "  Home "), "Added 2: Fix the fence (list Home)\n")
        try Data(
            """
            {"version": 2, "nextNumber": 5, "items": [
            {"id":"A0000000-0000-0000-0000-000000000001","number":1,"title":"Buy milk","done":false},
            {"id":"A0000000-0000-0000-0000-000000000002","number":2,"title":"Pay rent","done":false,"list":"default "},
            {"id":"A0000000-0000-0000-0000-000000000003","number":3,"title":"Send report","done":false,"list":"Work "},
            {"id":"A0000000-0000-0000-0000-000000000004","number":4,"title":"Plan offsite","done":false,"list":"work"}]}
            """.utf8
        ).write(to: todo.fileURL)
        XCTAssertEqual(
            todo.succeed("lists"),
            """
            default  2 open items
            Work     2 open items

            """)
        XCTAssertEqual(todo.succeed("list", "--list", "default"), "1 [ ] Buy milk\n2 [ ] Pay rent\n")
        XCTAssertEqual(
            todo.succeed("list", "--list", " WORK"), "3 [ ] Send report --list Work\n4 [ ] Plan offsite --list work\n")
        XCTAssertTrue(todo.succeed("show", "2").contains("List:        -\n"))
        // Moved into a list another program spelled with spaces, or named with them here, an
        // item is given the name without them.
        XCTAssertEqual(todo.succeed("edit", "1", "--list", "work"), "Edited 1: Buy milk (list Work)\n")
        XCTAssertEqual(todo.succeed("edit", "2", "--list", " Work\t"), "Edited 2: Pay rent (list Work)\n")
        let file = String(decoding: try XCTUnwrap(todo.fileContents), as: UTF8.self)
        for title in ["Buy milk", "Pay rent"] {
            XCTAssertTrue(file.contains(#""title":"\#(title)","done":false,"list":"Work""#), file)
        }
        XCTAssertEqual(
            todo.succeed("lists", "remove", "Work ", "--to", "default"),
            "Removed the list Work; 4 items moved to default.\n")
        XCTAssertEqual(todo.succeed("lists"), "default  4 open items\n")
    }
}
