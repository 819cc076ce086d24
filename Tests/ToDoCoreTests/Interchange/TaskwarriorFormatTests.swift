import Foundation
import TestSupport
@testable import ToDoCore
import XCTest

final class TaskwarriorFormatTests: XCTestCase {
    private let export = """
        [
        {"id":1,"description":"Pay bills","due":"20220110T050000Z","entry":"20220101T120000Z","modified":"20220101T120000Z","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51","annotations":[{"entry":"20220102T120000Z","description":"online"},{"entry":"20220103T120000Z","description":"before noon"}],"tags":["home"],"urgency":8.9},
        {"id":0,"description":"Old task","end":"20220105T120000Z","entry":"20220101T120000Z","status":"completed","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e52"},
        {"id":0,"description":"Gone","status":"deleted","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e53"},
        {"id":2,"description":"Weekly review","status":"recurring","recur":"weekly","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e54"},
        {"id":3,"description":"Later","status":"waiting","wait":"20300101T000000Z","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e55"}
        ]
        """

    func test_read_mapsTasksToItems() throws {
        let read = try ItemInterchange.read(Array(export.utf8), format: .auto, timeZone: .utc)
        XCTAssertEqual(read.format, .taskwarrior)
        let items = read.items
        XCTAssertEqual(items.map(\.item.title), ["Pay bills", "Old task", "Gone", "Weekly review", "Later"])
        XCTAssertEqual(items.map(\.origin), ["task 1", "task 2", "task 3", "task 4", "task 5"])
        XCTAssertEqual(items.map(\.ignoredBecause), [nil, nil, "deleted in Taskwarrior",
                                                     "a recurring template in Taskwarrior (its instances are imported)", nil])
        XCTAssertEqual(items.map(\.item.done), [false, true, false, false, false])
        XCTAssertEqual(items[0].item.id.uuidString, "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E51")
        XCTAssertEqual(items[0].item.timestamp, 1_641_790_800)
        XCTAssertEqual(items[0].item.createdAt, 1_641_038_400)
        XCTAssertEqual(items[0].item.itemDescription, "online\nbefore noon")
        XCTAssertEqual(items[1].item.completedAt, 1_641_384_000)
    }

    func test_read_takesOneTaskPerLine() throws {
        let lines = #"{"description":"One","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51"},"# + "\n"
            + #"{"description":"Two","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e52"}"# + "\n"
        let read = try ItemInterchange.read(Array(lines.utf8), format: .auto, timeZone: .utc)
        XCTAssertEqual(read.format, .taskwarrior)
        XCTAssertEqual(read.items.map(\.item.title), ["One", "Two"])
    }

    func test_read_namesTheTaskAtFault() {
        let cases: [(String, ImportError)] = [
            (#"[{"description":"a","uuid":"nope"}]"#, ImportError(at: "task 1, uuid", "'nope' is not a UUID")),
            (#"[{"description":"a"},{"status":"pending"}]"#, ImportError(at: "task 2, description", "the task has no description")),
            (#"[{"description":"a","due":"tomorrow"}]"#, ImportError(at: "task 1, due", "expected a date as 20231110T230000Z")),
            (#"[{"description":7}]"#, ImportError(at: "task 1, description", "expected a string, found a number")),
            (#"[{"description":"a","annotations":[1]}]"#, ImportError(at: "task 1, annotation 1", "expected an object with a description")),
            ("[3]", ImportError(at: "task 1", "expected a task object, found a number")),
            (#"{"description":"a"}"# + "\n{oops\n", ImportError(at: "line 2", "not JSON: unexpected 'o', expected a string key at column 2")),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ItemInterchange.read(Array(text.utf8), format: .taskwarrior, timeZone: .utc).items, expected)
        }
    }
}
