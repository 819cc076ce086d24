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
        let script =
            "env \(environment.joined(separator: " ")) \(ShellWords.quoted(BinaryRunner.executable.path)) ui; exec sleep 600"
        // At 60×15: the report on a page.
        let small = try TmuxScreen(columns: 60, rows: 15, script: script)
        try small.waitFor("1 [ ] Buy milk")
        try small.press("S", until: #"Synced with "Tasks": received 0, sent 1, 0"#)
        try small.waitFor("Sent 1: Buy milk")
        try small.press("q", until: "1 [ ] Buy milk")
        // The phone adds a task and completes Buy milk; at 200×50, S brings both.
        _ = try phone(
            """
            for todo in calendar.todos():
                todo.complete()
            calendar.save_todo(summary='Call Mom')
            """)
        let screen = try TmuxScreen(columns: 200, rows: 50, script: script)
        try screen.waitFor("1 [ ] Buy milk")
        try screen.press("S", until: #"Synced with "Tasks": received 2, sent 0, 0 conflicts."#)
        try screen.send("q")
        try screen.waitFor("Call Mom")
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
