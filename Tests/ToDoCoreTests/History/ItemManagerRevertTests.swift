import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// Taking a change back gives the list exactly as it was before it, items in their places, for
/// every kind of change; taking the undo back gives the list as the change left it.
final class ItemManagerRevertTests: XCTestCase {
    private func entry(_ manager: ItemManager, number: Int = 1) -> HistoryEntry {
        HistoryEntry(number: number, time: nil, command: [], steps: manager.steps, results: manager.touchedItems())
    }

    /// A list of five open items (1 to 5) with 2 and 4 checked, restored as a store would read it.
    private func list() throws -> ItemManager {
        var manager = ItemManager()
        for title in ["A", "B", "C", "D", "E"] { try manager.add(ToDoItem(title: title)) }
        try manager.checkItem(withID: manager.item(withNumber: 2)!.id)
        try manager.checkItem(withID: manager.item(withNumber: 4)!.id)
        return try ItemManager(storedItems: manager.allItems, nextNumber: manager.nextNumber)
    }

    private func order(_ manager: ItemManager) -> [String] {
        manager.toDoItems.map(\.title) + ["|"] + manager.doneItems.map(\.title)
    }

    /// Applies `change`, takes it back, then takes the undo back: the list must be as before, then
    /// as after.
    private func assertRoundTrip(
        _ name: String, _ change: (inout ItemManager) throws -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let original = try list()
        var changed = original
        try change(&changed)
        XCTAssertFalse(changed.steps.isEmpty, name, file: file, line: line)
        let made = entry(changed)
        var undone = try ItemManager(storedItems: changed.allItems, nextNumber: changed.nextNumber)
        try undone.revert(made, in: ChangeHistory(entries: [made]))
        XCTAssertEqual(undone.toDoItems, original.toDoItems, "\(name): open items after undo", file: file, line: line)
        XCTAssertEqual(undone.doneItems, original.doneItems, "\(name): done items after undo", file: file, line: line)
        XCTAssertEqual(
            undone.nextNumber, changed.nextNumber, "\(name): numbers are never given again", file: file, line: line)

        var undo = entry(undone, number: 2)
        undo.kind = .undo
        undo.reverts = [1]
        var redone = try ItemManager(storedItems: undone.allItems, nextNumber: undone.nextNumber)
        try redone.revert(undo, in: ChangeHistory(entries: [made, undo]))
        XCTAssertEqual(order(redone), order(changed), "\(name): redo", file: file, line: line)
        XCTAssertEqual(redone.allItems, changed.allItems, "\(name): redo", file: file, line: line)
    }

    func test_revert_restoresTheListExactly_forEveryKindOfChange() throws {
        try assertRoundTrip("add") { try $0.add(ToDoItem(title: "F")) }
        try assertRoundTrip("check the first open item") { try $0.checkItem(withID: $0.item(withNumber: 1)!.id) }
        try assertRoundTrip("check a middle item") { try $0.checkItem(withID: $0.item(withNumber: 3)!.id) }
        try assertRoundTrip("uncheck") { try $0.uncheckItem(withID: $0.item(withNumber: 2)!.id) }
        try assertRoundTrip("remove several") { manager in
            for number in [5, 1, 4, 3] { try manager.removeItem(withID: manager.item(withNumber: number)!.id) }
        }
        try assertRoundTrip("edit") {
            try $0.updateItem(withID: $0.item(withNumber: 3)!.id) {
                $0.title = "C2"; $0.timestamp = 0
            }
        }
        try assertRoundTrip("edit a done item") {
            try $0.updateItem(withID: $0.item(withNumber: 4)!.id) { $0.itemDescription = "x" }
        }
        try assertRoundTrip("remove all") { $0.removeAll() }
        try assertRoundTrip("remove done items") { $0.removeDoneItems() }
        try assertRoundTrip("check, then edit the same item") { manager in
            let id = manager.item(withNumber: 1)!.id
            try manager.checkItem(withID: id)
            try manager.updateItem(withID: id) { $0.title = "A2" }
            try manager.uncheckItem(withID: manager.item(withNumber: 2)!.id)
        }
        try assertRoundTrip("import") { manager in
            _ = try manager.importItems([
                ImportedItem(item: ToDoItem(title: "G"), origin: "line 1"),
                ImportedItem(item: ToDoItem(title: "A"), origin: "line 2")
            ])
        }
    }

    func test_revert_refusesWhenAnItemChangedSince_andNamesTheLaterChange() throws {
        var manager = try list()
        let id = manager.item(withNumber: 3)!.id
        try manager.checkItem(withID: id)
        let check = entry(manager, number: 1)
        var later = try ItemManager(storedItems: manager.allItems, nextNumber: manager.nextNumber)
        try later.updateItem(withID: id) { $0.title = "C2" }
        let edit = entry(later, number: 2)
        let history = ChangeHistory(entries: [check, edit])
        var current = try ItemManager(storedItems: later.allItems, nextNumber: later.nextNumber)

        XCTAssertThrowsError(try current.revert(check, in: history)) { error in
            XCTAssertEqual(error as? UndoError, .changedSince(check, item: later.item(withID: id)!, by: edit))
        }
        XCTAssertEqual(current.allItems, later.allItems)
        XCTAssertTrue(current.steps.isEmpty, "nothing was changed")
    }

    func test_revert_refusesToPutBackAnOpenItemWhoseContentIsOpenAgain() throws {
        var manager = try list()
        try manager.removeItem(withID: manager.item(withNumber: 1)!.id)
        let removal = entry(manager)
        var later = try ItemManager(storedItems: manager.allItems, nextNumber: manager.nextNumber)
        let again = try later.add(ToDoItem(title: "A"))

        XCTAssertThrowsError(try later.revert(removal, in: ChangeHistory(entries: [removal]))) { error in
            XCTAssertEqual(error as? UndoError, .refused(removal, .duplicateContent(existing: again)))
        }
        XCTAssertEqual(later.toDoItems.map(\.title), ["C", "E", "A"])
    }

    func test_revert_ofAHandEditedHistory_neverMakesTwoItemsWithOneIDOrNumber() throws {
        let manager = try list()
        let a = manager.item(withNumber: 1)!
        var twin = ToDoItem(title: "Twin")
        twin.number = 3
        let place = ItemPlace(done: false, index: 0)
        for (entry, expected) in [
            (
                HistoryEntry(number: 9, time: nil, command: [], steps: [.removed(a, from: place)], results: []),
                UndoError.refused(
                    HistoryEntry(number: 9, time: nil, command: [], steps: [.removed(a, from: place)], results: []),
                    .duplicateID(existing: a))
            ),
            (
                HistoryEntry(number: 9, time: nil, command: [], steps: [.removed(twin, from: place)], results: []),
                UndoError.refused(
                    HistoryEntry(number: 9, time: nil, command: [], steps: [.removed(twin, from: place)], results: []),
                    .duplicateNumber(existing: manager.item(withNumber: 3)!))
            )
        ] {
            var current = manager
            XCTAssertThrowsError(try current.revert(entry, in: ChangeHistory(entries: [entry]))) { error in
                XCTAssertEqual(error as? UndoError, expected)
            }
            XCTAssertEqual(current.allItems, manager.allItems)
        }
    }

    func test_steps_recordWhatEachChangeReplaced() throws {
        var manager = try list()
        let c = manager.item(withNumber: 3)!
        try manager.checkItem(withID: c.id)
        XCTAssertEqual(
            manager.steps,
            [
                .removed(c, from: ItemPlace(done: false, index: 1)),
                .inserted(c.id, at: ItemPlace(done: true, index: 2))
            ])
        XCTAssertEqual(manager.touchedItems().map(\.item), [manager.doneItems[2]])
    }
}
