import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// `ItemManager.checkOccurrence`: the done copy, the moved item, and the rules that refuse.
final class CheckOccurrenceTests: XCTestCase {
    private let utc = TimeZoneRules(TimeZone(identifier: "UTC")!)
    /// Sunday 22 November 2026, 10:30 UTC.
    private let now = Date(timeIntervalSince1970: 1_795_343_400)
    private let day = 86_400.0
    /// Friday 20 November 2026, midnight UTC.
    private let friday = 1_795_132_800.0

    func test_theOccurrence_isADoneCopy_andTheItemKeepsItsNumber_withItsDueAndStartMoved() throws {
        let now = self.now
        var manager = ItemManager(now: { now })
        let added = try manager.add(
            ToDoItem(
                title: "Water", due: .day(2026, 11, 20), priority: 2, tags: ["home"], start: .day(2026, 11, 18),
                repeatRule: "FREQ=WEEKLY;COUNT=3"))
        let checked = try manager.checkOccurrence(withID: added.id, rules: utc)

        let series = try XCTUnwrap(checked.series)
        XCTAssertEqual(series.id, added.id)
        XCTAssertEqual(series.number, 1)
        XCTAssertFalse(series.done)
        XCTAssertEqual(series.due, .day(2026, 11, 27))
        XCTAssertEqual(series.start, .day(2026, 11, 25), "the start moves by as much")
        XCTAssertEqual(series.repeatRule, "FREQ=WEEKLY;COUNT=2")
        XCTAssertEqual(series.modifiedAt, now.timeIntervalSince1970)

        let record = checked.record
        XCTAssertNotEqual(record.id, added.id)
        XCTAssertEqual(record.number, 2)
        XCTAssertTrue(record.done)
        XCTAssertEqual(record.due, .day(2026, 11, 20))
        XCTAssertEqual(record.start, .day(2026, 11, 18))
        XCTAssertNil(record.repeatRule)
        XCTAssertEqual(record.priority, 2)
        XCTAssertEqual(record.tags, ["home"])
        XCTAssertEqual(record.completedAt, now.timeIntervalSince1970)
        XCTAssertEqual(manager.toDoItems.map(\.id), [added.id])
        XCTAssertEqual(manager.doneItems.map(\.id), [record.id])
        XCTAssertEqual(
            manager.steps,
            [
                .inserted(added.id, at: ItemPlace(done: false, index: 0)),
                .inserted(record.id, at: ItemPlace(done: true, index: 0)),
                .replaced(added, at: ItemPlace(done: false, index: 0))
            ])
    }

    /// The done copy's id comes from the id source given, as the time comes from the clock.
    func test_theOccurrencesId_comesFromTheIdSourceGiven() throws {
        var manager = ItemManager(now: { [now] in now })
        let given = UUID(uuidString: "00000000-0000-4000-8000-000000000042")!
        manager.newID = { given }
        let added = try manager.add(ToDoItem(title: "Water", due: .day(2026, 11, 20), repeatRule: "FREQ=WEEKLY"))
        XCTAssertEqual(try manager.checkOccurrence(withID: added.id, rules: utc).record.id, given)
    }

    func test_theLastOccurrence_checksTheItemItself() throws {
        var manager = ItemManager(now: { [now] in now })
        let added = try manager.add(
            ToDoItem(title: "Water", due: .day(2026, 11, 20), repeatRule: "FREQ=DAILY;UNTIL=20261121"))
        let checked = try manager.checkOccurrence(withID: added.id, rules: utc)
        XCTAssertNil(checked.series, "the 21st is past and the series ends with it")
        XCTAssertEqual(checked.record.id, added.id)
        XCTAssertTrue(checked.record.done)
        XCTAssertEqual(checked.record.repeatRule, "FREQ=DAILY;UNTIL=20261121")
    }

    func test_refusals_changeNothing() throws {
        var manager = ItemManager(now: { [now] in now })
        let series = try manager.add(ToDoItem(title: "Water", due: .day(2026, 11, 20), repeatRule: "FREQ=WEEKLY"))
        // An open twin of where the item would move to.
        try manager.add(ToDoItem(title: "Water", due: .day(2026, 11, 27)))
        let before = manager
        XCTAssertThrowsError(try manager.checkOccurrence(withID: series.id, rules: utc)) { error in
            guard case .duplicateContent(let existing)? = error as? ItemManagerError else { return XCTFail("\(error)") }
            XCTAssertEqual(existing.number, 2)
        }
        XCTAssertEqual(manager.toDoItems, before.toDoItems)
        XCTAssertEqual(manager.doneItems, before.doneItems)
        XCTAssertEqual(manager.nextNumber, before.nextNumber)

        let hourly = try manager.add(ToDoItem(title: "Stretch", timestamp: friday, repeatRule: "FREQ=HOURLY"))
        XCTAssertThrowsError(try manager.checkOccurrence(withID: hourly.id, rules: utc)) { error in
            XCTAssertEqual(error as? ItemManagerError, .unfollowableRepeat(hourly))
        }
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "No due", repeatRule: "FREQ=DAILY"))) { error in
            guard case .repeatWithoutDue? = error as? ItemManagerError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "Bad", timestamp: friday, repeatRule: "FREQ=OFTEN"))) {
            error in
            XCTAssertEqual(
                (error as? ItemManagerError)?.description,
                "invalid repeat rule 'FREQ=OFTEN': FREQ=OFTEN is not a frequency")
        }
    }

    func test_aRepeatingItemFromAFile_withoutADue_isCheckedAsAnyItem() throws {
        let stored = ToDoItem(title: "Imported", repeatRule: "FREQ=WEEKLY")
        var manager = try ItemManager(storedItems: [stored], now: { [now] in now })
        let checked = try manager.checkOccurrence(withID: stored.id, rules: utc)
        XCTAssertNil(checked.series)
        XCTAssertTrue(checked.record.done)
    }
}
