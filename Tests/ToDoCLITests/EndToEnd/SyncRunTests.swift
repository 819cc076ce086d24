import Foundation
import TestSupport
import ToDoModel
import ToDoURLSession
import XCTest

@testable import ToDoCore
@testable import ToDoNetwork

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

    private var calendar: WebAddress { server.url.appendingPathComponent("alice/tasks/") }

    /// A list set up to sync with the calendar (Radicale's "Tasks" unless another is named),
    /// holding items of these titles.
    private func list(
        _ name: String, holding titles: [String] = [], calendar: WebAddress? = nil, calendarName: String = "Tasks",
        lockTimeout: Double = 10
    ) throws -> JSONFileStore {
        let store = JSONFileStore(
            fileURL: directory.file("\(name).json"), lockTimeout: lockTimeout,
            now: { [time] in Date(timeIntervalSince1970: time.now) })
        let account = SyncState.Account(
            calendar: calendar ?? self.calendar, calendarName: calendarName, user: "alice", passwordCommand: nil,
            allowsHTTP: false)
        try store.update(withSyncState: { manager, state in
            for title in titles { _ = try manager.add(ToDoItem(title: title)) }
            state = SyncState(account: account)
        })
        return store
    }

    private func sync(
        _ store: JSONFileStore, tieBreaker: SyncSide = .local, force: Bool = false,
        transport: any HTTPTransport = URLSessionTransport(), password: String = "secret", timeout: Double = 20
    ) throws -> SyncReport {
        try syncRun(
            store, tieBreaker: tieBreaker, force: force, transport: transport, password: password, timeout: timeout
        ).run()
    }

    /// A sync of `store` with the calendar, ready to run.
    private func syncRun(
        _ store: JSONFileStore, tieBreaker: SyncSide = .local, force: Bool = false,
        transport: any HTTPTransport = URLSessionTransport(), password: String = "secret", timeout: Double = 20
    ) -> SyncRun {
        let client = CalDAVClient(
            transport: transport, credentials: HTTPCredentials(user: "alice", password: password), timeout: timeout)
        return SyncRun(
            store: store, client: client, timeZone: berlin, now: { [time] in Date(timeIntervalSince1970: time.now) },
            productID: "-//todo//test//EN", tieBreaker: tieBreaker, force: force, command: ["sync"])
    }

    /// The phone: Python with the caldav library against the calendar, stamping its changes with
    /// the tests' clock (`stamp(todo)`), as phone apps stamp theirs.
    private struct Phone: Sendable {
        let python: String
        let calendar: String
        let time: Clock

        /// Runs `script`, which sees `calendar`; its output, or why it failed.
        func run(_ script: String) throws -> (output: String, failure: String?) {
            let prelude = """
                import caldav, datetime, sys
                client = caldav.DAVClient('\(calendar)', username='alice', password='secret')
                calendar = client.calendar(url='\(calendar)')
                def stamp(todo):
                    component = todo.icalendar_component
                    now = datetime.datetime.fromtimestamp(int(sys.argv[1]), tz=datetime.timezone.utc)
                    for name in ('LAST-MODIFIED', 'DTSTAMP'):
                        if name in component: del component[name]
                        component.add(name, now)

                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", prelude + script, String(Int(time.now))]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (text, process.terminationStatus == 0 ? nil : failure)
        }
    }

    /// The phone sets `property` of the task titled `title` to `value`, stamped with the clock.
    private func phone(sets property: String, to value: String, onTaskTitled title: String) throws {
        _ = try phone(
            """
            for todo in calendar.todos():
                if str(todo.icalendar_component['SUMMARY']) == '\(title)':
                    todo.icalendar_component['\(property)'] = '\(value)'
                    stamp(todo)
                    todo.save()
            """)
    }

    private func phoneRunner() throws -> Phone {
        Phone(python: try DAVServer.python(), calendar: calendar.absoluteString, time: time)
    }

    /// Runs `script` on the phone; its output.
    private func phone(_ script: String) throws -> String {
        let (output, failure) = try phoneRunner().run(script)
        XCTAssertNil(failure)
        return output
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
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Buy milk', 'Call Mom']\n")
        clock += 60
        _ = try phone(
            """
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
            _ = try manager.updateItem(withID: manager.toDoItems.first { $0.title == "Call Mom" }!.id) {
                $0.title = "Call Mom back"
            }
        }
        report = try sync(desktop)
        XCTAssertEqual(report.sent.map(\.title), ["Call Mom back"])
        XCTAssertEqual(
            Set(report.received.added.map(\.title) + report.received.updated.map(\.title)),
            ["Water the plants", "Buy milk"])
        report = try sync(laptop)
        let laptopList = try laptop.load()
        XCTAssertEqual(laptopList.toDoItems.map(\.title).sorted(), ["Call Mom back", "Water the plants"])
        XCTAssertEqual(laptopList.doneItems.map(\.title), ["Buy milk"])

        // A second sync right after sends and receives nothing.
        for store in [laptop, desktop] {
            let again = try sync(store)
            XCTAssertEqual(
                again.sent.count + again.received.added.count + again.received.updated.count
                    + again.received.removed.count, 0)
        }
        XCTAssertEqual(
            try phone(
                "print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos(include_completed=True)))"),
            "['Buy milk', 'Call Mom back', 'Water the plants']\n")
    }

    /// The first sync of a list that already holds items into a calendar that already holds them
    /// pairs them by UID (both lists read from one export), then open items by content: nothing is
    /// doubled on either side.
    func test_theFirstSyncOfTwoFullLists_doublesNothing() throws {
        let laptop = try list("laptop"), desktop = try list("desktop")
        let tea = ToDoItem(title: "Tea", timestamp: 1_900_000_000, priority: 1)
        try laptop.update { manager in
            _ = try manager.add(tea)
            _ = try manager.add(ToDoItem(title: "Milk"))
        }
        _ = try sync(laptop)
        try desktop.update { manager in
            _ = try manager.add(tea)
            _ = try manager.add(ToDoItem(title: "Milk"))
            _ = try manager.add(ToDoItem(title: "Bread"))
        }
        let report = try sync(desktop)
        XCTAssertEqual(report.sent.map(\.title), ["Bread"])
        XCTAssertEqual(report.received.added.count + report.received.twins.count, 0)
        XCTAssertEqual(try desktop.load().toDoItems.map(\.title), ["Tea", "Milk", "Bread"])
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Bread', 'Milk', 'Tea']\n")
        XCTAssertEqual(try sync(laptop).received.added.map(\.title), ["Bread"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea", "Milk", "Bread"])
    }

    /// The calendar's later change won a conflict: `todo undo` takes the sync back like any change,
    /// and the next sync sends this list's value.
    func test_undoingASync_bringsBackWhatLost_andTheNextSyncSendsIt() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        clock += 60
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Green tea" }
        }
        clock += 60
        _ = try phone(
            """
            for todo in calendar.todos():
                todo.icalendar_component['SUMMARY'] = 'Black tea'
                stamp(todo)
                todo.save()
            """)
        var report = try sync(laptop)
        XCTAssertEqual(report.conflicts.map(\.conflict.winner), [.remote])
        XCTAssertEqual(report.conflicts.map(\.conflict.lost.title), ["Green tea"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Black tea"])

        let (taken, _) = try laptop.undo(.latest(1), command: ["undo"])
        XCTAssertEqual(taken.map(\.command), [["sync"]])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Green tea"])
        report = try sync(laptop)
        XCTAssertEqual(report.sent.map(\.title), ["Green tea"])
        XCTAssertEqual(report.conflicts.count, 0)
        XCTAssertEqual(
            try phone("print([str(t.icalendar_component['SUMMARY']) for t in calendar.todos()])"), "['Green tea']\n")
    }

    /// What arrives is never refused by the uniqueness rule (the calendar's data is not this
    /// list's to refuse): an open twin of an open item here is let in, and said.
    func test_anOpenTwinArrives_andIsSaid() throws {
        let laptop = try list("laptop", holding: ["Milk"])
        _ = try sync(laptop)
        _ = try phone("calendar.save_todo(summary='Milk', uid='milk@phone')")
        let report = try sync(laptop)
        XCTAssertEqual(report.received.added.map(\.title), ["Milk"])
        XCTAssertEqual(report.received.twins.map { [$0.arrived.number, $0.existing.number] }, [[2, 1]])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Milk", "Milk"])
    }

    /// An item added here while a sync waits for the server is kept: the sync reads the list
    /// again under the lock, and sends it too.
    func test_anItemAddedDuringASync_isKept_andSent() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        final class Once: @unchecked Sendable { var done = false }
        let once = Once()
        let meanwhile = interposed { [laptop] request, send throws(HTTPError) in
            let answer = try send(request)
            if request.method == "REPORT", !once.done {
                once.done = true
                do {
                    try laptop.update(command: ["add", "Eggs"]) { manager in
                        _ = try manager.add(ToDoItem(title: "Eggs"))
                    }
                } catch {
                    throw .failed("\(error)")
                }
            }
            return answer
        }
        let report = try sync(laptop, transport: meanwhile)
        XCTAssertEqual(report.sent.map(\.title), ["Tea", "Eggs"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea", "Eggs"])
        XCTAssertEqual(
            try laptop.history().entries.map(\.command), [[], ["add", "Eggs"]], "the sync itself changed nothing here")
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Eggs', 'Tea']\n")
    }

    /// A server that answers 500, refuses the password, or is too slow to answer stops the sync
    /// with an error, within the timeout, and changes nothing here; the next sync that reaches it
    /// does what there was to do.
    func test_aServerThatFails_refusesThePassword_orIsSlow_changesNothing() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        _ = try phone("calendar.save_todo(summary='Milk', uid='milk@phone')")
        try laptop.update { manager in _ = try manager.add(ToDoItem(title: "Bread")) }
        let files = ["laptop.json", "laptop.json.sync", "laptop.json.history"].map { directory.file($0) }
        let before = try files.map { try Data(contentsOf: $0) }

        let failing = interposed { request, send throws(HTTPError) in
            request.method == "REPORT"
                ? HTTPResponse(status: 500, body: Array("Internal Server Error".utf8)) : try send(request)
        }
        XCTAssertThrowsError(try sync(laptop, transport: failing)) {
            XCTAssertEqual($0 as? SyncError, .server(.unexpectedStatus(500, while: "asking what changed")))
        }
        XCTAssertThrowsError(try sync(laptop, password: "wrong")) {
            XCTAssertEqual($0 as? SyncError, .server(.credentialsRefused))
        }
        let slow = try LocalHTTPServer { _ in
            LocalHTTPServer.Response(status: 207, body: "", contentType: "application/xml", delay: 10)
        }
        let started = Date()
        let slowly = interposed { request, send throws(HTTPError) in
            var elsewhere = request
            elsewhere.url = WebAddress(string: slow.url(request.url.path))!
            return try send(elsewhere)
        }
        XCTAssertThrowsError(try sync(laptop, transport: slowly, timeout: 1)) {
            guard case .server(.unreachable)? = $0 as? SyncError else { return XCTFail("\($0)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the timeout, not the server, ends the wait")
        XCTAssertEqual(try files.map { try Data(contentsOf: $0) }, before, "nothing changed here")

        let report = try sync(laptop)
        XCTAssertEqual(report.sent.map(\.title), ["Bread"])
        XCTAssertEqual(report.received.added.map(\.title), ["Milk"])
    }

    /// The same field changed on both sides: the later change wins, and the loser is said.
    /// Different fields are both kept. A delete loses to an edit.
    func test_conflicts_theLaterChangeWins_andAnEditBeatsADelete() throws {
        let laptop = try list("laptop", holding: ["Tea", "Bread"])
        _ = try sync(laptop)
        clock += 60
        _ = try phone(
            """
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
        XCTAssertEqual(
            items.map(\.title), ["Black tea", "Rye bread"], "the later title wins; the edited bread comes back")
        XCTAssertEqual(items[0].priority, 1, "the phone's priority is kept")
        XCTAssertEqual(report.conflicts.map(\.conflict.field), [.title])
        XCTAssertEqual(report.conflicts.first?.conflict.lost.title, "Green tea")
        XCTAssertEqual(report.keptAgainstDelete.map(\.item.title), ["Rye bread"])
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Black tea', 'Rye bread']\n")
    }

    /// A phone script that never moves LAST-MODIFIED (python-caldav's `save()` keeps what todo
    /// wrote): which change came later cannot be told, so `--prefer` decides, and says so.
    func test_aChangeWhoseTimeDidNotMove_isDecidedByPrefer_andSaidSo() throws {
        let laptop = try list("laptop", holding: ["Tea", "Bread"])
        _ = try sync(laptop)
        clock += 60
        _ = try phone(
            """
            for todo in calendar.todos():
                todo.icalendar_component['SUMMARY'] = 'Phone ' + str(todo.icalendar_component['SUMMARY'])
                todo.save()
            """)
        clock += 60
        try laptop.update { manager in
            for item in manager.toDoItems {
                _ = try manager.updateItem(withID: item.id) { $0.title = "Laptop " + $0.title }
            }
        }
        var report = try sync(laptop, tieBreaker: .remote)
        XCTAssertEqual(
            try laptop.load().toDoItems.map(\.title), ["Phone Tea", "Phone Bread"],
            "the phone's, as preferred, not the laptop's later time")
        XCTAssertEqual(report.conflicts.map(\.conflict.winner), [.remote, .remote])
        XCTAssertEqual(report.conflicts.map(\.conflict.byPreference), [true, true])

        clock += 60
        _ = try phone(
            """
            for todo in calendar.todos():
                todo.icalendar_component['SUMMARY'] = str(todo.icalendar_component['SUMMARY']) + ' again'
                todo.save()
            """)
        try laptop.update { manager in _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Mine" }
        }
        report = try sync(laptop, tieBreaker: .local)
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Mine", "Phone Bread again"])
        XCTAssertEqual(report.conflicts.map(\.conflict.byPreference), [true])
    }

    /// A place whose address alone changed is a change to sync, both ways (the book's equality
    /// of places leaves the address out).
    func test_anAddressOnlyEdit_travelsBothWays() throws {
        let laptop = try list("laptop")
        try laptop.update { manager in
            _ = try manager.add(ToDoItem(title: "Dentist", location: Location(name: "Clinic", address: "1 Main St")))
        }
        _ = try sync(laptop)
        clock += 60
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.location?.address = "2 Side St" }
        }
        XCTAssertEqual(try sync(laptop).sent.map(\.title), ["Dentist"])
        XCTAssertEqual(
            try phone("print(str(calendar.todos()[0].icalendar_component['X-TODO-ADDRESS']))"), "2 Side St\n")
        clock += 60
        try phone(sets: "X-TODO-ADDRESS", to: "3 Hill Rd", onTaskTitled: "Dentist")
        XCTAssertEqual(try sync(laptop).received.updated.map(\.title), ["Dentist"])
        XCTAssertEqual(try laptop.load().toDoItems[0].location?.address, "3 Hill Rd")
        XCTAssertEqual(try sync(laptop).sent.count, 0)
    }

    /// A task cancelled on the phone (jtx Board and Thunderbird can) is done here, not open: todo
    /// has no cancelled state, and a cancelled task is not to be done.
    func test_aTaskCancelledOnThePhone_isDoneHere() throws {
        let laptop = try list("laptop", holding: ["Tea", "Milk"])
        _ = try sync(laptop)
        clock += 60
        try phone(sets: "STATUS", to: "CANCELLED", onTaskTitled: "Milk")
        let report = try sync(laptop)
        XCTAssertEqual(report.received.updated.map(\.title), ["Milk"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea"])
        XCTAssertEqual(try laptop.load().doneItems.map(\.title), ["Milk"])
        XCTAssertEqual(try sync(laptop).sent.count, 0, "the phone's CANCELLED stays as it is")
        XCTAssertEqual(
            try phone(
                "print([str(t.icalendar_component.get('STATUS')) for t in calendar.todos(include_completed=True) "
                    + "if str(t.icalendar_component['SUMMARY']) == 'Milk'])"), "['CANCELLED']\n")
    }

    /// Two syncs of one list at once (a timer's and the user's): each item reaches the server
    /// once, and the list holds each once.
    func test_twoSyncsAtOnce_doubleNothing() throws {
        // The second waits for the first however long it takes: a loaded machine (CI's two cores
        // running tests side by side) took 22 seconds, past the default 10.
        let laptop = try list("laptop", holding: (1...40).map { "Task \($0)" }, lockTimeout: 120)
        _ = try phone("calendar.save_todo(summary='Milk', uid='milk@phone')")
        final class Failures: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [String] = []
            func add(_ error: Error) { lock.lock(); errors.append("\(error)"); lock.unlock() }
            var all: [String] { lock.lock(); defer { lock.unlock() }; return errors }
        }
        /// A sync handed to another thread (its clock reads the tests' clock, which does not move meanwhile).
        final class Handed: @unchecked Sendable {
            let run: SyncRun
            init(_ run: SyncRun) { self.run = run }
        }
        let failures = Failures()
        let group = DispatchGroup()
        for handed in [Handed(syncRun(laptop)), Handed(syncRun(laptop))] {
            DispatchQueue.global().async(group: group) {
                do { _ = try handed.run.run() } catch { failures.add(error) }
            }
        }
        group.wait()
        XCTAssertEqual(failures.all, [])
        // What a sync cut short by the other's changes left is finished by the next one.
        _ = try sync(laptop)
        let titles = try laptop.load().toDoItems.map(\.title)
        XCTAssertEqual(titles.count, 41)
        XCTAssertEqual(Set(titles).count, 41)
        XCTAssertEqual(
            try phone(
                "t = [str(t.icalendar_component['SUMMARY']) for t in calendar.todos()]; print(len(t), len(set(t)))"),
            "41 41\n")
        let again = try sync(laptop)
        XCTAssertEqual(again.sent.count + again.received.added.count + again.received.updated.count, 0)
    }

    /// A sync that would delete every item of a side is refused unless forced; nothing changes.
    func test_deletingEverything_isRefusedUnlessForced() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        _ = try phone("for todo in calendar.todos(): todo.delete()")
        XCTAssertThrowsError(try sync(laptop)) { error in
            guard case .deletesTooMuch(let local, _, _, _, _)? = error as? SyncError else { return XCTFail("\(error)") }
            XCTAssertEqual(local, 1)
        }
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea"])
        _ = try sync(laptop, force: true)
        XCTAssertEqual(try laptop.load().toDoItems, [])
    }

    // MARK: What a real server will not do on demand

    /// The real server behind a script that may change what goes or comes back, and counts requests.
    /// The real server, with the tasks it gives when asked for them (`calendar-multiget`) rewritten.
    private func fetchedTasksRewritten(_ rewrite: @escaping @Sendable (inout [UInt8]) -> Void) -> ScriptedTransport {
        interposed { request, send throws(HTTPError) in
            var answer = try send(request)
            if String(decoding: request.body ?? [], as: UTF8.self).contains("calendar-multiget") {
                rewrite(&answer.body)
            }
            return answer
        }
    }

    private func interposed(
        _ change:
            @escaping @Sendable (HTTPRequest, (HTTPRequest) throws(HTTPError) -> HTTPResponse) throws(HTTPError) ->
            HTTPResponse
    )
        -> ScriptedTransport
    {
        let real = URLSessionTransport()
        return ScriptedTransport { request throws(HTTPError) in
            try change(request) { request throws(HTTPError) in try real.send(request) }
        }
    }

    /// A server (or whoever sits between) listing hrefs on another host or outside the calendar
    /// gets nothing sent there, neither the password nor the list nor a DELETE: they are left
    /// alone and said, and the rest syncs.
    func test_hrefsOutsideTheCalendar_areNeverFollowed_andAreSaid() throws {
        let elsewhere = try LocalHTTPServer { _ in LocalHTTPServer.Response(status: 201, body: "") }
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        _ = try phone("calendar.save_todo(summary='Milk', uid='milk@phone')")
        let planted = [
            "//127.0.0.1:\(elsewhere.port)/steal.ics", "/alice/tasks/../other/evil.ics",
            "http://127.0.0.1:\(elsewhere.port)/alice/tasks/x.ics"
        ]
        let hostile = interposed { request, send throws(HTTPError) in
            var answer = try send(request)
            guard request.method == "REPORT",
                let end = String(decoding: answer.body, as: UTF8.self).range(of: "</", options: .backwards)
            else { return answer }
            var text = String(decoding: answer.body, as: UTF8.self)
            let extra = planted.map { href in
                #"<response xmlns="DAV:"><href>\#(href)</href><propstat><prop><getetag>"e"</getetag>"#
                    + #"<C:calendar-data xmlns:C="urn:ietf:params:xml:ns:caldav">BEGIN:VCALENDAR\#nBEGIN:VTODO\#nUID:evil\#nSUMMARY:Evil\#nEND:VTODO\#nEND:VCALENDAR\#n</C:calendar-data>"#
                    + "</prop><status>HTTP/1.1 200 OK</status></propstat></response>"
            }.joined()
            text.insert(contentsOf: extra, at: end.lowerBound)
            answer.body = Array(text.utf8)
            return answer
        }
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.item(at: 0).id) { $0.title = "Green tea" }
        }
        let report = try sync(laptop, transport: hostile)

        XCTAssertEqual(report.received.added.map(\.title), ["Milk"])
        XCTAssertEqual(report.sent.map(\.title), ["Green tea"])
        XCTAssertEqual(report.unreadable.map(\.href), planted)
        XCTAssertEqual(Set(report.unreadable.map(\.reason)), ["not in the calendar: todo sends nothing there"])
        XCTAssertEqual(elsewhere.requests.count, 0, "nothing went to the other server")
        for request in hostile.requests {
            XCTAssertEqual(request.url.port, server.url.port)
            XCTAssertTrue(request.url.path.hasPrefix("/alice/tasks"), request.url.path)
        }
        XCTAssertFalse(try laptop.load().allItems.contains { $0.title == "Evil" })
        // What the server holds under the calendar still syncs; the token moved on past the planted hrefs.
        try laptop.update { manager in manager.checkItem(at: 0) }
        XCTAssertEqual(try sync(laptop).sent.count, 1)
    }

    /// A server that refuses one upload (Cyrus's 403 for a UID another calendar of the account
    /// holds, with the href in its body) gets the rest all the same; the refused one is named with
    /// the server's reason and sent again by the next sync.
    func test_oneRefusedUpload_stopsNothingElse_andIsTriedAgain() throws {
        let laptop = try list("laptop", holding: ["One", "Two", "Three", "Four"])
        let third = try laptop.load().toDoItems[2]
        let refusing = interposed { request, send throws(HTTPError) in
            guard request.method == "PUT", String(decoding: request.body ?? [], as: UTF8.self).contains("SUMMARY:Three")
            else { return try send(request) }
            return HTTPResponse(
                status: 403,
                body: Array(
                    ("""
                    <?xml version="1.0" encoding="utf-8"?>
                    <D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:unique-scheduling-object-resource>\
                    <D:href>/dav/calendars/user/alice/Default/\(third.uid).ics</D:href></C:unique-scheduling-object-resource></D:error>
                    """).utf8))
        }
        let report = try sync(laptop, transport: refusing)
        XCTAssertEqual(report.sent.map(\.title), ["One", "Two", "Four"])
        XCTAssertEqual(report.refused.map(\.item.title), ["Three"])
        XCTAssertEqual(
            report.refused.first?.reason,
            "the server refused it (403 unique-scheduling-object-resource): a task with its UID is already at"
                + " /dav/calendars/user/alice/Default/\(third.uid).ics, and the server keeps a UID in one calendar;"
                + " sync with that calendar (todo sync forget, then todo sync setup \(server.url.absoluteString)dav/calendars/user/alice/Default/),"
                + " or remove the task there")
        XCTAssertEqual(try laptop.loadSyncState()?.inStep, false)
        let again = try sync(laptop)
        XCTAssertEqual(again.sent.map(\.title), ["Three"])
        XCTAssertEqual(again.refused.count, 0)
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Four', 'One', 'Three', 'Two']\n")
    }

    /// A 5xx to a write named by its version (SOGo's answer when its database sees two writes at
    /// once) is fetched, merged and sent again, as a 412 is; one the server keeps giving is said.
    func test_aServerErrorToAConditionalWrite_isTriedAgain_andSaidWhenItStays() throws {
        let laptop = try list("laptop", holding: ["Tea", "Milk"])
        _ = try sync(laptop)
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Green tea" }
        }
        let failures = SharedLog<Int>()
        let failingOnce = interposed { request, send throws(HTTPError) in
            guard request.method == "PUT", request.headers["If-Match"] != nil, failures.count == 0 else {
                return try send(request)
            }
            failures.append(500)
            return HTTPResponse(status: 500, body: Array("could not serialize access due to concurrent update".utf8))
        }
        var report = try sync(laptop, transport: failingOnce)
        XCTAssertEqual(report.sent.map(\.title), ["Green tea"])
        XCTAssertEqual(report.refused.count, 0)
        XCTAssertEqual(report.rounds, 2)

        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[1].id) { $0.title = "Oat milk" }
        }
        let failingAlways = interposed { request, send throws(HTTPError) in
            request.method == "PUT" ? HTTPResponse(status: 503, body: []) : try send(request)
        }
        report = try sync(laptop, transport: failingAlways)
        XCTAssertEqual(report.sent.count, 0)
        XCTAssertEqual(report.refused.map(\.item.title), ["Oat milk"])
        XCTAssertEqual(report.refused.first?.reason, "the server refused it (503)")
        XCTAssertEqual(try sync(laptop).sent.map(\.title), ["Oat milk"])
    }

    /// SOGo lists an href holding `&` as itself, then answers 404 for it, while the escaped form
    /// works: the task is fetched and changed by its escaped href, never taken as gone.
    func test_anHrefTheServerListsRawButServesEscaped_isFetchedAndChanged() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        _ = try phone("calendar.save_todo(summary='Honey', uid='milk&honey')")
        let sogo = interposed { request, send throws(HTTPError) in
            let body = String(decoding: request.body ?? [], as: UTF8.self)
            if request.url.absoluteString.contains("&") { return HTTPResponse(status: 404, body: []) }
            if body.contains("calendar-multiget"),
                let raw = body.range(of: #"<d:href>[^<]*&amp;[^<]*</d:href>"#, options: .regularExpression)
            {
                // As the real SOGo 5.8 answers: a 404 for the href cut at its `&`.
                let href = body[raw].dropFirst(8).dropLast(9).components(separatedBy: "&amp;")[0]
                return HTTPResponse(
                    status: 207,
                    body: Array(
                        #"<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>\#(href)</href><status>HTTP/1.1 404 Not Found</status></response></multistatus>"#
                            .utf8))
            }
            var answer = try send(request)
            answer.body = Array(
                String(decoding: answer.body, as: UTF8.self).replacingOccurrences(of: "%26", with: "&amp;").utf8)
            return answer
        }
        var report = try sync(laptop, transport: sogo)
        XCTAssertEqual(report.received.added.map(\.title), ["Honey"])
        guard report.received.added.count == 1 else { return }
        XCTAssertEqual(report.unreadable.count, 0)
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[1].id) { $0.title = "Raw honey" }
        }
        report = try sync(laptop, transport: sogo)
        XCTAssertEqual(report.sent.map(\.title), ["Raw honey"])
        XCTAssertEqual(report.refused.count, 0)
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Raw honey', 'Tea']\n")
        report = try sync(laptop, transport: sogo)
        XCTAssertEqual(report.sent.count + report.received.added.count + report.received.removed.count, 0)
    }

    /// Two resources of one UID (a calendar may hold them; Radicale's files were copied here):
    /// the list takes one, the other is left alone and said, and no later sync deletes it.
    func test_twoResourcesOfOneUID_theSecondIsLeftAlone_neverDeleted() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        let folder = directory.url.appendingPathComponent("dav-radicale/collections/collection-root/alice/tasks")
        let original = try XCTUnwrap(
            FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".ics") })
        let text = try String(contentsOf: folder.appendingPathComponent(original), encoding: .utf8)
        try text.replacingOccurrences(of: "SUMMARY:Tea", with: "SUMMARY:Tea copy").write(
            to: folder.appendingPathComponent("copy.ics"), atomically: true, encoding: .utf8)

        var report = try sync(laptop)
        XCTAssertEqual(report.unreadable.map(\.href), ["/alice/tasks/copy.ics"])
        XCTAssertEqual(
            report.unreadable.first?.reason,
            "the task at /alice/tasks/\(original) has its UID, and the list takes one task of a UID; left as it is on the server"
        )
        XCTAssertEqual(report.received.added.count + report.received.refused.count, 0)
        try laptop.update { manager in _ = try manager.add(ToDoItem(title: "Milk")) }
        for _ in 0..<2 {
            report = try sync(laptop)
            XCTAssertEqual(report.deletedRemotely.count, 0)
        }
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.ics").path), "never deleted")
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea", "Milk"])
    }

    /// A task whose text is not UTF-8 (an old app's Latin-1) no longer makes its whole batch
    /// unreadable, every sync: it is read as Windows-1252, as an import reads such a file.
    func test_aTaskThatIsNotUTF8_isReadAsLatin1_andTheRestOfItsBatchArrives() throws {
        let laptop = try list("laptop")
        _ = try phone(
            "calendar.save_todo(summary='Cafe', uid='cafe@phone'); calendar.save_todo(summary='Milk', uid='milk@phone')"
        )
        let latin = fetchedTasksRewritten { body in
            if let range = body.firstRange(of: Array("SUMMARY:Cafe".utf8)) {
                body.replaceSubrange(range, with: Array("SUMMARY:Caf".utf8) + [0xE9])
            }
        }
        let report = try sync(laptop, transport: latin)
        XCTAssertEqual(report.unreadable.count, 0)
        XCTAssertEqual(Set(report.received.added.map(\.title)), ["Café", "Milk"])
    }

    /// A calendar emptied a little before each sync (just under half each time) is refused once
    /// the day's deletions cross the limit one sync has; a day later, or forced, it goes on.
    func test_deletionsOverADay_areCountedTogether() throws {
        let laptop = try list("laptop", holding: (1...30).map { "Task \($0)" })
        _ = try sync(laptop)
        func phoneDeletes(_ count: Int) throws {
            _ = try phone(
                "for todo in sorted(calendar.todos(), key=lambda t: str(t.icalendar_component['SUMMARY']))[:\(count)]: todo.delete()"
            )
        }
        clock += 60
        try phoneDeletes(14)
        XCTAssertEqual(try sync(laptop).received.removed.count, 14, "14 of 30 is under half")
        clock += 3_600
        try phoneDeletes(7)
        XCTAssertThrowsError(try sync(laptop)) { error in
            XCTAssertEqual(
                error as? SyncError, .deletesTooMuch(local: 7, remote: 0, localCount: 30, remoteCount: 9, earlier: 14),
                "21 of 30 in a day")
        }
        XCTAssertEqual(try laptop.load().toDoItems.count, 16, "nothing was changed")
        clock += 86_400
        XCTAssertEqual(try sync(laptop).received.removed.count, 7, "a day later, 7 of 16 is under half")
        try phoneDeletes(5)
        XCTAssertThrowsError(try sync(laptop))
        XCTAssertEqual(try sync(laptop, force: true).received.removed.count, 5)
    }

    /// A task larger than todo takes for one (8 MB) is left alone and said; the rest arrives.
    func test_aTaskLargerThanTodoTakes_isLeftAlone_andTheRestArrives() throws {
        let laptop = try list("laptop")
        _ = try phone(
            "calendar.save_todo(summary='Big', uid='big@phone'); calendar.save_todo(summary='Milk', uid='milk@phone')")
        let swelling = fetchedTasksRewritten { body in
            guard let range = body.firstRange(of: Array("SUMMARY:Big".utf8)) else { return }
            body.replaceSubrange(
                range,
                with: Array("SUMMARY:Big\nDESCRIPTION:".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 9 << 20))
        }
        let report = try sync(laptop, transport: swelling)
        XCTAssertEqual(report.received.added.map(\.title), ["Milk"])
        XCTAssertEqual(report.unreadable.map(\.reason), ["9 MB, more than the 8 MB todo takes for one task"])
    }

    /// DAViCal and SOGo take two writes of one version at the same moment and give no ETag: the
    /// write read back holds the other laptop's version, so the two are merged by another round,
    /// and neither edit is lost.
    func test_aWriteAnotherClientOverwroteAtTheSameMoment_isMergedAgain() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Black tea" }
        }
        let racing = interposed { request, send throws(HTTPError) in
            let body = String(decoding: request.body ?? [], as: UTF8.self)
            guard request.method == "PUT", request.headers["If-Match"] != nil, body.contains("SUMMARY:Black tea") else {
                return try send(request)
            }
            var answer = try send(request)
            // The other laptop's write of the same version, priority set, landing just after.
            var other = request
            other.headers["If-Match"] = nil
            other.body = Array(
                body.replacingOccurrences(of: "SUMMARY:Black tea", with: "SUMMARY:Tea\r\nPRIORITY:1").utf8)
            _ = try send(other)
            answer.headers["etag"] = nil
            return answer
        }
        let report = try sync(laptop, transport: racing)
        XCTAssertEqual(report.rounds, 2)
        let item = try XCTUnwrap(laptop.load().toDoItems.first)
        XCTAssertEqual(item.title, "Black tea")
        XCTAssertEqual(item.priority, 1, "the other laptop's edit arrived")
        XCTAssertEqual(
            try phone("t = calendar.todos()[0].icalendar_component; print(str(t['SUMMARY']), str(t.get('PRIORITY')))"),
            "Black tea 1\n")
        XCTAssertEqual(try sync(laptop).sent.count, 0)
    }

    /// A sync with nothing changed asks one REPORT, sends nothing and writes nothing; a change to
    /// the list's file since, even one made by hand without todo, is noticed all the same.
    func test_aSyncWithNothingChanged_isOneReport_andWritesNothing() throws {
        let laptop = try list("laptop", holding: ["Tea", "Milk", "Bread"])
        _ = try sync(laptop)
        XCTAssertEqual(try laptop.loadSyncState()?.lastSync, clock)
        clock += 60
        // The first sync's own PUTs are news to the second, which finds both sides in step, and
        // changed nothing.
        _ = try sync(laptop)
        XCTAssertEqual(try laptop.loadSyncState()?.inStep, true)
        XCTAssertEqual(try laptop.loadSyncState()?.lastSync, clock - 60)
        let statePath = directory.file("laptop.json.sync").path
        let written = try FileManager.default.attributesOfItem(atPath: statePath)[.modificationDate] as? Date
        let counting = interposed { request, send throws(HTTPError) in try send(request) }
        var report = try sync(laptop, transport: counting)
        XCTAssertEqual(report.sent.count + report.received.added.count + report.received.updated.count, 0)
        XCTAssertEqual(counting.requests.map(\.method), ["REPORT"])
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: statePath)[.modificationDate] as? Date, written,
            "the state is not written")

        let listPath = directory.file("laptop.json").path
        let text = try String(contentsOfFile: listPath, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Milk\"", with: "\"Oat milk\"").write(
            toFile: listPath, atomically: true, encoding: .utf8)
        report = try sync(laptop)
        XCTAssertEqual(report.sent.map(\.title), ["Oat milk"])
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Bread', 'Oat milk', 'Tea']\n")
    }

    /// The phone changes an item between todo's fetch and its PUT: the server answers 412, and
    /// another round fetches and merges, keeping both changes.
    func test_aChangeOnTheServerWhileSending_isMergedByAnotherRound() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Green tea" }
        }
        let phoneScript = """
            for todo in calendar.todos():
                todo.icalendar_component.add('PRIORITY', 1)
                stamp(todo)
                todo.save()
            """
        final class Once: @unchecked Sendable { var done = false }
        let once = Once()
        let otherHand = try phoneRunner()
        let racing = interposed { request, send throws(HTTPError) in
            if request.method == "PUT", !once.done {
                once.done = true
                _ = try? otherHand.run(phoneScript)
            }
            return try send(request)
        }
        let report = try sync(laptop, transport: racing)
        XCTAssertEqual(report.rounds, 2)
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Green tea"])
        XCTAssertEqual(try laptop.load().toDoItems.first?.priority, 1)
        XCTAssertEqual(
            try phone(
                "print([(str(t.icalendar_component['SUMMARY']), int(t.icalendar_component['PRIORITY'])) for t in calendar.todos()])"
            ),
            "[('Green tea', 1)]\n")
    }

    /// The calendar moved, and every request for its old place is redirected (308, as a proxy in
    /// front of a renamed collection answers): each is followed with its body and conditions, and
    /// the next syncs neither double nor delete anything.
    func test_aCalendarThatMoved_isFollowed_withNothingDoubledOrDeleted() throws {
        let laptop = try list(
            "laptop", holding: ["Tea", "Milk"], calendar: server.url.appendingPathComponent("alice/old-tasks/"))
        _ = try phone("calendar.save_todo(summary='Bread', uid='bread@phone')")
        let real = URLSessionTransport()
        let moved = ScriptedTransport { request throws(HTTPError) in
            try Redirects.follow(request) { current throws(HTTPError) in
                let address = current.url.absoluteString
                guard address.contains("/alice/old-tasks/") else { return try real.send(current) }
                return HTTPResponse(
                    status: 308,
                    headers: ["Location": address.replacingOccurrences(of: "/old-tasks/", with: "/tasks/")], body: [])
            }
        }
        var report = try sync(laptop, transport: moved)
        XCTAssertEqual(report.sent.map(\.title).sorted(), ["Milk", "Tea"])
        XCTAssertEqual(report.received.added.map(\.title), ["Bread"])
        report = try sync(laptop, transport: moved)
        XCTAssertEqual(
            report.sent.count + report.received.added.count + report.received.removed.count
                + report.deletedRemotely.count, 0)

        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Green tea" }
        }
        report = try sync(laptop, transport: moved)
        XCTAssertEqual(report.sent.map(\.title), ["Green tea"])
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Bread', 'Green tea', 'Milk']\n")
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Green tea", "Milk", "Bread"])
    }

    /// A server that rewrites what it is sent (SabreDAV, under Nextcloud, adds and reorders
    /// properties) and so gives no ETag, as RFC 4791 5.3.4 allows: the sync reads those items back
    /// and compares their fields, not their bytes, and nothing goes back and forth; an item of
    /// another list, in its calendar, too (the calendar says its list).
    func test_aServerThatRewritesWhatItIsSent_isComparedByFields() throws {
        let laptop = try list("laptop")
        try laptop.update { manager in
            _ = try manager.add(ToDoItem(title: "Tea", timestamp: 1_900_000_000, priority: 1))
            var milk = ToDoItem(title: "Milk")
            milk.list = "Shopping"
            _ = try manager.add(milk)
        }
        let rewriting = interposed { request, send throws(HTTPError) in
            guard request.method == "PUT", let body = request.body else { return try send(request) }
            var lines = String(decoding: body, as: UTF8.self).components(separatedBy: "\r\n")
            guard let summary = lines.firstIndex(where: { $0.hasPrefix("SUMMARY") }).map({ lines.remove(at: $0) }),
                let end = lines.firstIndex(of: "END:VTODO")
            else { throw .failed("not a task: \(lines)") }
            lines.insert(contentsOf: ["X-SERVER-NOTE:rewritten", summary], at: end)
            var rewritten = request
            rewritten.body = Array(lines.joined(separator: "\r\n").utf8)
            var answer = try send(rewritten)
            answer.headers["etag"] = nil
            return answer
        }
        var report = try sync(laptop, transport: rewriting)
        XCTAssertEqual(report.sent.map(\.title).sorted(), ["Milk", "Tea"])
        XCTAssertEqual(
            try laptop.loadSyncState()?.records.map { $0.etag != nil }, [true, true],
            "read back, since no ETag was given")
        XCTAssertTrue(try phone("print([t.data for t in calendar.todos()])").contains("X-SERVER-NOTE:rewritten"))
        XCTAssertEqual(try laptop.loadSyncState()?.lists.map(\.list), ["Shopping"])

        report = try sync(laptop)
        XCTAssertEqual(
            report.sent.count + report.received.added.count + report.received.updated.count, 0,
            "\(report.sent) \(report.received.added) \(report.received.updated) \(report.conflicts)")
        XCTAssertEqual(try laptop.loadSyncState()?.records.map { $0.etag != nil }, [true, true])
        let counting = interposed { request, send throws(HTTPError) in try send(request) }
        report = try sync(laptop, transport: counting)
        XCTAssertEqual(report.sent.count + report.received.added.count + report.received.updated.count, 0)
        XCTAssertEqual(counting.requests.map(\.method), ["REPORT", "REPORT"], "one question to each calendar, no more")
    }

    /// Items whose UIDs hold characters a server escapes in its addresses (Radicale lists
    /// `abc%40example.com.ics` for the `abc@example.com.ics` todo stored) stay one item each.
    func test_aUIDTheServerEscapes_staysOneItem() throws {
        let laptop = try list("laptop")
        try laptop.update { manager in
            for (title, uid) in [("At", "abc@example.com"), ("Spaced", "with space+plus"), ("Café", "café/1")] {
                var item = ToDoItem(title: title)
                item.fields.originalUID = uid
                _ = try manager.add(item)
            }
        }
        var report = try sync(laptop)
        XCTAssertEqual(report.sent.count, 3)
        for _ in 0..<2 {
            report = try sync(laptop)
            XCTAssertEqual(
                report.sent.count + report.received.added.count + report.received.refused.count
                    + report.deletedRemotely.count, 0)
        }
        XCTAssertEqual(Set(try laptop.loadSyncState()?.records.map(\.href) ?? []).count, 3)
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['UID']) for t in calendar.todos()))"),
            "['abc@example.com', 'café/1', 'with space+plus']\n")
    }

    /// A server that cuts the list of changes short (a 507 for the calendar itself, as Nextcloud
    /// does past its limit) is asked again from the token it gave, until the list is whole.
    func test_aListOfChangesCutShort_isContinued() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        // The second sync takes the token after the first one's own PUT.
        for _ in 0..<2 { _ = try sync(laptop) }
        let before = try XCTUnwrap(laptop.loadSyncState()?.syncToken)
        _ = try phone("calendar.save_todo(summary='Milk', uid='milk')")
        let client = CalDAVClient(
            transport: URLSessionTransport(), credentials: HTTPCredentials(user: "alice", password: "secret"),
            timeout: 20)
        let afterMilk = try XCTUnwrap(client.changes(in: calendar, since: before))
        XCTAssertEqual(afterMilk.changed.map(\.href), ["/alice/tasks/milk.ics"])
        _ = try phone("calendar.save_todo(summary='Bread', uid='bread')")
        let milk = afterMilk.changed[0]
        let cutShort = interposed { request, send throws(HTTPError) in
            guard request.method == "REPORT", String(decoding: request.body ?? [], as: UTF8.self).contains(before)
            else { return try send(request) }
            // Milk, then "there is more", and the token after Milk.
            let answer = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:multistatus xmlns:d="DAV:"><d:response><d:href>\(milk.href)</d:href><d:propstat><d:prop><d:getetag>\(milk.etag ?? "")</d:getetag></d:prop>\
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:response><d:href>/alice/tasks/</d:href>\
                <d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response><d:sync-token>\(afterMilk.token)</d:sync-token></d:multistatus>
                """
            return HTTPResponse(status: 207, body: Array(answer.utf8))
        }
        let report = try sync(laptop, transport: cutShort)
        XCTAssertEqual(Set(report.received.added.map(\.title)), ["Milk", "Bread"])
        XCTAssertEqual(
            cutShort.requests.filter { String(decoding: $0.body ?? [], as: UTF8.self).contains("sync-collection") }
                .count, 2)
        XCTAssertEqual(try sync(laptop).received.added.count, 0)
    }

    /// Text of a task that todo cannot read (a server or an app that wrote it wrong), or a task
    /// the server leaves out when asked for it, is no news of it: the item stays as it was,
    /// neither changed nor deleted, the sync says so, and the next sync asks for it again.
    func test_aTaskTodoCannotRead_isLeftAlone_andAskedForAgain() throws {
        let laptop = try list("laptop", holding: ["Tea", "Milk"])
        for _ in 0..<2 { _ = try sync(laptop) }
        clock += 60
        try phone(sets: "SUMMARY", to: "Oat milk", onTaskTitled: "Milk")
        let garbling = interposed { request, send throws(HTTPError) in
            var answer = try send(request)
            if String(decoding: request.body ?? [], as: UTF8.self).contains("calendar-multiget") {
                answer.body = Array(
                    String(decoding: answer.body, as: UTF8.self).replacingOccurrences(
                        of: "BEGIN:VCALENDAR", with: "GARBLED"
                    ).utf8)
            }
            return answer
        }
        // A server that leaves out what it was asked for is no news either.
        let forgetful = interposed { request, send throws(HTTPError) in
            guard String(decoding: request.body ?? [], as: UTF8.self).contains("calendar-multiget") else {
                return try send(request)
            }
            return HTTPResponse(status: 207, body: Array(#"<?xml version="1.0"?><multistatus xmlns="DAV:"/>"#.utf8))
        }
        for (transport, reason) in [
            (garbling, "not a task todo can read: line 1: not iCalendar"),
            (forgetful, "the server did not give it when asked")
        ] {
            let report = try sync(laptop, transport: transport)
            XCTAssertEqual(report.unreadable.map { $0.href.hasSuffix(".ics") }, [true])
            XCTAssertEqual(report.unreadable.first.map { $0.reason.hasPrefix(reason) }, true, "\(report.unreadable)")
            XCTAssertEqual(
                report.received.updated.count + report.received.removed.count + report.sent.count
                    + report.deletedRemotely.count, 0)
            XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea", "Milk"])
        }

        let report = try sync(laptop)
        XCTAssertEqual(report.unreadable.count, 0)
        XCTAssertEqual(report.received.updated.map(\.title), ["Oat milk"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea", "Oat milk"])
    }

    /// A token the server forgot (Radicale answers 403) and a server without the sync report
    /// are met by listing every task; nothing is doubled or lost.
    func test_aForgottenToken_orNoSyncReport_listsEveryTask() throws {
        let laptop = try list("laptop", holding: ["Tea"])
        _ = try sync(laptop)
        _ = try phone("calendar.save_todo(summary='Milk', uid='milk@phone')")
        try laptop.update(withSyncState: { _, state in state?.syncToken = "http://radicale.org/ns/sync/forgotten" })
        var report = try sync(laptop)
        XCTAssertEqual(report.received.added.map(\.title), ["Milk"])
        XCTAssertNotEqual(try laptop.loadSyncState()?.syncToken, "http://radicale.org/ns/sync/forgotten", "a new token")

        // Servers without the report answer it in their ways: 501, 400, 403, 405 or 415.
        var titles = ["Tea", "Milk"]
        for status in [501, 400, 403, 405, 415] {
            let title = "Bread \(status)"
            _ = try phone("calendar.save_todo(summary='\(title)', uid='bread-\(status)@phone')")
            let noReport = interposed { request, send throws(HTTPError) in
                if request.method == "REPORT",
                    String(decoding: request.body ?? [], as: UTF8.self).contains("sync-collection")
                {
                    return HTTPResponse(status: status, body: [])
                }
                return try send(request)
            }
            report = try sync(laptop, transport: noReport)
            XCTAssertEqual(report.received.added.map(\.title), [title])
            titles.append(title)
            XCTAssertEqual(try laptop.load().toDoItems.map(\.title), titles)
        }
    }

    /// A server that fails halfway through sending (507, no space) refuses the rest, each said;
    /// nothing is lost, and the next sync sends the rest without doubling anything.
    func test_aServerThatFailsHalfwayThroughSending_losesNothing() throws {
        let laptop = try list("laptop", holding: ["Tea", "Milk", "Bread"])
        final class Count: @unchecked Sendable { var puts = 0 }
        let count = Count()
        let full = interposed { request, send throws(HTTPError) in
            if request.method == "PUT" {
                count.puts += 1
                if count.puts >= 2 { return HTTPResponse(status: 507, body: []) }
            }
            return try send(request)
        }
        let refused = try sync(laptop, transport: full).refused
        XCTAssertEqual(refused.map(\.item.title), ["Milk", "Bread"])
        XCTAssertEqual(Set(refused.map(\.reason)), ["the server refused it (507)"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.title), ["Tea", "Milk", "Bread"])
        let report = try sync(laptop)
        XCTAssertEqual(report.sent.map(\.title), ["Milk", "Bread"])
        XCTAssertEqual(
            try phone("print(sorted(str(t.icalendar_component['SUMMARY']) for t in calendar.todos()))"),
            "['Bread', 'Milk', 'Tea']\n")
        XCTAssertEqual(try sync(laptop).sent.count, 0)
    }

    // MARK: What travels

    /// The phone's alarm and its own properties survive an edit in todo; a repeating item travels
    /// as its series, checked here; a subtask as RELATED-TO.
    func test_alarmsSurviveAnEdit_aSeriesAndASubtaskTravel() throws {
        let laptop = try list("laptop"), desktop = try list("desktop")
        try laptop.update { manager in
            let parent = try manager.add(ToDoItem(title: "Garden"))
            var child = ToDoItem(title: "Water the plants", timestamp: 1_795_500_000, repeatRule: "FREQ=WEEKLY")
            child.parent = parent.id
            _ = try manager.add(child)
        }
        _ = try sync(laptop)
        clock += 60
        _ = try phone(
            """
            import icalendar
            for todo in calendar.todos():
                component = todo.icalendar_component
                if str(component['SUMMARY']) == 'Water the plants':
                    alarm = icalendar.Alarm()
                    alarm.add('ACTION', 'DISPLAY')
                    alarm.add('DESCRIPTION', 'Water')
                    alarm.add('TRIGGER', datetime.timedelta(minutes=-15))
                    component.add_component(alarm)
                    component.add('X-APPLE-SORT-ORDER', '7')
                    stamp(todo)
                    todo.save()
            """)
        _ = try sync(laptop)
        clock += 60
        try laptop.update { manager in
            let water = manager.toDoItems.first { $0.title == "Water the plants" }!
            _ = try manager.checkOccurrence(withID: water.id, rules: berlin)
        }
        let report = try sync(laptop)
        XCTAssertEqual(
            Set(report.sent.map(\.title)), ["Water the plants"],
            "the series moved, and its occurrence is a done task of its own")
        XCTAssertEqual(report.sent.count, 2)
        XCTAssertEqual(
            try phone(
                """
                for todo in sorted(calendar.todos(include_completed=True), key=lambda t: (str(t.icalendar_component.get('STATUS')), str(t.icalendar_component['SUMMARY']))):
                    c = todo.icalendar_component
                    print(c['SUMMARY'], c.get('STATUS'), 'RRULE' in c, len(c.subcomponents), c.get('X-APPLE-SORT-ORDER'), 'RELATED-TO' in c)
                """),
            """
            Water the plants COMPLETED False 0 None True
            Garden NEEDS-ACTION False 0 None False
            Water the plants NEEDS-ACTION True 1 7 True

            """)
        _ = try sync(desktop)
        let items = try desktop.load()
        let series = try XCTUnwrap(items.toDoItems.first { $0.title == "Water the plants" })
        XCTAssertEqual(series.repeatRule, "FREQ=WEEKLY")
        XCTAssertEqual(series.parent, items.toDoItems.first { $0.title == "Garden" }?.id)
        XCTAssertEqual(items.doneItems.map(\.title), ["Water the plants"])
    }

    /// An occurrence done elsewhere, in the two ways calendars record it: as a VTODO of its own in
    /// the series' resource (a `RECURRENCE-ID`, as Thunderbird and eM Client write it), which moves
    /// the series here and stays on the server through an edit in todo; or, as python-caldav's
    /// `complete(handle_rrule=True)` does (todo's way too), as a done task of its own beside the
    /// series it moved, which arrives as a done item.
    func test_anOccurrenceDoneElsewhere_movesTheSeries() throws {
        let laptop = try list("laptop")
        let due = 1_795_500_000.0, week = 604_800.0
        try laptop.update { manager in
            for title in ["Water", "Feed the cat"] {
                _ = try manager.add(ToDoItem(title: title, timestamp: due, repeatRule: "FREQ=WEEKLY"))
            }
        }
        _ = try sync(laptop)
        clock += 60
        _ = try phone(
            """
            for todo in calendar.todos():
                series = todo.icalendar_component
                if str(series['SUMMARY']) != 'Water': continue
                occurrence = series.copy()
                del occurrence['RRULE']
                occurrence.add('RECURRENCE-ID', series['DUE'].dt)
                occurrence['STATUS'] = 'COMPLETED'
                occurrence.add('COMPLETED', datetime.datetime.fromtimestamp(int(sys.argv[1]), tz=datetime.timezone.utc))
                todo.icalendar_instance.add_component(occurrence)
                stamp(todo)
                todo.save()
            """)
        var report = try sync(laptop)
        XCTAssertEqual(report.received.updated.map(\.title), ["Water"])
        XCTAssertEqual(try laptop.load().toDoItems.map(\.timestamp), [due + week, due])
        XCTAssertEqual(try laptop.load().doneItems, [], "the occurrence stays in the series' resource")

        clock += 60
        try laptop.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[0].id) { $0.title = "Water the plants" }
        }
        report = try sync(laptop)
        XCTAssertEqual(report.sent.map(\.title), ["Water the plants"])
        XCTAssertEqual(
            try phone(
                """
                for todo in calendar.todos():
                    if 'Water' in str(todo.icalendar_component['SUMMARY']):
                        print([(str(c['SUMMARY']), str(c.get('STATUS')), 'RECURRENCE-ID' in c) for c in todo.icalendar_instance.walk('VTODO')])
                """), "[('Water the plants', 'NEEDS-ACTION', False), ('Water', 'COMPLETED', True)]\n")
        _ = try sync(laptop)
        XCTAssertEqual(
            try laptop.load().toDoItems.map(\.timestamp), [due + week, due], "read back, the series stays where it is")

        clock += 60
        _ = try phone(
            """
            for todo in calendar.todos():
                if str(todo.icalendar_component['SUMMARY']) == 'Feed the cat':
                    todo.complete(completion_timestamp=datetime.datetime.fromtimestamp(int(sys.argv[1]), tz=datetime.timezone.utc), handle_rrule=True)
            """)
        report = try sync(laptop)
        XCTAssertEqual(report.received.added.map(\.title), ["Feed the cat"])
        let list = try laptop.load()
        XCTAssertEqual(list.doneItems.map(\.title), ["Feed the cat"])
        XCTAssertEqual(list.doneItems.first?.timestamp, due)
        // python-caldav moves the series a week on from when it was done, where todo moves it to
        // the next occurrence still ahead: each side's rule, and the calendar's is taken.
        XCTAssertEqual(list.toDoItems.first { $0.title == "Feed the cat" }?.timestamp, clock + week)
        XCTAssertEqual(list.toDoItems.first { $0.title == "Feed the cat" }?.repeatRule, "FREQ=WEEKLY")
    }

    /// The same on Xandikos, whose calendar also holds events.
    func test_onXandikos_twoListsConverge() throws {
        server = try DAVServer(.xandikos, in: directory.url)
        let xandikos = server.url.appendingPathComponent("user/calendars/calendar/")
        let laptop = try list("laptop-x", calendar: xandikos, calendarName: "calendar")
        let desktop = try list("desktop-x", calendar: xandikos, calendarName: "calendar")
        try laptop.update { manager in _ = try manager.add(ToDoItem(title: "Tea")) }
        XCTAssertEqual(try sync(laptop).sent.map(\.title), ["Tea"])
        XCTAssertEqual(try sync(desktop).received.added.map(\.title), ["Tea"])
        clock += 60
        try desktop.update { manager in _ = try manager.checkItem(withID: manager.toDoItems[0].id) }
        _ = try sync(desktop)
        _ = try sync(laptop)
        XCTAssertEqual(try laptop.load().doneItems.map(\.title), ["Tea"])
        XCTAssertEqual(try sync(laptop).sent.count + (try sync(desktop)).sent.count, 0)
    }
}
