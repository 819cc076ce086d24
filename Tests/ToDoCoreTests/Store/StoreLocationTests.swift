import Foundation
import ToDoCore
import XCTest

final class StoreLocationTests: XCTestCase {
    let home = "/home/ada"
    let cwd = "/work/project"

    func test_default_isUnderTheHomeDirectory() {
        XCTAssertEqual(resolve(nil, [:]), "/home/ada/.local/share/todo/items.json")
    }

    func test_xdgDataHome_replacesTheDefaultDataDirectory() {
        XCTAssertEqual(resolve(nil, ["XDG_DATA_HOME": "/data"]), "/data/todo/items.json")
    }

    func test_emptyOrRelativeXDGDataHome_isIgnored() {
        XCTAssertEqual(resolve(nil, ["XDG_DATA_HOME": ""]), "/home/ada/.local/share/todo/items.json")
        XCTAssertEqual(resolve(nil, ["XDG_DATA_HOME": "data"]), "/home/ada/.local/share/todo/items.json")
    }

    func test_todoFile_overridesXDGDataHome() {
        XCTAssertEqual(resolve(nil, ["TODO_FILE": "/tmp/list.json", "XDG_DATA_HOME": "/data"]), "/tmp/list.json")
    }

    func test_emptyTodoFile_isIgnored() {
        XCTAssertEqual(resolve(nil, ["TODO_FILE": "", "XDG_DATA_HOME": "/data"]), "/data/todo/items.json")
    }

    func test_fileOption_overridesEverything() {
        XCTAssertEqual(resolve("/x/y.json", ["TODO_FILE": "/tmp/list.json", "XDG_DATA_HOME": "/data"]), "/x/y.json")
    }

    func test_relativePaths_areTakenFromTheCurrentDirectory() {
        XCTAssertEqual(resolve("lists/a.json", [:]), "/work/project/lists/a.json")
        XCTAssertEqual(resolve(nil, ["TODO_FILE": "../b.json"]), "/work/b.json")
        XCTAssertEqual(
            resolve("./a//b/../c.json", [:]), "/work/project/a/c.json",
            "standardized, as Foundation's standardizedFileURL")
        XCTAssertEqual(resolve("../../../x.json", [:]), "/x.json", "never above the root")
    }

    private func resolve(_ option: String?, _ environment: [String: String]) -> String {
        StoreLocation.path(fileOption: option, environment: environment, homeDirectory: home, currentDirectory: cwd)
    }
}
