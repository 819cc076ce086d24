import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCLI

/// A long list is measured and written in two halves on two cores; what it prints is the same as
/// when written in one go, in every section, with and without colour, to a pipe and to a narrow
/// terminal, subtasks under their parents.
final class ListRendererTests: XCTestCase {
    func test_aListWrittenInTwoHalves_isTheListWrittenInOneGo() throws {
        let directory = try TemporaryDirectory()
        let store = JSONFileStore(
            fileURL: directory.url.appendingPathComponent("todo.json"),
            now: { Date(timeIntervalSince1970: 1_700_000_000) })
        var random = SeededGenerator(seed: 0x715)
        // Plain and unusual titles and places (controls, non-ASCII, escapes), dates with and
        // without a time of day, past and future; a quarter done.
        let pools: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x20...0x7E, 0x20...0x7E, 0x00...0x09, 0x0E...0x1F, 0x7F...0x84, 0xA0...0x2FF, 0x4E00...0x4E20
        ]
        try store.update { manager in
            var ids: [UUID] = []
            for index in 0..<3_001 {
                let title = "\(index) " + random.text(from: pools, maximumLength: 12)
                let due: Double? =
                    Bool.random(using: &random)
                    ? Double(Int.random(in: 1_500_000_000...1_900_000_000, using: &random) / 60 * 60) : nil
                let place =
                    Int.random(in: 0..<3, using: &random) == 0
                    ? Location(name: "P" + random.text(from: pools, maximumLength: 8)) : nil
                var item = ToDoItem(title: title, timestamp: due, location: place)
                // Tags (some with escapes in the file, shown decoded), a project, a list, a
                // priority and a repeat on some.
                if index % 3 == 0 {
                    item.tags = index % 9 == 0 ? ["home", "@phone"] : [["a\"b", "c\\d", "café", "x"][index % 4], "y"]
                }
                if index % 5 == 0 { item.project = "P\(index % 7)" }
                if index % 7 == 0 { item.list = "L\(index % 5)" }
                if index % 4 == 1 { item.priority = [1, 5, 9][index % 3] }
                if index % 11 == 0, due != nil { item.repeatRule = "FREQ=WEEKLY" }
                // Subtasks of items far before them, and of subtasks.
                if index % 13 == 5, index > 500 { item.parent = ids[index - 17 * (index % 29) - 1] }
                item = try manager.add(item)
                ids.append(item.id)
                if index % 4 == 0 { try manager.checkItem(withID: item.id) }
            }
        }
        var manager = try store.load()
        // Items read from the file keep their written form; a changed one does not.
        try manager.updateItem(withID: manager.toDoItems[5].id) { $0.title = "Changed \u{1B}[31m" }

        for (isEnabled, width) in [(false, nil), (true, nil), (false, 60)] as [(Bool, Int?)] {
            for section in [ListSection.all, .open, .done] {
                let dates = DueDateFormatter(timeZone: TimeZone(identifier: "Europe/Paris")!)
                var renderer = ListRenderer(
                    style: Style(isEnabled: isEnabled), dates: dates, now: Date(timeIntervalSince1970: 1_700_000_000))
                renderer.width = width
                let open = manager.openStored.array, done = manager.doneStored.array
                let trees = (ItemManager.treeOrder(of: open), ItemManager.treeOrder(of: done))
                XCTAssertNotNil(trees.0.positions)
                XCTAssertTrue(trees.0.depths?.contains(2) == true)
                renderer.twoHalvesMinimumCount = .max
                let inOneGo = CapturedOutput()
                renderer.write(open: open, done: done, trees: trees, section: section, to: inOneGo)
                renderer.twoHalvesMinimumCount = 2
                let inHalves = CapturedOutput()
                renderer.write(open: open, done: done, trees: trees, section: section, to: inHalves)
                let context = "colour \(isEnabled), width \(width ?? 0), \(section)"
                XCTAssertEqual(inHalves.text, inOneGo.text, context)
                // The same as the items moved into tree order, indented as deep.
                func moved(_ items: [StoredItem], _ tree: ItemManager.TreeOrder) -> [StoredItem] {
                    tree.positions.map { $0.map { items[$0] } } ?? items
                }
                let inTreeOrder = CapturedOutput()
                renderer.write(
                    open: moved(open, trees.0), done: moved(done, trees.1),
                    trees: (
                        ItemManager.TreeOrder(positions: nil, depths: trees.0.depths),
                        ItemManager.TreeOrder(positions: nil, depths: trees.1.depths)
                    ),
                    section: section, to: inTreeOrder)
                XCTAssertEqual(inHalves.text, inTreeOrder.text, context)
                let rows = inOneGo.text.split(separator: "\n", omittingEmptySubsequences: false)
                XCTAssertEqual(
                    rows.count, section == .all ? 3_001 + 3 : section == .open ? 2_250 + 1 : 751 + 1, context)
                XCTAssertTrue(inOneGo.text.contains(" +home @phone"), context)
            }
        }
    }
}
