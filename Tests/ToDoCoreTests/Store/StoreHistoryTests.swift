import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

/// The store's history: every change gets a line in the same transaction; what a crash can leave
/// in the history file (a line past the data file's revision, a torn last line) is never shown and
/// is cut off by the next change; the file stays bounded; undo and redo are transactions too.
final class StoreHistoryTests: StoreFolderTestCase {
    var historyURL: URL { URL(fileURLWithPath: fileURL.path + ".history") }

    private func store() -> JSONFileStore {
        JSONFileStore(fileURL: fileURL, now: { Date(timeIntervalSince1970: 1_795_361_400.75) })
    }

    private func titles() throws -> [String] {
        let manager = try store().load()
        return manager.toDoItems.map(\.title) + ["|"] + manager.doneItems.map(\.title)
    }

    private func historyLines() throws -> [String] {
        try String(contentsOf: historyURL, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func test_eachChange_addsOneLine_numberedByTheDataFilesRevision() throws {
        let added = try store().update(command: ["add", "A"]) { try $0.add(ToDoItem(title: "A")) }
        try store().update(command: ["check", "1"]) { try $0.checkItem(withID: added.id) }
        try store().update(command: ["check", "1"]) { try $0.checkItem(withID: added.id) } // no change, no line

        let history = try store().history()
        XCTAssertEqual(history.entries.map(\.number), [1, 2])
        XCTAssertEqual(history.entries.map(\.command), [["add", "A"], ["check", "1"]])
        XCTAssertEqual(history.entries.map(\.time), [1_795_361_400, 1_795_361_400])
        XCTAssertEqual(history.entries[1].itemChanges.map { [$0.before?.done, $0.after?.done] }, [[false, true]])
        XCTAssertTrue(try String(contentsOf: fileURL, encoding: .utf8).contains("\n  \"revision\": 2,\n"))
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: historyURL.path)[.posixPermissions] as? Int, 0o600)
    }

    func test_aLineWrittenBeforeACrash_isNotShown_andTheNextChangeCutsItOff() throws {
        try store().update(command: ["add", "A"]) { try $0.add(ToDoItem(title: "A")) }
        let lines = try historyLines()
        // A crash after the history's line, before the data file was replaced: line 2 exists, the
        // data file is still at revision 1. Then a torn line from a second crash mid-write.
        let phantom = lines[0].replacingOccurrences(of: #"{"change":1,"#, with: #"{"change":2,"#)
            .replacingOccurrences(of: #""title":"A""#, with: #""title":"ghost""#)
        try Data((lines[0] + "\n" + phantom + "\n" + #"{"change":3,"tim"#).utf8).write(to: historyURL)

        XCTAssertEqual(try store().history().entries.map(\.number), [1])
        try store().update(command: ["add", "B"]) { try $0.add(ToDoItem(title: "B")) }

        let history = try store().history()
        XCTAssertEqual(history.entries.map(\.command), [["add", "A"], ["add", "B"]])
        XCTAssertEqual(try historyLines().count, 2)
        XCTAssertFalse(try String(contentsOf: historyURL, encoding: .utf8).contains("ghost"))
        _ = try store().undo(.latest(2), command: ["undo", "2"])
        XCTAssertEqual(try titles(), ["|"])
    }

    func test_theFileKeepsTheLatestChanges_trimmedOnceInAWhile() throws {
        let kept = ChangeHistory.keptChanges, slack = ChangeJournal.trimSlack
        for index in 1...(kept + slack + 3) {
            try store().update(command: ["add", "\(index)"]) { try $0.add(ToDoItem(title: "Item \(index)")) }
        }
        let lines = try historyLines()
        // Change 126 would have made 126 lines: the file was cut to the latest 100, then 2 more came.
        XCTAssertEqual(lines.count, kept + 2)
        XCTAssertEqual(lines.first.flatMap { HistoryEntry.number(atStartOf: Array($0.utf8)) }, slack + 2)
        let history = try store().history()
        XCTAssertEqual(
            history.entries.map(\.number), Array((slack + 4)...(kept + slack + 3)), "the history shows \(kept)")
        XCTAssertEqual(try directory.contents(), storeFiles())
    }

    func test_undo_takesBackTheLatestChanges_andIsItselfTakenBackByRedo() throws {
        let a = try store().update(command: ["add", "A"]) { try $0.add(ToDoItem(title: "A")) }
        let b = try store().update(command: ["add", "B"]) { try $0.add(ToDoItem(title: "B")) }
        try store().update(command: ["check", "1"]) { try $0.checkItem(withID: a.id) }
        try store().update(command: ["remove", "2"]) { try $0.removeItem(withID: b.id) }
        let original = try Data(contentsOf: fileURL)

        XCTAssertEqual(try store().undo(.latest(2), command: ["undo", "2"]).taken.map(\.number), [4, 3])
        XCTAssertEqual(try titles(), ["A", "B", "|"])
        XCTAssertEqual(
            try store().undo(.latest(1), command: ["undo"]).taken.map(\.number), [2], "undo again goes further back")
        XCTAssertEqual(try titles(), ["A", "|"])
        // The last two undos took back three changes between them.
        XCTAssertEqual(try store().undo(.latestUndos(3), command: ["redo", "3"]).taken.map(\.number), [6, 5])
        XCTAssertEqual(try titles(), ["|", "A"])
        XCTAssertEqual(
            try store().load().allItems,
            try ItemManager(storedItems: JSONFileStore(fileURL: fileURL).load().allItems).allItems)
        XCTAssertEqual(try store().load().nextNumber, 3)

        let history = try store().history()
        XCTAssertEqual(history.entries.map(\.kind), [.change, .change, .change, .change, .undo, .undo, .redo])
        XCTAssertEqual(history.entries.last?.reverts, [6, 5])
        // Every field as it was, times included: the file differs only in its revision.
        let text = String(decoding: try Data(contentsOf: fileURL), as: UTF8.self)
        XCTAssertEqual(
            text.replacingOccurrences(of: "\"revision\": 7", with: "\"revision\": 4"),
            String(decoding: original, as: UTF8.self))
    }

    func test_undoOfOneChange_isRefusedWhenALaterChangeDependsOnIt_andChangesNothing() throws {
        let a = try store().update(command: ["add", "A"]) { try $0.add(ToDoItem(title: "A")) }
        try store().update(command: ["edit", "1"]) { try $0.updateItem(withID: a.id) { $0.title = "A2" } }
        try store().update(command: ["add", "B"]) { try $0.add(ToDoItem(title: "B")) }
        let before = try Data(contentsOf: fileURL)
        let historyBefore = try Data(contentsOf: historyURL)

        XCTAssertThrowsError(try store().undo(.change(1), command: ["undo", "--change", "1"])) { error in
            guard case .changedSince(let entry, let item, let by)? = error as? UndoError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(entry.number, 1)
            XCTAssertEqual(item.title, "A2")
            XCTAssertEqual(by?.command, ["edit", "1"])
            XCTAssertEqual(
                "\(error)",
                #"cannot take back change 1 (todo add A): change 2 (todo edit 1) depends on it: it changed item 1 "A2" since; undo that first; nothing was changed"#
            )
        }
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        XCTAssertEqual(try Data(contentsOf: historyURL), historyBefore)

        // A change nothing later depends on can be taken back alone.
        XCTAssertEqual(try store().undo(.change(2), command: ["undo", "--change", "2"]).taken.map(\.number), [2])
        XCTAssertEqual(try titles(), ["A", "B", "|"])
    }

    func test_undo_isRefusedWhenTheListWasChangedOutsideTheHistory() throws {
        try store().update(command: ["add", "A"]) { try $0.add(ToDoItem(title: "A")) }
        // Another program rewrites the title, keeping the revision.
        let text = try String(contentsOf: fileURL, encoding: .utf8).replacingOccurrences(
            of: #""title":"A""#, with: #""title":"Z""#)
        try Data(text.utf8).write(to: fileURL)

        XCTAssertThrowsError(try store().undo(.latest(1), command: ["undo"])) { error in
            XCTAssertEqual(
                "\(error)",
                #"cannot take back change 1 (todo add A): item 1 "Z" was changed since outside the history; nothing was changed"#
            )
        }
        XCTAssertEqual(try String(contentsOf: fileURL, encoding: .utf8), text)
    }

    func test_nothingToUndo_andAnUnreadableLine_areReportedOrSkipped() throws {
        XCTAssertThrowsError(try store().undo(.latest(1), command: ["undo"])) { error in
            XCTAssertEqual(error as? UndoError, .notEnough(asked: 1, available: 0, redo: false))
        }
        try store().update(command: ["add", "A"]) { try $0.add(ToDoItem(title: "A")) }
        let lines = try historyLines()
        try Data(("not json at all\n" + lines[0] + "\n").utf8).write(to: historyURL)
        try store().update(command: ["add", "B"]) { try $0.add(ToDoItem(title: "B")) }

        XCTAssertEqual(try store().history().entries.map(\.number), [1, 2])
        XCTAssertEqual(try historyLines().first, "not json at all", "a line it did not write is left alone")
    }
}
