import Foundation
import TestSupport
import XCTest

/// `todo sync` as a user runs it, against a real Radicale on 127.0.0.1 (user alice, password
/// secret, a calendar "Tasks"), with a second list in another file and the Python caldav library
/// as the phone.
final class SyncCommandTests: SyncServerTestCase {
    func test_setup_findsTheCalendar_checksThePassword_andSaysWhatItFound() throws {
        let refused = try run(
            "sync", "setup", server.url.absoluteString, "--user", "alice", environment: ["TODO_SYNC_PASSWORD": "wrong"])
        XCTAssertEqual(
            refused,
            Outcome(
                status: 1, stdout: "",
                stderr: "Error: cannot sync: the server refused the user name and password (401)\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("items.json.sync").path))
        XCTAssertEqual(
            try run("sync", "setup", server.url.absoluteString, "--user", "alice"),
            Outcome(
                status: 0,
                stdout: """
                    Found the calendar "Tasks" at \(server.url.absoluteString)alice/tasks/ for alice, with 0 tasks.
                    Run todo sync to sync.

                    """, stderr: ""))
        let status = try run("sync", "status")
        XCTAssertTrue(
            status.stdout.hasPrefix(
                "Calendar:    \"Tasks\" \(server.url.absoluteString)alice/tasks/\nUser:        alice\n"
                    + "Password:    from TODO_SYNC_PASSWORD\nLast synced: never\n"), status.stdout)
        let json = try run("sync", "status", "--json").stdout
        XCTAssertTrue(
            json.contains("\"calendarName\": \"Tasks\"") && json.contains("\"lastSynced\": null")
                && json.contains("\"waiting\": 0"), json)
        let state = try String(contentsOf: directory.file("items.json.sync"), encoding: .utf8)
        XCTAssertFalse(state.contains("secret"), "the password is never written down")
        // A password command's first line is the password; it is recorded, the password is not.
        XCTAssertEqual(
            try run(
                "sync", "setup", server.url.absoluteString, "--user", "alice", "--calendar", "Chores",
                "--password-command", "printf 'secret\\nmore'", environment: ["TODO_SYNC_PASSWORD": ""]
            ).stdout,
            "Made the calendar \"Chores\" at \(server.url.absoluteString)alice/chores/ for alice, with 0 tasks.\nRun todo sync to sync.\n"
        )
        XCTAssertTrue(
            try run("sync", "status").stdout.contains("\nPassword:    from the command given at setup\n"),
            "never the command's text")
        XCTAssertEqual(try run("sync", "forget").stdout, "Forgot the sync state; the list stays as it is.\n")
        XCTAssertEqual(
            try run("sync", "status").stdout,
            "The list is not synced; todo sync setup <url> --user <name> sets it up.\n")
    }

    func test_usageErrors_changeNothing() throws {
        for (arguments, message) in [
            (["sync", "setup"], "todo sync setup needs the server's address, as https://dav.example.com/"),
            (["sync", "setup", "https://dav.example.com/"], "todo sync setup needs --user <name>"),
            (
                ["sync", "setup", "http://dav.example.com/", "--user", "a"],
                "http://dav.example.com/ is plain http, which would send the password unencrypted; use https, or --allow-http"
            ),
            (
                ["sync", "setup", "https://bob:hunter2@dav.example.com/", "--user", "bob"],
                "the server's address holds a user name or password (user:password@); give the address without it,"
                    + " the user with --user and the password in TODO_SYNC_PASSWORD or through --password-command"
            ),
            (
                ["sync", "setup", "https://bob@dav.example.com/", "--user", "bob"],
                "the server's address holds a user name or password (user:password@); give the address without it,"
                    + " the user with --user and the password in TODO_SYNC_PASSWORD or through --password-command"
            ),
            (["sync", "status", "--force"], "'--force' does not go with 'todo sync status'"),
            (["sync", "--user", "a"], "'--user' does not go with 'todo sync '"),
            (["sync", "bogus"], "unknown sync action 'bogus'; use setup, status or forget, or none to sync"),
            (["sync", "--prefer", "both"], "invalid value 'both' for '--prefer'; use local or remote")
        ] {
            let outcome = try todo.run(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.hasPrefix("Error: \(message)\n"), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(
            try run("sync").stderr, "Error: the list is not synced; todo sync setup <url> --user <name> sets it up\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path))
    }

    /// Two lists and a phone converge; a conflict says what lost; a second sync does nothing; a
    /// server that is down changes nothing; deleting everything is refused without --force.
    func test_twoListsAndAPhone() throws {
        let url = server.url.absoluteString
        for file in ["items.json", "desktop.json"] {
            XCTAssertEqual(try run("sync", "setup", url, "--user", "alice", file: file).status, 0)
        }
        XCTAssertEqual(try run("add", "Buy milk").status, 0)
        XCTAssertEqual(try run("add", "Call Mom", "--due", "2030-01-10", "--priority", "high").status, 0)
        XCTAssertEqual(
            try run("sync").stdout,
            """
            Sent 1: Buy milk
            Sent 2: Call Mom
            Synced with "Tasks": received 0, sent 2, 0 conflicts.

            """)
        let desktop = try run("sync", file: "desktop.json").stdout
        XCTAssertTrue(
            desktop.contains(": Buy milk\n") && desktop.contains(": Call Mom\n")
                && desktop.hasSuffix("received 2, sent 0, 0 conflicts.\n"), desktop)
        // The desktop numbered the items as they arrived.
        let callMom = try XCTUnwrap(
            try run("list", file: "desktop.json").stdout.split(separator: "\n").first { $0.contains("Call Mom") }?
                .split(separator: " ").first.map(String.init))
        let shown = try run("show", callMom, file: "desktop.json").stdout
        XCTAssertTrue(shown.contains("Priority:    high"), shown)

        // The phone completes Buy milk; this list renames it meanwhile, later.
        _ = try phone(
            """
            for todo in calendar.todos():
                if str(todo.icalendar_component['SUMMARY']) == 'Buy milk':
                    todo.complete()
            """)
        XCTAssertEqual(try run("edit", "1", "--title", "Buy oat milk").status, 0)
        let dryRun = try run("sync", "--dry-run").stdout
        XCTAssertTrue(dryRun.hasSuffix("Would receive 1, send 1; nothing was changed.\n"), dryRun)
        let merged = try run("sync").stdout
        XCTAssertTrue(merged.contains("Sent 1: Buy oat milk\n"), merged)
        XCTAssertTrue(
            merged.contains("Checked 1: Buy oat milk\n"), "the phone's completion is said as a check: \(merged)")
        let afterPhone = try run("list", "--all").stdout
        XCTAssertTrue(
            afterPhone.contains("1 [x]   Buy oat milk\n"),
            "the phone's check and this list's title are both kept: \(merged)\n\(afterPhone)")
        XCTAssertEqual(
            try phone(
                "print(sorted((str(t.icalendar_component['SUMMARY']), str(t.icalendar_component.get('STATUS'))) "
                    + "for t in calendar.todos(include_completed=True)))"),
            "[('Buy oat milk', 'COMPLETED'), ('Call Mom', 'NEEDS-ACTION')]\n")
        XCTAssertEqual(
            try run("sync").stdout, "Synced with \"Tasks\": received 0, sent 0, 0 conflicts.\n",
            "a second sync does nothing")

        // The same title changed on both lists: the later change wins, and the loser is said.
        XCTAssertEqual(try run("edit", callMom, "--title", "Call Mom today", file: "desktop.json").status, 0)
        XCTAssertEqual(try run("sync", file: "desktop.json").status, 0)
        XCTAssertEqual(try run("edit", "2", "--title", "Call Mom tonight").status, 0)
        let conflict = try run("sync").stdout
        // Within one second of the version both agreed on, times cannot order them: --prefer (local) decides, and says so.
        XCTAssertTrue(
            conflict.contains(
                "Conflict 2 title: kept this list's (the later change); the server's was \"Call Mom today\"\n")
                || conflict.contains(
                    "Conflict 2 title: kept this list's (which came later cannot be told, and --prefer is local);"
                        + " the server's was \"Call Mom today\"\n"),
            conflict)

        // Every item removed here: refused without --force; forced, they are said as deleted, not sent.
        XCTAssertEqual(try run("clear", "--yes").status, 0)
        XCTAssertEqual(try run("sync").status, 3)
        let forced = try run("sync", "--force").stdout
        XCTAssertTrue(
            forced.hasSuffix("Synced with \"Tasks\": received 0, sent 0, deleted 2 on the server, 0 conflicts.\n"),
            forced)
        XCTAssertEqual(
            try run("sync", file: "desktop.json").status, 3, "the other list refuses to lose every item unasked")
        let desktopForced = try run("sync", "--force", file: "desktop.json").stdout
        XCTAssertEqual(desktopForced.components(separatedBy: "(deleted on the server)").count - 1, 2, desktopForced)
        XCTAssertTrue(desktopForced.hasSuffix("received 0, removed 2 here, sent 0, 0 conflicts.\n"), desktopForced)

        // Down, the server changes nothing here.
        server = nil
        let down = try run("sync")
        XCTAssertEqual(down.status, 1)
        XCTAssertTrue(down.stderr.hasPrefix("Error: cannot sync: the server could not be reached: "), down.stderr)
    }

    /// A whole day added in New York and edited (its title only) in Los Angeles goes to the
    /// server as the day it is, `DUE;VALUE=DATE:20261203`; the phone's whole day comes back as
    /// that day in any zone; a DTSTART in Chicago's time that is midnight here stays a time. On
    /// the release that kept a day as the instant of a local midnight, the edit sent 20261202.
    func test_aWholeDay_travelsAsTheSameDate_fromAnyZone() throws {
        let url = server.url.absoluteString
        XCTAssertEqual(try run("sync", "setup", url, "--user", "alice").status, 0)
        XCTAssertEqual(
            try run("add", "Pay rent", "--due", "12/03/26", environment: ["TZ": "America/New_York"]).status, 0)
        XCTAssertEqual(try run("sync", environment: ["TZ": "America/New_York"]).status, 0)
        XCTAssertEqual(
            try run("edit", "1", "--title", "Pay the rent", environment: ["TZ": "America/Los_Angeles"]).status, 0)
        XCTAssertEqual(
            try run("sync", environment: ["TZ": "America/Los_Angeles"]).stdout,
            "Sent 1: Pay the rent\nSynced with \"Tasks\": received 0, sent 1, 0 conflicts.\n")
        XCTAssertEqual(
            try phone(
                """
                for todo in calendar.todos():
                    due = todo.icalendar_component['DUE']
                    print(todo.icalendar_component['SUMMARY'], due.to_ical().decode(), due.params.get('VALUE'))
                """), "Pay the rent 20261203 DATE\n")

        // The phone adds a whole day, and a task that starts at 23:00 in Chicago (midnight in New York).
        _ = try phone(
            """
            lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//phone//EN', 'BEGIN:VTODO', 'UID:phone-day@example.com',
                     'SUMMARY:Ship it', 'DUE;VALUE=DATE:20261204', 'END:VTODO', 'END:VCALENDAR']
            calendar.save_todo(ical='\\r\\n'.join(lines))
            lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//phone//EN', 'BEGIN:VTODO', 'UID:phone-chicago@example.com',
                     'SUMMARY:Late call', 'DTSTART;TZID=America/Chicago:20230201T230000', 'END:VTODO', 'END:VCALENDAR']
            calendar.save_todo(ical='\\r\\n'.join(lines))
            """)
        XCTAssertEqual(try run("sync", environment: ["TZ": "America/New_York"]).status, 0)
        for zone in ["America/Los_Angeles", "Asia/Tokyo"] {
            let shown = try run("list", "--all", environment: ["TZ": zone]).stdout
            XCTAssertTrue(
                shown.contains("Ship it") && shown.contains("12/04/26") && shown.contains("Pay the rent  12/03/26"),
                "\(zone): \(shown)")
        }
        let ical = try run("export", "--format", "ical", environment: ["TZ": "America/New_York"]).stdout
        XCTAssertTrue(ical.contains("DTSTART:20230202T050000Z\r\n"), "a time at a local midnight stays a time: \(ical)")
        XCTAssertEqual(
            try run("sync", environment: ["TZ": "Asia/Tokyo"]).stdout,
            "Synced with \"Tasks\": received 0, sent 0, 0 conflicts.\n",
            "nothing moved in another zone")
    }

    /// A task the phone marks in progress (Thunderbird's and Nextcloud's `STATUS:IN-PROCESS` with
    /// `PERCENT-COMPLETE`) stays in progress through an edit here: the release before sent it back
    /// as `NEEDS-ACTION` beside the kept 25.
    func test_inProgress_survivesAnEditHere() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        _ = try phone(
            """
            lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//phone//EN', 'BEGIN:VTODO', 'UID:phone-busy@example.com',
                     'SUMMARY:Write report', 'STATUS:IN-PROCESS', 'PERCENT-COMPLETE:25', 'END:VTODO', 'END:VCALENDAR']
            calendar.save_todo(ical='\\r\\n'.join(lines))
            """)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertTrue(try run("show", "1").stdout.contains("Status:      in progress (25% done)\n"))
        XCTAssertEqual(try run("edit", "1", "--title", "Write the report").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(
            try phone(
                """
                for t in calendar.todos():
                    c = t.icalendar_component
                    print(c['SUMMARY'], c['STATUS'], c['PERCENT-COMPLETE'])
                """), "Write the report IN-PROCESS 25\n")
        XCTAssertEqual(try run("check", "1").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(
            try phone("print([str(t.icalendar_component['STATUS']) for t in calendar.todos(include_completed=True)])"),
            "['COMPLETED']\n")
    }

    /// A link travels both ways: the phone's `URL` arrives, `edit --url` reaches the phone, and
    /// `edit --no-url` takes it away there too.
    func test_aLink_travelsBothWays() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        _ = try phone(
            """
            lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//phone//EN', 'BEGIN:VTODO', 'UID:phone-link@example.com',
                     'SUMMARY:Read the ticket', 'URL;VALUE=URI:https://example.com/ticket/42', 'END:VTODO', 'END:VCALENDAR']
            calendar.save_todo(ical='\\r\\n'.join(lines))
            """)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertTrue(try run("show", "1").stdout.contains("URL:         https://example.com/ticket/42\n"))
        XCTAssertEqual(try run("edit", "1", "--url", "https://example.com/ticket/43").status, 0)
        XCTAssertEqual(
            try run("sync").stdout, "Sent 1: Read the ticket\nSynced with \"Tasks\": received 0, sent 1, 0 conflicts.\n"
        )
        let url = "print([str(t.icalendar_component.get('URL')) for t in calendar.todos()])"
        XCTAssertEqual(try phone(url), "['https://example.com/ticket/43']\n")
        XCTAssertEqual(try run("edit", "1", "--no-url").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try phone(url), "['None']\n")
    }

    /// `kill -9` at moments of a sync of 500 items, several times over: the next `todo sync`
    /// finishes the job, and the server holds each item once, the list each once, and another
    /// sync has nothing to do.
    func test_killedAtAnyMoment_theNextSyncFinishes_withNothingDoubledOrLost() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        let lines =
            (1...500).map { "Task \($0) due:2030-01-\(String(format: "%02d", $0 % 28 + 1))" }.joined(separator: "\n")
            + "\n"
        XCTAssertEqual(try todo.run(["import", "-"], input: Data(lines.utf8)).status, 0)
        var generator = SeededGenerator(seed: 17)
        for round in 0..<4 {
            let running = try todo.start(["sync"])
            usleep(UInt32.random(in: 100_000...1_500_000, using: &generator))
            kill(running.processIdentifier, SIGKILL)
            let outcome = running.finish()
            XCTAssertTrue(
                outcome.status == 0 || outcome.status == SIGKILL || outcome.status == 128 + SIGKILL
                    || outcome.status == 9,
                "round \(round): \(outcome)")
            // A phone adds one while todo is away.
            if round == 1 { _ = try phone("calendar.save_todo(summary='From the phone', uid='phone-1@example.com')") }
        }
        var outcome = try run("sync")
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        outcome = try run("sync")
        XCTAssertEqual(outcome.stdout, "Synced with \"Tasks\": received 0, sent 0, 0 conflicts.\n")
        XCTAssertEqual(
            try phone(
                """
                todos = calendar.todos(include_completed=True)
                uids = [str(t.icalendar_component['UID']) for t in todos]
                print(len(todos), len(set(uids)))
                """), "501 501\n")
        let listed = try run("list", "--json").stdout
        XCTAssertEqual(listed.components(separatedBy: "\"title\":").count - 1, 501, "each item once in the list")
        XCTAssertTrue(listed.contains("\"title\":\"From the phone\""))
    }

    /// Syncs of one list run one after another (a timer's and the user's, or four at once), while
    /// items are added: none takes another's new resources for ones deleted on the server, and no
    /// item is removed here, renumbered or doubled.
    func test_syncsAtOnce_whileItemsAreAdded_removeNothing() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        for title in ["One", "Two", "Three"] { XCTAssertEqual(try run("add", title).status, 0) }
        XCTAssertEqual(try run("sync").status, 0)
        var runner = todo!
        runner.environment["TODO_LOCK_TIMEOUT"] = "120"
        let adder = try runner.start(
            program: "/bin/sh", ["-c", "for i in $(seq 1 30); do todo add \"Fresh $i\" >/dev/null || exit 1; done"])
        let syncs = try (1...4).map { _ in try runner.start(["sync"]) }
        let outcomes = syncs.map { $0.finish() }
        XCTAssertEqual(adder.finish().status, 0)
        for outcome in outcomes {
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertFalse(outcome.stdout.contains("deleted on the server"), outcome.stdout)
        }
        XCTAssertEqual(try run("sync").status, 0)
        let listed = try run("list").stdout
        XCTAssertFalse(listed.contains("Removed"))
        let numbers = listed.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
        XCTAssertEqual(numbers, Array(1...33), "every item kept its number, none removed or doubled:\n\(listed)")
        XCTAssertEqual(
            try phone(
                "t = [str(t.icalendar_component['SUMMARY']) for t in calendar.todos()]; print(len(t), len(set(t)))"),
            "33 33\n")
    }
}
