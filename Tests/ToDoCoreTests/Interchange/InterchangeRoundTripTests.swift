import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

/// Export, then import into an empty list: the same items, for each format.
final class InterchangeRoundTripTests: XCTestCase {
    private let paris = TimeZoneRules(TimeZone(identifier: "Europe/Paris")!)
    private let now = Date(timeIntervalSince1970: 1_795_361_400)

    /// A list with every field, done and open items, and titles that each format must escape.
    private func sampleList() throws -> ItemManager {
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1_795_300_000) })
        let items = [
            ToDoItem(title: "Call Mom", timestamp: 1_641_769_200),
            ToDoItem(title: "Buy milk, eggs; bread \\ butter", itemDescription: "two lines\nof text, with; marks"),
            ToDoItem(
                title: "Water the plants", itemDescription: "Twice a week", timestamp: 1_907_683_200,
                location: Location(
                    name: "Garden shed", address: "12 Market St, Springfield",
                    coordinate: Coordinate(latitude: 39.7817, longitude: -89.6501))),
            ToDoItem(title: String(repeating: "A long title with ünïcödé ✓ and emoji 👩‍👩‍👧 ", count: 4) + "end"),
            ToDoItem(title: "x marks (A) the spot +project @home 100%", location: Location(name: "Cave")),
            ToDoItem(title: "Pay rent", timestamp: -2_000_000_000)
        ]
        for item in items { try manager.add(item) }
        _ = try manager.checkItem(withID: items[0].id)
        _ = try manager.checkItem(withID: items[5].id)
        return manager
    }

    private func imported(_ bytes: [UInt8], as format: ImportFormat) throws -> ItemManager {
        let read = try ItemInterchange.read(bytes, format: .auto, timeZone: paris)
        XCTAssertEqual(read.format, format)
        var manager = ItemManager()
        let summary = try manager.importItems(read.items)
        XCTAssertEqual(summary.skipped.count, 0)
        return manager
    }

    /// The fields a user sees, in list order; `day` rounds created and completed times to the
    /// local day, as todo.txt keeps them.
    private func fields(_ manager: ItemManager, days: Bool = false) -> [String] {
        let time = CivilTime(rules: paris)
        func stamp(_ value: Double?) -> String {
            guard let value else { return "-" }
            return days ? CivilTime.isoDate(time.fields(of: value)) : JSONValue.literal(for: value)
        }
        return (manager.toDoItems + manager.doneItems).map { item in
            [
                item.id.uuidString, item.title, item.itemDescription ?? "-",
                item.timestamp.map { JSONValue.literal(for: $0) } ?? "-",
                item.location.map {
                    "\($0.name)|\($0.address ?? "-")|\($0.coordinate.map { "\($0.latitude),\($0.longitude)" } ?? "-")"
                } ?? "-",
                "\(item.done)", stamp(item.createdAt), stamp(item.completedAt)
            ].joined(separator: " / ")
        }
    }

    func test_json_roundTrip_keepsEveryField() throws {
        let list = try sampleList()
        let copy = try imported(ItemInterchange.json(list), as: .json)
        XCTAssertEqual(fields(copy), fields(list))
        XCTAssertEqual(copy.toDoItems.map(\.number) + copy.doneItems.map(\.number), [1, 2, 3, 4, 5, 6])
    }

    func test_todotxt_roundTrip_keepsEveryFieldAndTimesToTheDay() throws {
        let list = try sampleList()
        let copy = try imported(
            Array(TodoTxtFormat.write(list.toDoItems + list.doneItems, timeZone: paris).utf8), as: .todotxt)
        // A title's `+project` and `@home` words are todo.txt's tags: read back, they are tags too,
        // and stay where they stand in the title (issue 52).
        XCTAssertEqual(fields(copy, days: true), fields(list, days: true))
        XCTAssertEqual(copy.toDoItems[3].tags, ["project", "@home"])
    }

    func test_ical_roundTrip_keepsEveryField() throws {
        let list = try sampleList()
        let text = ICalendarFormat.write(
            list.toDoItems + list.doneItems, timeZone: paris, now: now, productID: "-//todo//test//EN")
        let copy = try imported(Array(text.utf8), as: .ical)
        XCTAssertEqual(fields(copy), fields(list))
    }

    func test_importingAnExportIntoItsOwnList_addsNothing() throws {
        var list = try sampleList()
        let before = fields(list)
        for bytes in [
            ItemInterchange.json(list), Array(TodoTxtFormat.write(list.allItems, timeZone: paris).utf8),
            Array(ICalendarFormat.write(list.allItems, timeZone: paris, now: now, productID: "x").utf8)
        ] {
            let summary = try list.importItems(try ItemInterchange.read(bytes, format: .auto, timeZone: paris).items)
            XCTAssertEqual(summary.added.count, 0)
            XCTAssertEqual(summary.skipped.map(\.reason), list.allItems.map { SkipReason.sameID(existing: $0) })
        }
        XCTAssertEqual(fields(list), before)
    }
}
