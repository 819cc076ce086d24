import Foundation
import TestSupport
import XCTest

@testable import ToDoCLI

/// `S` in `todo ui`, in a real terminal (tmux), against a real CalDAV server (Radicale) with a
/// phone (Python's caldav): the sync's report on a page, the phone's task on the screen, and
/// what the screen changed on the phone.
final class UISyncTests: SyncServerTestCase {
    func test_S_syncs_showsTheReport_andThePhonesTask() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        XCTAssertEqual(try run("add", "Buy milk").status, 0)
        let environment = todo.environment.map { "\($0.key)=\(ShellWords.quoted($0.value))" }.sorted()
        let screen = try TmuxScreen(
            columns: 80, rows: 20,
            script:
                "env \(environment.joined(separator: " ")) \(ShellWords.quoted(BinaryRunner.executable.path)) ui; exec sleep 600"
        )
        try screen.waitFor("1 [ ] Buy milk")
        try screen.press("S", until: #"Synced with "Tasks": received 0, sent 1, 0 conflicts."#)
        try screen.waitFor("Sent 1: Buy milk")
        try screen.send("q")
        // The phone adds a task and completes Buy milk; the screen checks nothing meanwhile.
        _ = try phone(
            """
            for todo in calendar.todos():
                todo.complete()
            calendar.save_todo(summary='Call Mom')
            """)
        try screen.press("S", until: #"Synced with "Tasks": received 2, sent 0, 0 conflicts."#)
        try screen.press("q", until: "Call Mom")
        try screen.waitFor("1 [x] Buy milk")
        // A check on the screen goes to the phone with the next S.
        try screen.send("g")
        try screen.press("x", until: "Checked 2: Call Mom")
        try screen.press("S", until: "sent 1, 0 conflicts.")
        let completed = try phone(
            """
            for todo in calendar.todos(include_completed=True):
                print(todo.icalendar_component['SUMMARY'], todo.icalendar_component.get('STATUS'))
            """)
        XCTAssertTrue(completed.contains("Call Mom COMPLETED"), completed)
    }
}
