import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// In progress, a state beside open and done: iCalendar's `STATUS:IN-PROCESS` and
/// `PERCENT-COMPLETE`, Taskwarrior's `start`, both ways; checking the item ends it.
final class InProgressTests: XCTestCase {
    private let newYork = TimeZoneRules(TimeZone(identifier: "America/New_York")!)

    /// Thunderbird, Nextcloud and jtx Board write `STATUS:IN-PROCESS` beside `PERCENT-COMPLETE`:
    /// the export says the same, never `NEEDS-ACTION` beside a kept 25 (as the release before did).
    func test_iCalendarsInProcess_andPercent_areReadAndWrittenBack() throws {
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a@x", "SUMMARY:Report", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:25",
            "END:VTODO",
            "BEGIN:VTODO", "UID:b@x", "SUMMARY:Odd", "PERCENT-COMPLETE:250", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
        let read = try ICalendarFormat.read(text, timeZone: newYork)
        XCTAssertTrue(read[0].item.inProgress)
        XCTAssertEqual(read[0].item.percentComplete, 25)
        XCTAssertEqual(read[0].item.icalendarLines, [], "read, so not kept twice")
        XCTAssertFalse(read[1].item.inProgress)
        XCTAssertNil(read[1].item.percentComplete)
        XCTAssertEqual(read[1].problems, ["line 11: PERCENT-COMPLETE '250' is not a number from 0 to 100; left out"])

        let written = ICalendarFormat.write(
            [read[0].item], timeZone: newYork, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertTrue(written.contains("\r\nSTATUS:IN-PROCESS\r\nPERCENT-COMPLETE:25\r\n"), written)
        XCTAssertFalse(written.contains("NEEDS-ACTION"), written)
        XCTAssertEqual(try ICalendarFormat.read(written, timeZone: newYork).first?.item.inProgress, true)
    }

    /// `task start` gives a task a `start`: in progress here, and the same `start` back on export;
    /// a task stopped here goes back without it.
    func test_taskwarriorsStart_isInProgress_andGoesBack() throws {
        let text =
            #"[{"uuid":"11111111-2222-3333-4444-555555555556","description":"A","status":"pending","entry":"20200101T120000Z","start":"20200102T120000Z"}]"#
        var item = try XCTUnwrap(
            ItemInterchange.read(Array(text.utf8), format: .auto, timeZone: .utc).items.first?.item)
        XCTAssertTrue(item.inProgress)
        XCTAssertNil(item.start, "Taskwarrior's start is when work began, not todo's start date")
        func exported(_ item: ToDoItem) throws -> JSONObject {
            guard
                case .array(let tasks) = try JSONValue(
                    parsing: TaskwarriorFormat.write([item], now: Date(timeIntervalSince1970: 0), timeZone: .utc)),
                case .object(let task)? = tasks.first
            else {
                // A failure, not a skip: the export is always an array of tasks.
                XCTFail("the Taskwarrior export is not an array of one task")
                return JSONObject()
            }
            return task
        }
        XCTAssertEqual(try exported(item)["start"], .string("20200102T120000Z"))
        item.inProgress = false
        XCTAssertNil(try exported(item)["start"])
    }

    func test_checking_endsProgress_andThePercentIsChecked() throws {
        var manager = ItemManager()
        var item = ToDoItem(title: "Report")
        item.inProgress = true
        item.percentComplete = 40
        let added = try manager.add(item)
        XCTAssertTrue(added.inProgress)
        let checked = try manager.checkItem(withID: added.id)
        XCTAssertFalse(checked.inProgress)
        XCTAssertEqual(checked.percentComplete, 40)
        var wrong = ToDoItem(title: "Wrong")
        wrong.percentComplete = 101
        XCTAssertThrowsError(try manager.add(wrong)) { error in
            XCTAssertEqual(error as? ItemManagerError, .invalidPercent(101))
        }
    }

    /// The state is stored, and read back by both of the store's readers.
    func test_theStateIsStored() throws {
        var item = ToDoItem(title: "Report", id: UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!)
        item.inProgress = true
        item.percentComplete = 5
        let json = item.json
        XCTAssertEqual(
            String(decoding: json.serializedCompactly(), as: UTF8.self),
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"Report","done":false,"inProgress":true,"percentComplete":5}"#
        )
        XCTAssertEqual(try ToDoItem(json: json, path: ""), item)
    }
}
