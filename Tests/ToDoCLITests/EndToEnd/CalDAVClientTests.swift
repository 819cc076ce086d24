import Foundation
import TestSupport
import ToDoModel
import ToDoNetwork
import ToDoURLSession
import XCTest

@testable import ToDoCore

/// What `todo sync` asks of a CalDAV server, asked of a real Radicale (with passwords, a calendar
/// for tasks only) and Xandikos (a mixed calendar) on 127.0.0.1.
final class CalDAVClientTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    private func client(password: String = "secret") -> CalDAVClient {
        CalDAVClient(
            transport: URLSessionTransport(), credentials: HTTPCredentials(user: "alice", password: password),
            timeout: 20)
    }

    private func task(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261124T120000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    func test_findingCalendars_fromTheServer_orFromTheCalendarItself_andMakingOne() throws {
        let server = try DAVServer(.radicale, in: directory.url)
        let found = try client().calendars(at: server.url)
        XCTAssertEqual(found.home?.absoluteString, server.url.absoluteString + "alice/")
        XCTAssertEqual(
            found.calendars,
            [
                CalDAVClient.Calendar(
                    url: server.url.appendingPathComponent("alice/tasks/"), displayName: "Tasks",
                    components: ["VTODO"])
            ])
        XCTAssertEqual(try client().calendars(at: found.calendars[0].url).calendars.map(\.displayName), ["Tasks"])
        let made = try client().makeCalendar(named: "Chores & more", slug: "chores", in: try XCTUnwrap(found.home))
        XCTAssertEqual(
            try client().calendars(at: server.url).calendars.compactMap(\.displayName).sorted(),
            ["Chores & more", "Tasks"])
        XCTAssertThrowsError(try client().makeCalendar(named: "Chores", slug: "chores", in: try XCTUnwrap(found.home)))
        XCTAssertEqual(made.url.absoluteString, server.url.absoluteString + "alice/chores/")
        XCTAssertThrows(try client(password: "wrong").calendars(at: server.url), CalDAVError.credentialsRefused)

        let xandikos = try DAVServer(.xandikos, in: directory.url)
        let mixed = try client().calendars(at: xandikos.url).calendars
        XCTAssertEqual(mixed.map(\.displayName), ["calendar"])
        XCTAssertTrue(mixed.allSatisfy(\.holdsTasks))
        XCTAssertTrue(mixed[0].components.contains("VEVENT"))
    }

    /// Storing never overwrites a change not seen; the sync report says what changed and what
    /// went; a token the server forgot is said as such.
    func test_tasks_storedFetchedChangedAndDeleted_onBothServers() throws {
        for kind in [DAVServer.Kind.radicale, .xandikos] {
            let server = try DAVServer(kind, in: directory.url)
            let calendar = try XCTUnwrap(client().calendars(at: server.url).calendars.first).url
            let client = client()
            guard
                case .done(let etag, let path)? = try? client.put(
                    task("a1", "Tea"), at: "a1.ics", in: calendar, replacing: nil)
            else {
                return XCTFail("\(kind): not stored")
            }
            XCTAssertNotNil(etag, "\(kind)")
            XCTAssertEqual(path, calendar.appendingPathComponent("a1.ics").path, "\(kind)")
            XCTAssertEqual(
                try client.put(task("a1", "Tea"), at: "a1.ics", in: calendar, replacing: nil), .changedMeanwhile,
                "\(kind)")
            XCTAssertEqual(
                try client.put(task("a1", "Tea"), at: "a1.ics", in: calendar, replacing: "\"stale\""),
                .changedMeanwhile, "\(kind)")
            let listed = try client.tasks(in: calendar).resources
            XCTAssertEqual(listed.map { $0.href.hasSuffix("/a1.ics") }, [true], "\(kind)")
            XCTAssertEqual(listed.first?.etag, etag, "\(kind)")
            let first = try XCTUnwrap(client.changes(in: calendar, since: nil), "\(kind)")
            XCTAssertEqual(first.changed.map(\.href), listed.map(\.href), "\(kind)")

            guard
                case .done(let newEtag, _)? = try? client.put(
                    task("a1", "Green tea"), at: listed[0].href, in: calendar, replacing: etag)
            else {
                return XCTFail("\(kind): not replaced")
            }
            let nowhere = calendar.appendingPathComponent("b.ics").path
            let (fetched, gone) = try client.fetch(listed.map(\.href) + [nowhere], from: calendar)
            XCTAssertEqual(gone, [nowhere], "\(kind)")
            XCTAssertEqual(fetched.count, 1, "\(kind)")
            XCTAssertTrue(fetched[0].text.contains("SUMMARY:Green tea"), "\(kind): \(fetched[0].text)")
            if let newEtag { XCTAssertEqual(fetched[0].etag, newEtag, "\(kind)") }
            let afterEdit = try XCTUnwrap(client.changes(in: calendar, since: first.token), "\(kind)")
            XCTAssertEqual(afterEdit.changed.map(\.href), listed.map(\.href), "\(kind)")
            XCTAssertEqual(afterEdit.deleted, [], "\(kind)")

            XCTAssertEqual(
                try client.delete(listed[0].href, in: calendar, etag: "\"stale\""), .changedMeanwhile, "\(kind)")
            XCTAssertEqual(
                try client.delete(listed[0].href, in: calendar, etag: fetched[0].etag),
                .done(etag: nil, path: listed[0].href), "\(kind)")
            let afterDelete = try XCTUnwrap(client.changes(in: calendar, since: afterEdit.token), "\(kind)")
            XCTAssertEqual(afterDelete.deleted, listed.map(\.href), "\(kind)")
            XCTAssertEqual(try client.tasks(in: calendar).resources, [], "\(kind)")
            XCTAssertNil(
                try client.changes(in: calendar, since: "http://radicale.org/ns/sync/forgotten"),
                "\(kind): a token it forgot")
        }
    }

    /// A mixed calendar (Xandikos', Nextcloud's "Personal") also holds events: only tasks are listed.
    func test_tasksOfAMixedCalendar_leaveItsEventsOut() throws {
        let server = try DAVServer(.xandikos, in: directory.url)
        let calendar = try XCTUnwrap(client().calendars(at: server.url).calendars.first).url
        let event =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:e1\r\nDTSTAMP:20261124T120000Z\r\n"
            + "DTSTART:20261125T100000Z\r\nSUMMARY:Meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        XCTAssertEqual(try client().put(event, at: "e1.ics", in: calendar, replacing: nil).isDone, true)
        XCTAssertEqual(try client().put(task("t1", "Tea"), at: "t1.ics", in: calendar, replacing: nil).isDone, true)
        XCTAssertEqual(
            try client().tasks(in: calendar).resources.map { String($0.href.split(separator: "/").last ?? "") },
            ["t1.ics"])
    }
}

extension CalDAVClientTests {
    /// An item with every field that travels, stored by todo and fetched back as each server
    /// rewrites it (reordered, restamped), reads back with every field the same: compared by
    /// fields, never bytes.
    func test_anItemStoredAndFetched_readsBackFieldForField() throws {
        let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)
        var item = ToDoItem(
            title: "Water the plants; all of them", itemDescription: "line one\nline two, and more",
            due: .time(1_920_000_000),
            location: Location(
                name: "Garden", address: "1 Main St", coordinate: Coordinate(latitude: 52.5, longitude: 13.4)),
            priority: 1, tags: ["home", "garden"], start: .time(1_919_900_000), repeatRule: "FREQ=WEEKLY;BYDAY=MO")
        item.fields.icalendarLines = ["X-APPLE-SORT-ORDER:3"]
        item.fields.alarms = [
            Alarm(.beforeStart(900), icalendarLines: ["DESCRIPTION:Water"]), Alarm(.at(1_919_990_000))
        ]
        for kind in [DAVServer.Kind.radicale, .xandikos] {
            let server = try DAVServer(kind, in: directory.url)
            let calendar = try XCTUnwrap(client().calendars(at: server.url).calendars.first).url
            let text = CalendarResource.text(
                for: item, replacing: nil, timeZone: berlin, now: Date(), productID: "-//todo//test//EN")
            XCTAssertEqual(
                try client().put(text, at: "\(item.uid).ics", in: calendar, replacing: nil).isDone, true, "\(kind)")
            let fetched = try XCTUnwrap(
                client().fetch(client().tasks(in: calendar).resources.map(\.href), from: calendar).found.first,
                "\(kind)")
            let back = try XCTUnwrap(CalendarResource.item(of: fetched.text, timeZone: berlin)?.item, "\(kind)")
            for field in ItemField.allCases {
                XCTAssertTrue(field.isSame(in: back, as: item), "\(kind): \(field)")
            }
            XCTAssertEqual(back.id, item.id, "\(kind)")
            XCTAssertEqual(back.icalendarLines.filter { !$0.hasPrefix("DTSTAMP") }, item.icalendarLines, "\(kind)")
        }
    }
}

private extension CalDAVClient.WriteOutcome {
    var isDone: Bool {
        if case .done = self { return true }
        return false
    }
}
