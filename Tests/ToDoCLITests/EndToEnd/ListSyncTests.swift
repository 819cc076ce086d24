import Foundation
import TestSupport
import XCTest

/// Several lists kept in step with several calendars of one account, through a real Radicale on
/// 127.0.0.1, with the Python caldav library as the phone.
final class ListSyncTests: SyncServerTestCase {
    /// Each calendar of alice's with its tasks' titles, as the phone sees them.
    private func phoneCalendars() throws -> String {
        try phone(
            """
            principal = client.principal()
            for c in sorted(principal.calendars(), key=lambda c: str(c.get_display_name())):
                titles = sorted(str(t.icalendar_component['SUMMARY']) for t in c.todos(include_completed=True))
                print(c.get_display_name(), titles)
            """)
    }

    func test_twoListsSyncToTwoCalendars_aMoveMoves_andAPhonesTaskLandsInItsList() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        XCTAssertEqual(try run("add", "Buy milk").status, 0)
        XCTAssertEqual(try run("add", "Send the report", "--list", "Work").status, 0)
        XCTAssertEqual(try run("add", "Fix the fence", "--list", "Home").status, 0)
        XCTAssertEqual(
            try run("sync").stdout,
            """
            Sent 1: Buy milk
            Sent 2: Send the report
            Sent 3: Fix the fence
            Synced the list default with "Tasks": received 0, sent 1, 0 conflicts.
            Synced the list Home with "Home": received 0, sent 1, 0 conflicts.
            Synced the list Work with "Work": received 0, sent 1, 0 conflicts.

            """)
        XCTAssertEqual(
            try phoneCalendars(),
            """
            Home ['Fix the fence']
            Tasks ['Buy milk']
            Work ['Send the report']

            """)

        // A move here moves the task between calendars, its UID kept.
        let uid = try phone(
            """
            principal = client.principal()
            home = [c for c in principal.calendars() if c.get_display_name() == 'Home'][0]
            print(home.todos()[0].icalendar_component['UID'])
            """)
        XCTAssertEqual(try run("edit", "3", "--list", "Work").status, 0)
        XCTAssertEqual(
            try run("sync").stdout,
            """
            Moved 3: Fix the fence to the calendar of the list Work
            Synced the list default with "Tasks": received 0, sent 0, moved 0 here, 0 conflicts.
            Synced the list Home with "Home": received 0, sent 0, moved 0 here, 0 conflicts.
            Synced the list Work with "Work": received 0, sent 0, moved 1 here, 0 conflicts.

            """)
        XCTAssertEqual(
            try phoneCalendars(),
            """
            Home []
            Tasks ['Buy milk']
            Work ['Fix the fence', 'Send the report']

            """)
        XCTAssertEqual(
            try phone(
                """
                principal = client.principal()
                work = [c for c in principal.calendars() if c.get_display_name() == 'Work'][0]
                print([str(t.icalendar_component['UID']) for t in work.todos() if str(t.icalendar_component['SUMMARY']) == 'Fix the fence'][0])
                """), uid, "the same UID")

        // The phone makes a task in Home: it arrives in the list Home.
        _ = try phone(
            """
            principal = client.principal()
            home = [c for c in principal.calendars() if c.get_display_name() == 'Home'][0]
            home.save_todo(summary='Water the plants')
            """)
        let received = try run("sync").stdout
        XCTAssertTrue(received.hasPrefix("Received 4: Water the plants\n"), received)
        XCTAssertEqual(try run("list", "--list", "Home").stdout, "4 [ ] Water the plants --list Home\n")

        // The phone moves a task from Work to Home (deleted in one, made in the other, one UID):
        // here it moves to the list Home, keeping its number.
        _ = try phone(
            """
            principal = client.principal()
            cals = {c.get_display_name(): c for c in principal.calendars()}
            todo = [t for t in cals['Work'].todos() if str(t.icalendar_component['SUMMARY']) == 'Send the report'][0]
            text = todo.data
            todo.delete()
            cals['Home'].save_todo(ical=text)
            """)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(
            try run("list", "--list", "Home").stdout,
            """
            2 [ ] Send the report --list Home
            4 [ ] Water the plants --list Home

            """)
        let quiet = try run("sync").stdout
        XCTAssertTrue(
            quiet.hasSuffix("Synced the list Work with \"Work\": received 0, sent 0, 0 conflicts.\n")
                && !quiet.contains("Sent"), quiet)
    }

    /// `--map` keeps a list in a calendar of another name; `--local` keeps one off the server.
    func test_aListMappedToAnotherCalendar_andOneKeptLocal() throws {
        XCTAssertEqual(
            try run(
                "sync", "setup", server.url.absoluteString, "--user", "alice", "--map", "Work=Office tasks", "--local",
                "Diary"
            ).status, 0)
        XCTAssertEqual(try run("add", "Send the report", "--list", "Work").status, 0)
        XCTAssertEqual(try run("add", "Dear diary", "--list", "Diary").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(
            try phoneCalendars(),
            """
            Office tasks ['Send the report']
            Tasks []

            """)
        let status = try run("sync", "status").stdout
        XCTAssertTrue(
            status.hasSuffix(
                """
                List Work: "Office tasks" \(server.url.absoluteString)alice/office-tasks/
                List Diary: kept on this machine

                """), status)
        XCTAssertEqual(
            try run("sync", "setup", server.url.absoluteString, "--user", "alice", "--local", "default").status, 64)
    }
}

/// Lists between two files through each server the tests start (Radicale, SabreDAV without sync
/// tokens, Xandikos): the calendars made for them, and a move, reach the other file.
class ListSyncAcrossServersTests: SyncServerTestCase {
    func test_listsAndAMove_reachAnotherFile() throws {
        try checkListsAndAMoveReachAnotherFile()
    }

    /// The test, which each server's class runs (test discovery does not see an inherited one).
    func checkListsAndAMoveReachAnotherFile() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        // The second machine takes every calendar of the account as a list.
        XCTAssertEqual(
            try run("sync", "setup", server.url.absoluteString, "--user", "alice", "--all-lists", file: "desktop.json")
                .status, 0)
        XCTAssertEqual(try run("add", "Buy milk").status, 0)
        XCTAssertEqual(try run("add", "Send the report", "--list", "Work").status, 0)
        XCTAssertEqual(try run("add", "Fix the fence", "--list", "Home").status, 0)
        let sent = try run("sync")
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(
            sent.stdout.hasSuffix("Synced the list Work with \"Work\": received 0, sent 1, 0 conflicts.\n"), sent.stdout
        )
        XCTAssertEqual(try run("sync", file: "desktop.json").status, 0)
        XCTAssertEqual(
            try run("lists", file: "desktop.json").stdout,
            "default  1 open item\nHome     1 open item\nWork     1 open item\n")

        let fence = try XCTUnwrap(
            try run("list", "--list", "Home", file: "desktop.json").stdout.split(separator: " ").first.map(String.init))
        XCTAssertEqual(try run("edit", fence, "--list", "Work", file: "desktop.json").status, 0)
        let moved = try run("sync", file: "desktop.json")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(
            moved.stdout.hasPrefix("Moved \(fence): Fix the fence to the calendar of the list Work\n"), moved.stdout)
        let desktopAgain = try run("sync", "--dry-run").stdout
        let arrived = try run("sync")
        XCTAssertEqual(arrived.status, 0, arrived.stderr)
        let all = try run("list", "--all").stdout
        XCTAssertEqual(
            try run("list", "--list", "Work").stdout,
            """
            2 [ ] Send the report --list Work
            3 [ ] Fix the fence --list Work

            """, "the move arrived, the number kept: \(desktopAgain)\(arrived.stdout)\(all)")
        for file in ["items.json", "desktop.json"] {
            let quiet = try run("sync", file: file).stdout
            XCTAssertFalse(
                quiet.contains("Sent") || quiet.contains("Received") || quiet.contains("Moved")
                    || quiet.contains("Updated"), "\(file): \(quiet)")
        }
    }
}

final class ListSyncSabreDAVTests: ListSyncAcrossServersTests {
    override var serverKind: DAVServer.Kind { .sabre }

    override func test_listsAndAMove_reachAnotherFile() throws {
        try checkListsAndAMoveReachAnotherFile()
    }
}

final class ListSyncXandikosTests: ListSyncAcrossServersTests {
    override var serverKind: DAVServer.Kind { .xandikos }

    override func test_listsAndAMove_reachAnotherFile() throws {
        try checkListsAndAMoveReachAnotherFile()
    }
}
