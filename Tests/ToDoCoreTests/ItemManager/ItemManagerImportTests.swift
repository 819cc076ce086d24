import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

final class ItemManagerImportTests: XCTestCase {
    private func entry(_ item: ToDoItem, _ origin: String, ignored: String? = nil) -> ImportedItem {
        ImportedItem(item: item, origin: origin, ignoredBecause: ignored)
    }

    func test_importItems_skipsKnownIdsAndOpenDuplicates_andKeepsStatus() throws {
        var manager = ItemManager()
        let milk = try manager.add(ToDoItem(title: "Buy milk"))
        let call = try manager.add(ToDoItem(title: "Call Mom"))
        let repeated = ToDoItem(title: "Water")
        let summary = try manager.importItems([
            entry(ToDoItem(title: "Buy milk changed", id: milk.id), "line 1"),
            entry(ToDoItem(title: "Call Mom"), "line 2"),
            entry(.imported(id: UUID(), title: "Call Mom", done: true, completedAt: 5), "line 3"),
            entry(repeated, "line 4"),
            entry(ToDoItem(title: "Water again", id: repeated.id), "line 5"),
            entry(ToDoItem(title: "Gone"), "line 6", ignored: "deleted in Taskwarrior")
        ])
        XCTAssertEqual(summary.added.map(\.title), ["Call Mom", "Water"])
        XCTAssertEqual(summary.added.map(\.number), [3, 4])
        XCTAssertEqual(summary.skipped.map(\.origin), ["line 1", "line 2", "line 5", "line 6"])
        XCTAssertEqual(
            summary.skipped.map(\.reason),
            [
                .sameID(existing: milk), .sameContent(existing: call), .sameID(existing: summary.added[1]),
                .ignored("deleted in Taskwarrior")
            ])
        XCTAssertEqual(manager.toDoItems.map(\.title), ["Buy milk", "Call Mom", "Water"])
        XCTAssertEqual(manager.doneItems.map(\.title), ["Call Mom"])
        XCTAssertEqual(manager.doneItems[0].completedAt, 5)
        XCTAssertEqual(manager.nextNumber, 5)
    }

    /// Strict, an item that breaks a rule stops the import, naming it, and nothing changes.
    func test_importItems_strict_anItemBreakingARule_changesNothingAndNamesIt() throws {
        var manager = ItemManager()
        try manager.add(ToDoItem(title: "Buy milk"))
        let before = manager.allItems
        XCTAssertThrowsError(
            try manager.importItems(
                [
                    entry(ToDoItem(title: "Fine"), "line 1"),
                    entry(ToDoItem(title: "  "), "line 2")
                ], strict: true), ImportError(at: "line 2", "the title is empty"))
        XCTAssertThrowsError(
            try manager.importItems(
                [
                    entry(
                        ToDoItem(
                            title: "Far",
                            location: Location(name: "x", coordinate: Coordinate(latitude: 95, longitude: 0))),
                        "items[0]")
                ], strict: true),
            ImportError(
                at: "items[0]", "the coordinate 95.0,0.0 is out of range (latitude -90...90, longitude -180...180)"))
        XCTAssertEqual(manager.allItems, before)
        XCTAssertEqual(manager.nextNumber, 2)
    }

    /// Without `strict`, one bad item of hundreds is skipped, named, and the rest imported.
    func test_importItems_anItemBreakingARule_isSkipped_andTheRestImported() throws {
        var manager = ItemManager()
        let entries = (1...300).map { entry(ToDoItem(title: $0 == 150 ? "  " : "Item \($0)"), "line \($0)") }
        let summary = try manager.importItems(entries)
        XCTAssertEqual(summary.added.count, 299)
        XCTAssertEqual(summary.skipped.map(\.origin), ["line 150"])
        guard case .refused(let why)? = summary.skipped.first?.reason else { return XCTFail("\(summary.skipped)") }
        XCTAssertEqual(why, "the title is empty")
    }
}
