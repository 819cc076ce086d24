import Foundation
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCore

/// Which changes are in effect, which `undo` and `redo` pick, and the history file's lines.
final class ChangeHistoryTests: XCTestCase {
    private func entry(_ number: Int, _ kind: HistoryEntry.Kind = .change, reverts: [Int] = []) -> HistoryEntry {
        HistoryEntry(
            number: number, time: nil, command: ["c\(number)"], kind: kind, reverts: reverts, steps: [], results: [])
    }

    func test_undoGoesFurtherBack_redoTakesTheLatestUndoBack() throws {
        // 1, 2, 3 made; 4 undid 3; 5 undid 2; 6 redid 5 (so 2 is in effect again).
        let history = ChangeHistory(entries: [
            entry(1), entry(2), entry(3), entry(4, .undo, reverts: [3]),
            entry(5, .undo, reverts: [2]), entry(6, .redo, reverts: [5])
        ])
        XCTAssertEqual(history.revertedBy, [3: 4, 5: 6])
        // A redo is undone like a change; taking 6 back undoes 2 again (5 is in effect once more),
        // so the next one back is 1, as two single undos would find.
        XCTAssertEqual(try history.undoTargets(2).map(\.number), [6, 1])
        XCTAssertEqual(try history.redoTargets(1).map(\.number), [4])
        XCTAssertEqual(try history.redoTargets(nil).map(\.number), [4])
        XCTAssertThrowsError(try history.undoTargets(3)) { error in
            XCTAssertEqual(error as? UndoError, .notEnough(asked: 3, available: 2, redo: false))
        }
        XCTAssertEqual(try history.target(2).number, 2)
        XCTAssertEqual(try history.target(6).number, 6)
        XCTAssertThrowsError(try history.target(3)) { error in
            XCTAssertEqual(error as? UndoError, .alreadyReverted(entry(3), by: entry(4, .undo, reverts: [3])))
        }
        XCTAssertThrowsError(try history.target(9)) { error in
            XCTAssertEqual(error as? UndoError, .unknownChange(9, oldest: 1, newest: 6))
        }
    }

    func test_undoN_takesBackWhatNSingleUndosWould_afterUndoRedoCycles() throws {
        // add base (1); add a (2); undo (3); redo (4); undo (5); redo (6).
        let history = ChangeHistory(entries: [
            entry(1), entry(2), entry(3, .undo, reverts: [2]), entry(4, .redo, reverts: [3]),
            entry(5, .undo, reverts: [4]), entry(6, .redo, reverts: [5])
        ])
        XCTAssertEqual(try history.undoTargets(2).map(\.number), [6, 1])
        let once = ChangeHistory(entries: history.entries + [entry(7, .undo, reverts: [6])])
        XCTAssertEqual(try once.undoTargets(1).map(\.number), [1], "the second of two single undos")
        // `undo 2`, then redo: the unit of both is the change. `redo 2` and `redo` take that undo
        // back whole; `redo 1` would split it, and is refused naming the count that fits; `redo 3`
        // asks for more than was undone.
        let twice = ChangeHistory(entries: history.entries + [entry(7, .undo, reverts: [6, 1])])
        XCTAssertEqual(try twice.redoTargets(nil).map(\.number), [7])
        XCTAssertEqual(try twice.redoTargets(2).map(\.number), [7])
        XCTAssertThrowsError(try twice.redoTargets(1)) { error in
            XCTAssertEqual(
                error as? UndoError, .splits(asked: 1, entry(7, .undo, reverts: [6, 1]), fits: 2, redo: true))
        }
        XCTAssertThrowsError(try twice.redoTargets(3)) { error in
            XCTAssertEqual(error as? UndoError, .notEnough(asked: 3, available: 2, redo: true))
        }
        // Three single undos: `redo 2` takes the latest two back, newest first.
        let singles = ChangeHistory(entries: [
            entry(1), entry(2), entry(3), entry(4, .undo, reverts: [3]), entry(5, .undo, reverts: [2]),
            entry(6, .undo, reverts: [1])
        ])
        XCTAssertEqual(try singles.redoTargets(2).map(\.number), [6, 5])
        // `undo 3` (4), then `redo 3` (5): undo counts the redo as the three changes it made again.
        let redone = ChangeHistory(entries: [
            entry(1), entry(2), entry(3), entry(4, .undo, reverts: [3, 2, 1]), entry(5, .redo, reverts: [4])
        ])
        XCTAssertEqual(redone.changeCount(of: redone.entries[4]), 3)
        XCTAssertEqual(try redone.undoTargets(3).map(\.number), [5])
        XCTAssertEqual(try redone.undoTargets(nil).map(\.number), [5])
        XCTAssertThrowsError(try redone.undoTargets(2)) { error in
            XCTAssertEqual(error as? UndoError, .splits(asked: 2, redone.entries[4], fits: 3, redo: false))
        }
    }

    func test_line_readsBackAsTheSameEntry_withTheNumberFirst() throws {
        var item = ToDoItem(
            title: "Call \"Mom\"\n?", itemDescription: "two\nlines",
            location: Location(name: "Home", address: "1 Main St", coordinate: Coordinate(latitude: 1.5, longitude: -2))
        )
        item.number = 7
        var edited = item
        edited.title = "Call Dad"
        let entry = HistoryEntry(
            number: 12, time: 1_795_361_400, command: ["edit", "7", "--title", "Call Dad"], kind: .redo,
            reverts: [11],
            steps: [
                .replaced(item, at: ItemPlace(done: false, index: 3)),
                .removed(edited, from: ItemPlace(done: true, index: 0)),
                .inserted(item.id, at: ItemPlace(done: false, index: 0))
            ],
            results: [TouchedItem(id: item.id, item: edited), TouchedItem(id: UUID(), item: nil)])
        let line = entry.line()

        XCTAssertEqual(line.last, UInt8(ascii: "\n"))
        XCTAssertEqual(line.filter { $0 == UInt8(ascii: "\n") }.count, 1)
        XCTAssertTrue(
            line.starts(
                with: Array(
                    #"{"change":12,"time":1795361400,"version":2,"command":["edit","7","--title","Call Dad"],"redo":[11],"#
                        .utf8)))
        XCTAssertEqual(HistoryEntry(line: line.dropLast(), local: .utc), entry)
        XCTAssertEqual(HistoryEntry.number(atStartOf: line), 12)
        XCTAssertNil(HistoryEntry.number(atStartOf: Array(#"{"time":1,"change":12}"#.utf8)))
        XCTAssertNil(
            HistoryEntry(line: Array(#"{"change":12,"command":[]}"#.utf8)[...], local: .utc), "no steps: not an entry")
    }

    func test_line_isWrittenMemberByMember_inItsDeclaredForm_andALineThatIsNotOneIsRefused() throws {
        let id = try XCTUnwrap(UUID(uuidString: "0000000A-0000-0000-0000-0000000000FF"))
        let item = ToDoItem(id: id, number: 3, title: "A")
        var writer = JSONWriter()
        item.write(to: &writer)
        let itemText = String(decoding: writer.bytes, as: UTF8.self)
        let entry = HistoryEntry(
            number: 5, time: nil, command: ["undo"], kind: .undo, reverts: [4, 3],
            steps: [
                .inserted(id, at: ItemPlace(done: false, index: 0)),
                .removed(item, from: ItemPlace(done: true, index: 2)),
                .replaced(item, at: ItemPlace(done: false, index: 1))
            ],
            results: [TouchedItem(id: id, item: nil), TouchedItem(id: id, item: item)],
            migration: HistoryEntry.Migration(fromVersion: 1, toVersion: 2, wholeDays: 4, timeZone: "Europe/Paris"))
        let line = String(decoding: entry.line(), as: UTF8.self)
        XCTAssertEqual(
            line,
            #"{"change":5,"version":2,"migrated":{"from":1,"to":2,"wholeDays":4,"timeZone":"Europe/Paris"},"#
                + #""command":["undo"],"undo":[4,3],"steps":[{"insert":"\#(id.uuidString)","done":false,"at":0},"#
                + #"{"remove":\#(itemText),"done":true,"at":2},{"replace":\#(itemText),"done":false,"at":1}],"#
                + #""items":[{"removed":"\#(id.uuidString)"},\#(itemText)]}"# + "\n")
        XCTAssertEqual(HistoryEntry(line: Array(line.utf8).dropLast(), local: .utc), entry)

        let step = #"{"insert":"\#(id.uuidString)","done":false,"at":0}"#
        func read(_ text: String) -> HistoryEntry? { HistoryEntry(line: Array(text.utf8)[...], local: .utc) }
        XCTAssertNotNil(read(#"{"change":5,"command":["x"],"steps":[\#(step)],"items":[]}"#), "the first form's line")
        for damaged in [
            #"{"change":5,"command":["x"],"steps":[{"done":false,"at":0}],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[{"insert":"\#(id.uuidString)","at":0}],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[{"insert":"x","done":false,"at":0}],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[null],"items":[]}"#,
            #"{"change":5,"command":["x",null],"steps":[],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[],"items":[{"removed":"x"}]}"#,
            #"{"change":5,"version":3,"command":["x"],"steps":[],"items":[]}"#,
            #"{"change":0,"command":["x"],"steps":[],"items":[]}"#,
            #"{"change":5,"command":["x"],"undo":[0],"steps":[],"items":[]}"#,
            #"{"change":5,"command":["x"],"undo":null,"steps":[],"items":[]}"#,
            #"{"change":5,"migrated":null,"command":["x"],"steps":[],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[{"remove":null,"replace":\#(itemText),"done":false,"at":0}],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[{"remove":\#(itemText),"replace":\#(itemText),"done":false,"at":0}],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[\#(step.dropLast()),"remove":\#(itemText)}],"items":[]}"#,
            #"{"change":5,"command":["x"],"steps":[],"items":[null]}"#
        ] {
            XCTAssertNil(read(damaged), damaged)
        }
        // A move to a newer format recorded only in part is left out, and the rest read.
        let partly = read(#"{"change":5,"migrated":{"from":1},"command":["x"],"steps":[],"items":[]}"#)
        XCTAssertEqual(partly?.command, ["x"])
        XCTAssertNil(partly?.migration)
    }

    func test_commandLine_quotesWordsForTheShell() {
        let entry = HistoryEntry(
            number: 1, time: nil, command: ["add", "Call Mom", "--due", "01/10/22", "it's", ""],
            steps: [], results: [])
        XCTAssertEqual(entry.commandLine, #"todo add 'Call Mom' --due 01/10/22 'it'\''s' ''"#)
    }
}
