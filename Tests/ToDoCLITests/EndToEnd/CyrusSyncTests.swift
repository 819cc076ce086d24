import Foundation
import TestSupport
import XCTest

/// `todo sync` against a real Cyrus IMAP 3.6 (Debian's `cyrus-imapd` and `cyrus-caldav`), the
/// engine Fastmail runs, on 127.0.0.1: it keeps a UID in one calendar of an account.
final class CyrusSyncTests: SyncServerTestCase {
    override var serverKind: DAVServer.Kind { .cyrus }

    /// The case: after `sync forget` and a setup with another calendar, the items already
    /// in the first are refused with 403, each said with where its UID is and what to do; an item
    /// that is in no calendar yet is sent all the same; following the advice pairs the others
    /// again, with nothing doubled.
    func test_aUIDAnotherCalendarHolds_isRefusedSayingWhere_andTheRestIsSent() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").stdout, """
            Found the calendar "personal" at \(server.taskCalendar.absoluteString) for alice, with 0 tasks.
            Run todo sync to sync.

            """)
        for title in ["Tea", "Milk"] { XCTAssertEqual(try run("add", title).status, 0) }
        XCTAssertEqual(try run("sync").stdout, "Sent 1: Tea\nSent 2: Milk\nSynced with \"personal\": received 0, sent 2, 0 conflicts.\n")
        XCTAssertEqual(try run("sync", "forget").status, 0)
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice", "--calendar", "Moved").status, 0)
        XCTAssertEqual(try run("add", "Bread").status, 0)

        let moved = try run("sync")
        XCTAssertEqual(moved.status, 1)
        XCTAssertEqual(moved.stderr, "Error: the server refused 2 changes (said above); the rest was synced, and the next sync tries them again\n")
        let lines = moved.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, moved.stdout)
        XCTAssertEqual(lines.filter { $0.hasPrefix("Sent ") }, ["Sent 3: Bread"])
        for (number, title) in [(1, "Tea"), (2, "Milk")] {
            let line = try XCTUnwrap(lines.first { $0.hasPrefix("Not sent \(number): \(title) ") }, moved.stdout)
            XCTAssertTrue(line.hasPrefix("Not sent \(number): \(title) (the server refused it (403 unique-scheduling-object-resource): a task with its UID"
                                         + " is already at /dav/calendars/user/alice/Default/"), line)
            XCTAssertTrue(line.hasSuffix(".ics, and the server keeps a UID in one calendar; sync with that calendar (todo sync forget, then todo sync"
                                         + " setup \(server.taskCalendar.absoluteString)), or remove the task there)"), line)
        }
        XCTAssertEqual(lines.last, "Synced with \"Moved\": received 0, sent 1, 0 conflicts.")

        // The advice taken: the list syncs with the calendar that holds Tea and Milk, pairing them
        // by UID (nothing doubled); Bread, now in "Moved", is refused there in turn, said the same way.
        XCTAssertEqual(try run("sync", "forget").status, 0)
        XCTAssertEqual(try run("sync", "setup", server.taskCalendar.absoluteString, "--user", "alice").status, 0)
        let back = try run("sync")
        XCTAssertEqual(back.status, 1)
        XCTAssertTrue(back.stdout.hasPrefix("Not sent 3: Bread (the server refused it (403 unique-scheduling-object-resource): a task with its UID"
                                            + " is already at /dav/calendars/user/alice/moved/"), back.stdout)
        XCTAssertTrue(back.stdout.hasSuffix("Synced with \"personal\": received 0, sent 0, 0 conflicts.\n"), back.stdout)
        XCTAssertEqual(back.stdout.split(separator: "\n").count, 2, "Tea and Milk paired, not sent again")
    }

    /// An item moved to another list moves to its calendar on an account that keeps a UID in one
    /// calendar: out of the one first, then into the other, never refused.
    func test_anItemMovedToAnotherList_movesBetweenCalendars_oneUIDAtATime() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        XCTAssertEqual(try run("add", "Tea", "--list", "Work").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try run("edit", "1", "--list", "Home").status, 0)
        let moved = try run("sync")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(moved.stdout.hasPrefix("Moved 1: Tea to the calendar of the list Home\n"), moved.stdout)
        XCTAssertTrue(moved.stdout.hasSuffix("Synced the list Work with \"Work\": received 0, sent 0, moved 0 here, 0 conflicts.\n"), moved.stdout)
        let again = try run("sync").stdout
        XCTAssertFalse(again.contains("Sent") || again.contains("Received") || again.contains("Moved"), again)
    }
}
