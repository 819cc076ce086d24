import Foundation
import TestSupport
@testable import ToDoCore
import XCTest

final class TodoTxtFormatTests: XCTestCase {
    private let newYork = TimeZoneRules(TimeZone(identifier: "America/New_York")!)

    func test_write_putsDoneMarksDatesAndTodosFieldsAsTags() throws {
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1_641_790_800) })
        let ids = (1...3).map { UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5\($0)")! }
        try manager.add(ToDoItem(title: "Call Mom +family", timestamp: 1_641_790_800, id: ids[0]))
        try manager.add(ToDoItem(title: "Water", itemDescription: "Twice a week, 50% more", timestamp: 1_907_708_400,
                                 location: Location(name: "Garden shed", address: "1 Main St", coordinate: Coordinate(latitude: 1.5, longitude: -2)),
                                 id: ids[1]))
        try manager.add(ToDoItem(title: "Old", id: ids[2]))
        _ = try manager.checkItem(withID: ids[0])
        XCTAssertEqual(TodoTxtFormat.write(manager.toDoItems + manager.doneItems, timeZone: newYork), """
            2022-01-10 Water due:2030-06-14T19:00 desc:Twice%20a%20week,%2050%25%20more loc:Garden%20shed addr:1%20Main%20St geo:1.5,-2 id:\(ids[1].uuidString)
            2022-01-10 Old id:\(ids[2].uuidString)
            x 2022-01-10 2022-01-10 Call Mom +family due:2022-01-10 id:\(ids[0].uuidString)

            """)
    }

    func test_read_takesOtherTodoTxtFiles() throws {
        let text = "(A) 2022-01-09 Call Mom @phone +family due:2022-01-10 rec:1w\r\n\r\nx 2022-01-11 2022-01-01 Pay rent\nx Done without dates\nPlain line with url http://example.com\n"
        let items = try TodoTxtFormat.read(text, timeZone: newYork)
        XCTAssertEqual(items.map(\.origin), ["line 1", "line 3", "line 4", "line 5"])
        XCTAssertEqual(items.map(\.item.title), ["(A) Call Mom @phone +family rec:1w", "Pay rent", "Done without dates", "Plain line with url http://example.com"])
        XCTAssertEqual(items.map(\.item.done), [false, true, true, false])
        XCTAssertEqual(items[0].item.timestamp, 1_641_790_800)
        XCTAssertEqual(items[0].item.createdAt, 1_641_704_400)
        XCTAssertEqual(items[1].item.completedAt, 1_641_877_200)
        XCTAssertEqual(items[1].item.createdAt, 1_641_013_200)
        XCTAssertNil(items[2].item.completedAt)
    }

    func test_read_namesTheLineAtFault() {
        let cases: [(String, ImportError)] = [
            ("ok\nBuy milk due:2022-13-01\n", ImportError(at: "line 2", "'due:2022-13-01' is not a due date; expected due:YYYY-MM-DD")),
            ("ok\n\nBuy due:tomorrow\n", ImportError(at: "line 3", "'due:tomorrow' is not a due date; expected due:YYYY-MM-DD")),
            ("Buy id:123\n", ImportError(at: "line 1", "'id:123' is not an id (a UUID)")),
            ("Buy geo:91,0\n", ImportError(at: "line 1", "'geo:91,0' is not a coordinate; expected geo:LAT,LON")),
            ("Buy desc:%ZZ\n", ImportError(at: "line 1", "'desc:%ZZ' is not percent-encoded text")),
            ("x 2022-01-10 due:2022-01-11\n", ImportError(at: "line 1", "the item has no title")),
            ("2022-02-30 Buy\n", ImportError(at: "line 1", "'2022-02-30' is not a date")),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try TodoTxtFormat.read(text, timeZone: newYork), expected)
        }
    }
}
