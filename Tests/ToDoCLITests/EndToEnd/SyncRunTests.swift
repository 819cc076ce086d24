import Foundation
import TestSupport
@testable import ToDoCore
import ToDoNetwork
import XCTest

/// Two lists and a phone kept in step through a real Radicale on 127.0.0.1: the phone is the
/// Python `caldav` library, stamping LAST-MODIFIED as phone apps do.
final class SyncRunTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var server: DAVServer!
    private let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)
    /// The time of both sides, moved on by the tests.
    private final class Clock: @unchecked Sendable {
        var now = 1_795_000_000.0
    }
    private let time = Clock()
    private var clock: Double {
        get { time.now }
        set { time.now = newValue }
    }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        server = try DAVServer(.radicale, in: directory.url)
    }

    override func tearDown() {
        server = nil
        directory = nil
        super.tearDown()
    }

    private var calendar: URL { server.url.appendingPathComponent("alice/tasks/") }

    /// A list set up to sync with the server's calendar.
    private func list(_ name: String) throws -> JSONFileStore {
        let store = JSONFileStore(fileURL: directory.file("\(name).json"), now: { [time] in Date(timeIntervalSince1970: time.now) })
        try store.update(withSyncState: { _, state in
            state = SyncState(account: SyncState.Account(calendar: calendar, calendarName: "Tasks", user: "alice", passwordCommand: nil,
                                                         allowsHTTP: false))
        })
        return store
    }

    private func sync(_ store: JSONFileStore, tieBreaker: SyncSide = .local, force: Bool = false) throws -> SyncReport {
        let client = CalDAVClient(transport: URLSessionTransport(), credentials: HTTPCredentials(user: "alice", password: "secret"), timeout: 20)
        return try SyncRun(store: store, client: client, timeZone: berlin, now: { [time] in Date(timeIntervalSince1970: time.now) },
                           productID: "-//todo//test//EN", tieBreaker: tieBreaker, force: force, command: ["sync"]).run()
    }

    /// Runs Python with the caldav library against the calendar: `script` sees `calendar`.
    private func phone(_ script: String) throws -> String {
        let python = try DAVServer.python()
        let prelude = """
            import caldav, datetime, sys
            client = caldav.DAVClient('\(calendar.absoluteString)', username='alice', password='secret')
            calendar = client.calendar(url='\(calendar.absoluteString)')
            def stamp(todo):
                component = todo.icalendar_component
                now = datetime.datetime.fromtimestamp(int(sys.argv[1]), tz=datetime.timezone.utc)
                for name in ('LAST-MODIFIED', 'DTSTAMP'):
                    if name in component: del component[name]
                    component.add(name, now)

            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", prelude + script, String(Int(clock))]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, failure)
        return text
    }

    func test_twoListsAndAPhone_converge() throws {
        let laptop = try list("laptop"), desktop = try list("desktop")
        try laptop.update { manager in
            _ = try manager.add(ToDoItem(title: "Buy milk"))
            _ = try manager.add(ToDoItem(title: "Call Mom", timestamp: 1_900_000_000, priority: 1, tags: ["family"]))
        }
        var report = try sync(laptop)
        XCTAssertEqual(report.sent.map(\.title), ["Buy milk", "Call Mom"])
        report = try sync(desktop)
        XCTAssertEqual(Set(report.received.added.map(\.title)), ["Buy milk", "Call Mom"])
        XCTAssertEqual(Set(try desktop.load().toDoItems.map(\.number)), [1, 2])
        XCTAssertEqual(try desktop.load().toDoItems.first { $0.title == "Call Mom" }?.tags, ["family"])

        // The phone sees both, completes one and adds one.
        XCTAssertEqual(try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"), "['Buy milk', 'Call Mom']\n")
        clock += 60
        _ = try phone("""
            for todo in calendar.todos():
                if str(todo.icalendar_component['SUMMARY']) == 'Buy milk':
                    todo.icalendar_component['STATUS'] = 'COMPLETED'
                    todo.icalendar_component.add('COMPLETED', datetime.datetime(2026, 11, 24, 12, 1, tzinfo=datetime.timezone.utc))
                    stamp(todo)
                    todo.save()
            calendar.save_todo(summary='Water the plants', uid='phone-1@example.com')
            """)
        // The desktop renames Call Mom meanwhile.
        clock += 60
        try desktop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems.first { $0.title == "Call Mom" }!.id) { $0.title = "Call Mom back" }
        }
        report = try sync(desktop)
        XCTAssertEqual(report.sent.map(\.title), ["Call Mom back"])
        XCTAssertEqual(Set(report.received.added.map(\.title) + report.received.updated.map(\.title)), ["Water the plants", "Buy milk"])
        report = try sync(laptop)
        let laptopList = try laptop.load()
        XCTAssertEqual(laptopList.toDoItems.map(\.title).sorted(), ["Call Mom back", "Water the plants"])
        XCTAssertEqual(laptopList.doneItems.map(\.title), ["Buy milk"])

        // A second sync right after sends and receives nothing.
        for store in [laptop, desktop] {
            let again = try sync(store)
            XCTAssertEqual(again.sent.count + again.received.added.count + again.received.updated.count + again.received.removed.count, 0)
        }
        XCTAssertEqual(try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos(include_completed=True)))"),
                       "['Buy milk', 'Call Mom back', 'Water the plants']\n")
    }

    /// The same field changed on both sides: the later change wins, and the loser is said.
    /// Different fields are both kept. A delete loses to an edit.
    func test_conflicts_theLaterChangeWins_andAnEditBeatsADelete() throws {
        let laptop = try list("laptop")
        try laptop.update { manager in
            _ = try manager.add(ToDoItem(title: "Tea"))
            _ = try manager.add(ToDoItem(title: "Bread"))
        }
        _ = try sync(laptop)
        clock += 60
        _ = try phone("""
            for todo in calendar.todos():
                component = todo.icalendar_component
                if str(component['SUMMARY']) == 'Tea':
                    component['SUMMARY'] = 'Green tea'
                    component.add('PRIORITY', 1)
                    stamp(todo)
                    todo.save()
                else:
                    todo.delete()
            """)
        clock += 60
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Black tea" }
            _ = try manager.updateItem(withID: manager.toDoItems[1].id) { $0.title = "Rye bread" }
        }
        let report = try sync(laptop)
        let items = try laptop.load().toDoItems
        XCTAssertEqual(items.map(\.title), ["Black tea", "Rye bread"], "the later title wins; the edited bread comes back")
        XCTAssertEqual(items[0].priority, 1, "the phone's priority is kept")
        XCTAssertEqual(report.conflicts.map(\.conflict.field), [.title])
        XCTAssertEqual(report.conflicts.first?.conflict.lost.title, "Green tea")
        XCTAssertEqual(report.keptAgainstDelete.map(\.item.title), ["Rye bread"])
        XCTAssertEqual(try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"), "['Black tea', 'Rye bread']\n")
    }

    /// A sync that would delete every item of a side is refused unless forced; nothing changes.
    func test_deletingEverything_isRefusedUnlessForced() throws {
        let laptop = try list("laptop")
        try laptop.update { manager in _ = try manager.add(ToDoItem(title: "Tea")) }
        _ = try sync(laptop)
        _ = try phone("for todo in calendar.todos(): todo.delete()")
        XCTAssertThrowsError(try sync(laptop)) { error in
            guard case .deletesTooMuch(let local, _, _, _)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertEqual(local, 1)
        }
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea"])
        _ = try sync(laptop, force: true)
        XCTAssertEqual(try laptop.load().toDoItems, [])
    }
}
