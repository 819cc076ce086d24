import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// The rules of priorities and tags, in the core where every command meets them.
final class OrganisingFieldRulesTests: XCTestCase {
    func test_priorityWords_nameICalendarPriorities() {
        XCTAssertEqual(PriorityLevel.priority(named: "High"), 1)
        XCTAssertEqual(PriorityLevel.priority(named: "m"), 5)
        XCTAssertEqual(PriorityLevel.priority(named: "LOW"), 9)
        XCTAssertEqual(PriorityLevel.priority(named: "3"), 3)
        XCTAssertEqual(PriorityLevel.priority(named: "none"), .some(nil))
        for word in ["0", "10", "urgent", "", "hi", "1.0"] {
            XCTAssertTrue(PriorityLevel.priority(named: word) == nil, word)
        }
        XCTAssertEqual((1...9).map { PriorityLevel($0) }, [.high, .high, .high, .high, .medium, .low, .low, .low, .low])
    }

    func test_tags_areOneWordEach_keptOnceIgnoringCase_inTheOrderGiven() {
        XCTAssertEqual(Tags.normalized(["Home", "errand", "home", "ERRAND", "x"]), ["Home", "errand", "x"])
        XCTAssertTrue(Tags.isValid("café"))
        for tag in ["", "two words", "tab\there", "line\nbreak", "\u{7}"] { XCTAssertFalse(Tags.isValid(tag), tag) }
    }

    func test_theManager_refusesABadPriorityOrTag_andKeepsTagsOnce() throws {
        var manager = ItemManager()
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "A", priority: 10))) {
            XCTAssertEqual($0 as? ItemManagerError, .invalidPriority(10))
        }
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "A", tags: ["a b"]))) {
            XCTAssertEqual($0 as? ItemManagerError, .invalidTag("a b"))
        }
        let added = try manager.add(ToDoItem(title: "A", tags: ["x", "X", "y"]))
        XCTAssertEqual(added.tags, ["x", "y"])
        let edited = try manager.edit(
            itemWithID: added.id, ItemEdit(priority: .set(2), addedTags: ["z", "Y"], removedTags: ["X"]))
        XCTAssertEqual(edited.tags, ["y", "z"])
        XCTAssertEqual(edited.priority, 2)
        XCTAssertThrowsError(try manager.edit(itemWithID: added.id, ItemEdit(addedTags: [""]))) {
            XCTAssertEqual($0 as? ItemManagerError, .invalidTag(""))
        }
        XCTAssertEqual(manager.toDoItems.first?.tags, ["y", "z"], "a refused edit changes nothing")
    }

    func test_anotherProgramsPriority_isKept_untilTodoSetsItsOwn() throws {
        var item = try ToDoItem(
            json: try JSONValue(
                parsing: Array(
                    #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","priority":0,"tags":"x","folder":"Home"}"#
                        .utf8)), path: "")
        XCTAssertNil(item.priority)
        XCTAssertEqual(item.tags, [])
        XCTAssertEqual(item.unknownMembers.keys, ["priority", "tags", "folder"])
        item.priority = 5
        item.tags = ["y"]
        XCTAssertEqual(item.unknownMembers.keys, ["folder"])
        XCTAssertEqual(
            String(decoding: item.json.serializedCompactly(), as: UTF8.self),
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","priority":5,"tags":["y"],"done":false,"folder":"Home"}"#
        )
    }

    /// However an item enters the list (restored, added, edited), the manager knows it may hold
    /// subtasks and start dates, and so finds the open subtasks a check would leave behind.
    func test_everyWayIn_notesSubtasksAndStartDates() throws {
        let parent = ToDoItem(title: "Trip"), child = ToDoItem(title: "Pack")
        var withChild = child
        withChild.parent = parent.id
        let restored = try ItemManager(storedItems: [parent, withChild])
        XCTAssertTrue(restored.mayHaveSubtasks)
        XCTAssertEqual(restored.openSubtasksLeftBehind(by: [parent.id])?.subtasks.map(\.title), ["Pack"])

        var edited = ItemManager()
        let trip = try edited.add(ToDoItem(title: "Trip")), pack = try edited.add(ToDoItem(title: "Pack"))
        XCTAssertFalse(edited.mayHaveSubtasks)
        _ = try edited.edit(itemWithID: pack.id, ItemEdit(start: .set(.time(86_400)), parent: .set(trip.id)))
        XCTAssertTrue(edited.mayHaveSubtasks)
        XCTAssertTrue(edited.mayHaveStartDates)
        XCTAssertEqual(edited.openSubtasksLeftBehind(by: [trip.id])?.subtasks.map(\.title), ["Pack"])
    }
}
