import Foundation
import TestSupport
import XCTest

/// `todo sync` against a real Cyrus IMAP 3.6 (Debian's `cyrus-imapd` and `cyrus-caldav`), the
/// engine Fastmail runs, on 127.0.0.1: it keeps a UID in one calendar of an account.
final class CyrusSyncTests: SyncServerTestCase {
    override var serverKind: DAVServer.Kind { .cyrus }

    /// After `sync forget` and a setup with another calendar, the first sync finds the items
    /// already in the first calendar (read once, issue 49) and moves them to the new one, out of
    /// the first before into the second: nothing refused, nothing doubled, one UID in one calendar.
    /// The first calendar becomes a list here (its tasks, should the phone add any, arrive in it).
    /// Set up with the first calendar again, they move back the same way.
    func test_aSetupWithAnotherCalendar_movesTheItemsThere_oneUIDInOneCalendar() throws {
        XCTAssertEqual(
            try run("sync", "setup", server.url.absoluteString, "--user", "alice").stdout,
            """
            Found the calendar "personal" at \(server.taskCalendar.absoluteString) for alice, with 0 tasks.
            Run todo sync to sync.

            """)
        for title in ["Tea", "Milk"] { XCTAssertEqual(try run("add", title).status, 0) }
        XCTAssertEqual(
            try run("sync").stdout,
            "Sent 1: Tea\nSent 2: Milk\nSynced with \"personal\": received 0, sent 2, 0 conflicts.\n")
        XCTAssertEqual(try run("sync", "forget").status, 0)
        XCTAssertEqual(
            try run("sync", "setup", server.url.absoluteString, "--user", "alice", "--calendar", "Moved").status, 0)
        XCTAssertEqual(try run("add", "Bread").status, 0)

        let moved = try run("sync")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(moved.stderr, "")
        XCTAssertEqual(
            moved.stdout,
            """
            Sent 3: Bread
            Moved 1: Tea to the calendar of the list default
            Moved 2: Milk to the calendar of the list default
            Conflict 1 list: kept this list's (which came later cannot be told, and --prefer is local); the server's was "personal"
            Conflict 2 list: kept this list's (which came later cannot be told, and --prefer is local); the server's was "personal"
            Synced the list default with "Moved": received 0, sent 1, moved 2 here, 2 conflicts.
            Synced the list personal with "personal": received 0, sent 0, moved 0 here, 0 conflicts.

            """)
        XCTAssertEqual(
            try run("sync").stdout,
            """
            Synced the list default with "Moved": received 0, sent 0, 0 conflicts.
            Synced the list personal with "personal": received 0, sent 0, 0 conflicts.

            """)

        // Set up with the first calendar again: the three follow it back, nothing refused or doubled.
        XCTAssertEqual(try run("sync", "forget").status, 0)
        XCTAssertEqual(try run("sync", "setup", server.taskCalendar.absoluteString, "--user", "alice").status, 0)
        let back = try run("sync")
        XCTAssertEqual(back.status, 0, back.stdout + back.stderr)
        XCTAssertEqual(back.stdout.split(separator: "\n").filter { $0.hasPrefix("Moved ") }.count, 3, back.stdout)
        XCTAssertFalse(back.stdout.contains("Sent "), back.stdout)
        XCTAssertEqual(try run("list").stdout.split(separator: "\n").count, 3)
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
        XCTAssertTrue(
            moved.stdout.hasSuffix(
                "Synced the list Work with \"Work\": received 0, sent 0, moved 0 here, 0 conflicts.\n"), moved.stdout)
        let again = try run("sync").stdout
        XCTAssertFalse(again.contains("Sent") || again.contains("Received") || again.contains("Moved"), again)
    }
}
