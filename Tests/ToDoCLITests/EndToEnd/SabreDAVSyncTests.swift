import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

/// `todo sync` against a real SabreDAV 1.8 (Debian's `php-sabre-dav` under `php -S` on 127.0.0.1):
/// the library Nextcloud and Baïkal are built on, in a version without the sync-collection report,
/// so todo lists etags; and a server that refuses what its calendar does not take.
final class SabreDAVSyncTests: SyncServerTestCase {
    override var serverKind: DAVServer.Kind { .sabre }

    /// Sets the components the server's calendar takes, as its administrator would.
    private func calendarTakes(_ components: String) throws {
        let outcome = try todo.run(
            program: "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3
                db = sqlite3.connect('\(server.dataFolder.appendingPathComponent("db.sqlite").path)')
                db.execute("UPDATE calendars SET components = '\(components)'")
                db.commit()
                """
            ])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
    }

    func test_twoListsConverge_throughAServerWithoutSyncTokens() throws {
        for file in ["items.json", "desktop.json"] {
            XCTAssertEqual(
                try run("sync", "setup", server.url.absoluteString, "--user", "alice", file: file).stdout,
                """
                Found the calendar "Tasks" at \(server.taskCalendar.absoluteString) for alice, with 0 tasks.
                Run todo sync to sync.

                """)
        }
        for title in ["Tea", "Milk", "Bread"] { XCTAssertEqual(try run("add", title).status, 0) }
        XCTAssertEqual(
            try run("sync").stdout,
            "Sent 1: Tea\nSent 2: Milk\nSent 3: Bread\nSynced with \"Tasks\": received 0, sent 3, 0 conflicts.\n")
        XCTAssertEqual(
            try run("sync", file: "desktop.json").stdout.hasSuffix("received 3, sent 0, 0 conflicts.\n"), true)
        XCTAssertEqual(try run("edit", "1", "--title", "Green tea", file: "desktop.json").status, 0)
        XCTAssertEqual(try run("remove", "2", file: "desktop.json").status, 0)
        XCTAssertEqual(
            try run("sync", file: "desktop.json").stdout.hasSuffix(
                "received 0, sent 1, deleted 1 on the server, 0 conflicts.\n"), true)
        let laptop = try run("sync").stdout
        XCTAssertTrue(
            laptop.contains("Removed 2: Milk (deleted on the server)\n") && laptop.contains("Updated 1: Green tea\n"),
            laptop)
        XCTAssertTrue(laptop.hasSuffix("received 1, removed 1 here, sent 0, 0 conflicts.\n"), laptop)
        XCTAssertEqual(try run("list").stdout, try run("list", file: "desktop.json").stdout)
        XCTAssertEqual(try run("sync").stdout, "Synced with \"Tasks\": received 0, sent 0, 0 conflicts.\n")
    }

    /// A calendar that stops taking tasks refuses each upload with 403 and its reason: the
    /// others (a delete) go through, the sync exits 1 naming each, and the next sync sends them.
    func test_uploadsTheServerRefuses_areSaid_theRestIsSent_andTheyAreSentLater() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        for title in ["Tea", "Milk", "Bread"] { XCTAssertEqual(try run("add", title).status, 0) }
        XCTAssertEqual(try run("sync").status, 0)
        try calendarTakes("VEVENT")
        XCTAssertEqual(try run("edit", "1", "--title", "Green tea").status, 0)
        XCTAssertEqual(try run("remove", "2").status, 0)
        XCTAssertEqual(try run("add", "Honey").status, 0)
        let reason =
            "the server refused it (403 supported-calendar-component: This calendar only supports VEVENT. We found a VTODO)"
        XCTAssertEqual(
            try run("sync"),
            Outcome(
                status: 1,
                stdout: """
                    Deleted on the server: Milk
                    Not sent 1: Green tea (\(reason))
                    Not sent 4: Honey (\(reason))
                    Synced with "Tasks": received 0, sent 0, deleted 1 on the server, 0 conflicts.

                    """,
                stderr:
                    "Error: the server refused 2 changes (said above); the rest was synced, and the next sync tries them again\n"
            ))
        // Scripts see the same in --json: each refused change with its reason, and exit 1.
        XCTAssertEqual(try run("edit", "1", "--title", "Green tea again").status, 0)
        let json = try run("sync", "--json")
        XCTAssertEqual(json.status, 1)
        guard case .object(let report)? = try? JSONValue(parsing: Array(json.stdout.utf8)),
            case .array(let refused)? = report["refused"]
        else {
            return XCTFail(json.stdout)
        }
        XCTAssertEqual(
            refused.compactMap { entry -> String? in
                guard case .object(let object) = entry, case .number(let number)? = object["number"],
                    case .string(let why)? = object["reason"]
                else { return nil }
                return "\(number) \(why)"
            }, ["1 \(reason)", "4 \(reason)"])
        XCTAssertEqual(try run("edit", "1", "--title", "Green tea").status, 0)
        try calendarTakes("VTODO")
        XCTAssertEqual(
            try run("sync"),
            Outcome(
                status: 0,
                stdout: """
                    Sent 1: Green tea
                    Sent 4: Honey
                    Synced with "Tasks": received 0, sent 2, 0 conflicts.

                    """, stderr: ""))
        XCTAssertEqual(
            try run("sync", "setup", server.url.absoluteString, "--user", "alice", file: "other.json").status, 0)
        XCTAssertEqual(try run("sync", file: "other.json").status, 0)
        XCTAssertEqual(
            try run("list", file: "other.json").stdout.split(separator: "\n").map {
                $0.split(separator: " ", maxSplits: 3).last.map(String.init) ?? ""
            }.sorted(),
            ["Bread", "Green tea", "Honey"])
    }
}
