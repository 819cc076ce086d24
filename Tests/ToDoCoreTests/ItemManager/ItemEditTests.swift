import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// `ItemManager.edit(itemWithID:_:)` owns the edit's rules, so that a library user gets the same
/// ones as the command line: the place merge, an address or coordinate needing a place, a place
/// needing a name, and every change's rules; a refused edit changes nothing.
final class ItemEditTests: XCTestCase {
    private var manager = ItemManager()

    private func add(_ item: ToDoItem) throws -> ToDoItem { try manager.add(item) }

    func test_fieldsAreKeptSetOrRemoved() throws {
        let item = try add(ToDoItem(title: "Call Mom", itemDescription: "Sunday", timestamp: 100))
        let edited = try manager.edit(
            itemWithID: item.id, ItemEdit(title: "Call Dad", due: .remove, itemDescription: .set("Monday")))
        XCTAssertEqual(edited.title, "Call Dad")
        XCTAssertNil(edited.timestamp)
        XCTAssertEqual(edited.itemDescription, "Monday")
        XCTAssertEqual(manager.item(withID: item.id), edited)
        XCTAssertEqual(
            try manager.edit(itemWithID: item.id, ItemEdit()).title, "Call Dad", "an empty edit keeps everything")
    }

    func test_anAddressOrCoordinate_changesThePlaceTheItemHas() throws {
        let item = try add(ToDoItem(title: "Water", location: Location(name: "Garden", address: "1 Main St")))
        let moved = try manager.edit(
            itemWithID: item.id, ItemEdit(coordinate: .set(Coordinate(latitude: 1, longitude: 2))))
        XCTAssertEqual(
            moved.location,
            Location(name: "Garden", address: "1 Main St", coordinate: Coordinate(latitude: 1, longitude: 2)))
        XCTAssertEqual(moved.location?.address, "1 Main St", "the address stays")
        let cleared = try manager.edit(itemWithID: item.id, ItemEdit(address: .remove))
        XCTAssertNil(cleared.location?.address)
        XCTAssertEqual(cleared.location?.coordinate, Coordinate(latitude: 1, longitude: 2))
        // A new place and its address in one edit.
        let replaced = try manager.edit(
            itemWithID: item.id, ItemEdit(location: .set(Location(name: "Park")), address: .set("2 Elm St")))
        XCTAssertEqual(replaced.location?.name, "Park")
        XCTAssertEqual(replaced.location?.address, "2 Elm St")
        XCTAssertNil(try manager.edit(itemWithID: item.id, ItemEdit(location: .remove)).location)
    }

    func test_refusals_changeNothing() throws {
        let placeless = try add(ToDoItem(title: "Read"))
        let other = try add(ToDoItem(title: "Write"))
        let before = manager
        XCTAssertThrowsError(try manager.edit(itemWithID: placeless.id, ItemEdit(address: .set("1 Main St")))) {
            error in
            XCTAssertEqual(error as? ItemManagerError, .noLocation(placeless))
        }
        XCTAssertThrowsError(try manager.edit(itemWithID: placeless.id, ItemEdit(coordinate: .remove))) { error in
            XCTAssertEqual(error as? ItemManagerError, .noLocation(placeless))
        }
        XCTAssertThrowsError(
            try manager.edit(itemWithID: placeless.id, ItemEdit(location: .set(Location(name: " \t"))))
        ) { error in
            XCTAssertEqual(error as? ItemManagerError, .emptyLocationName)
        }
        XCTAssertThrowsError(try manager.edit(itemWithID: placeless.id, ItemEdit(title: "Write"))) { error in
            XCTAssertEqual(error as? ItemManagerError, .duplicateContent(existing: other))
        }
        XCTAssertThrowsError(try manager.edit(itemWithID: placeless.id, ItemEdit(title: "two\nlines"))) { error in
            XCTAssertEqual(error as? ItemManagerError, .multilineTitle("two\nlines"))
        }
        XCTAssertThrowsError(try manager.edit(itemWithID: UUID(), ItemEdit(title: "x"))) { error in
            guard case .noSuchItem? = error as? ItemManagerError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(manager.allItems, before.allItems)
        XCTAssertEqual(manager.changeCount, before.changeCount)
        XCTAssertEqual(
            String(describing: ItemManagerError.noLocation(placeless)),
            "item 1 has no location to give an address or coordinate to")
    }

    func test_addingAnItemWhosePlaceHasNoName_isRefusedAndChangesNothing() throws {
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "Water", location: Location(name: " \t")))) { error in
            XCTAssertEqual(error as? ItemManagerError, .emptyLocationName)
        }
        XCTAssertEqual(manager.toDoCount, 0)
        XCTAssertFalse(manager.changes.changeList)
    }

    /// What the store writes and records is handed over as one value.
    func test_changes_sayWhatChangedAndWhichItemsItTouched() throws {
        XCTAssertFalse(manager.changes.changeList)
        let item = try add(ToDoItem(title: "Water"))
        let checked = try manager.checkItem(withID: item.id)
        let changes = manager.changes
        XCTAssertTrue(changes.changeList)
        XCTAssertEqual(
            changes.steps.count, 3, "inserted, then removed from the open items and inserted in the done ones")
        XCTAssertEqual(changes.touchedItems, [TouchedItem(id: item.id, item: checked)])
    }
}
