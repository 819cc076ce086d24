import Foundation
import TestSupport
import XCTest

/// Several lists kept in step with several calendars of one account, through a real Radicale on
/// 127.0.0.1, with the Python caldav library as the phone.
final class ListSyncTests: SyncServerTestCase {
    /// Each calendar of alice's with its tasks' titles, as the phone sees them.
    private func phoneCalendars() throws -> String {
        try phone("""
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
        XCTAssertEqual(try run("sync").stdout, """
            Sent 1: Buy milk
            Sent 2: Send the report
            Sent 3: Fix the fence
            Synced the list default with "Tasks": received 0, sent 1, 0 conflicts.
            Synced the list Home with "Home": received 0, sent 1, 0 conflicts.
            Synced the list Work with "Work": received 0, sent 1, 0 conflicts.

            """)
        XCTAssertEqual(try phoneCalendars(), """
            Home ['Fix the fence']
            Tasks ['Buy milk']
            Work ['Send the report']

            """)

        // A move here moves the task between calendars, its UID kept.
        let uid = try phone("""
            principal = client.principal()
            home = [c for c in principal.calendars() if c.get_display_name() == 'Home'][0]
            print(home.todos()[0].icalendar_component['UID'])
            """)
        XCTAssertEqual(try run("edit", "3", "--list", "Work").status, 0)
        XCTAssertEqual(try run("sync").stdout, """
            Moved 3: Fix the fence to the calendar of the list Work
            Synced the list default with "Tasks": received 0, sent 0, moved 0 here, 0 conflicts.
            Synced the list Home with "Home": received 0, sent 0, moved 0 here, 0 conflicts.
            Synced the list Work with "Work": received 0, sent 0, moved 1 here, 0 conflicts.

            """)
        XCTAssertEqual(try phoneCalendars(), """
            Home []
            Tasks ['Buy milk']
            Work ['Fix the fence', 'Send the report']

            """)
        XCTAssertEqual(try phone("""
            principal = client.principal()
            work = [c for c in principal.calendars() if c.get_display_name() == 'Work'][0]
            print([str(t.icalendar_component['UID']) for t in work.todos() if str(t.icalendar_component['SUMMARY']) == 'Fix the fence'][0])
            """), uid, "the same UID")

        // The phone makes a task in Home: it arrives in the list Home.
        _ = try phone("""
            principal = client.principal()
            home = [c for c in principal.calendars() if c.get_display_name() == 'Home'][0]
            home.save_todo(summary='Water the plants')
            """)
        let received = try run("sync").stdout
        XCTAssertTrue(received.hasPrefix("Received 4: Water the plants\n"), received)
        XCTAssertEqual(try run("list", "--list", "Home").stdout, "4 [ ] Water the plants --list Home\n")

        // The phone moves a task from Work to Home (deleted in one, made in the other, one UID):
        // here it moves to the list Home, keeping its number.
        _ = try phone("""
            principal = client.principal()
            cals = {c.get_display_name(): c for c in principal.calendars()}
            todo = [t for t in cals['Work'].todos() if str(t.icalendar_component['SUMMARY']) == 'Send the report'][0]
            text = todo.data
            todo.delete()
            cals['Home'].save_todo(ical=text)
            """)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try run("list", "--list", "Home").stdout, """
            2 [ ] Send the report --list Home
            4 [ ] Water the plants --list Home

            """)
        let quiet = try run("sync").stdout
        XCTAssertTrue(quiet.hasSuffix("Synced the list Work with \"Work\": received 0, sent 0, 0 conflicts.\n") && !quiet.contains("Sent"), quiet)
    }

    /// `--map` keeps a list in a calendar of another name; `--local` keeps one off the server.
    func test_aListMappedToAnotherCalendar_andOneKeptLocal() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice", "--map", "Work=Office tasks", "--local", "Diary").status, 0)
        XCTAssertEqual(try run("add", "Send the report", "--list", "Work").status, 0)
        XCTAssertEqual(try run("add", "Dear diary", "--list", "Diary").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try phoneCalendars(), """
            Office tasks ['Send the report']
            Tasks []

            """)
        let status = try run("sync", "status").stdout
        XCTAssertTrue(status.hasSuffix("""
            List Work: "Office tasks" \(server.url.absoluteString)alice/office-tasks/
            List Diary: kept on this machine

            """), status)
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice", "--local", "default").status, 64)
    }
}
