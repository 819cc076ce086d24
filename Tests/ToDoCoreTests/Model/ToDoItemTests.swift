import Foundation
import TestSupport
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCore

/// The book's ToDoItem tests (3rd edition, chapter 3; 4th edition's id and Codable), adapted:
/// items are told apart by id, and "same content" is what the uniqueness rules compare.
final class ToDoItemTests: XCTestCase {
    /// One initializer takes the identity, the status and the fields most callers set (a list's
    /// items are plain values too: `JSONFileStoreTests.test_anItemHandedOut_isAValue`).
    func test_theInitializer_setsTheFieldsItTakes() throws {
        let id = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!, parent = UUID()
        let item = ToDoItem(
            id: id, number: 7, done: true, title: "T", itemDescription: "D",
            due: .day(try XCTUnwrap(Day(number: 20_000))),
            start: .time(1_700_000_000), repeatRule: "FREQ=DAILY", location: Location(name: "Home", address: "Main St"),
            priority: 1, tags: ["a"], parent: parent, inProgress: true, percentComplete: 40, url: "https://example.com",
            createdAt: 1, completedAt: 2, modifiedAt: 3)
        XCTAssertEqual(
            [item.title, item.itemDescription, item.repeatRule, item.url, item.location?.address],
            ["T", "D", "FREQ=DAILY", "https://example.com", "Main St"])
        XCTAssertEqual(item.due, .day(try XCTUnwrap(Day(number: 20_000))))
        XCTAssertEqual(item.start, .time(1_700_000_000))
        XCTAssertEqual([item.id, item.parent], [id, parent])
        XCTAssertEqual([item.number, item.priority, item.percentComplete], [7, 1, 40])
        XCTAssertEqual([item.done, item.inProgress], [true, true])
        XCTAssertEqual([item.createdAt, item.completedAt, item.modifiedAt], [1, 2, 3])
    }

    func test_init_takesTitle() {
        let item = ToDoItem(title: "Foo")

        XCTAssertEqual(item.title, "Foo")
        XCTAssertNil(item.itemDescription)
        XCTAssertNil(item.timestamp)
        XCTAssertNil(item.location)
    }

    func test_init_takesTitleAndDescription() {
        let item = ToDoItem(title: "Foo", itemDescription: "Bar")

        XCTAssertEqual(item.itemDescription, "Bar")
    }

    func test_init_whenGivenTimestamp_setsTimestamp() {
        let item = ToDoItem(title: "", timestamp: 0.0)

        XCTAssertEqual(item.timestamp, 0.0)
    }

    func test_init_whenGivenLocation_setsLocation() {
        let location = Location(name: "Foo")
        let item = ToDoItem(title: "", location: location)

        XCTAssertEqual(item.location, location)
    }

    func test_init_startsOpenUnnumberedAndWithoutTimes() {
        let item = ToDoItem(title: "Foo")

        XCTAssertFalse(item.done)
        XCTAssertEqual(item.number, 0)
        XCTAssertNil(item.createdAt)
        XCTAssertNil(item.completedAt)
    }

    func test_init_givesEachItemItsOwnID() {
        XCTAssertNotEqual(ToDoItem(title: "Foo").id, ToDoItem(title: "Foo").id)
        XCTAssertNotEqual(ToDoItem(title: "Foo"), ToDoItem(title: "Foo"))
    }

    func test_hasSameContent_comparesTitleDescriptionDueDateAndLocation() {
        let item = ToDoItem(title: "Foo", itemDescription: "Bar", timestamp: 1.0, location: Location(name: "Home"))

        XCTAssertTrue(
            item.hasSameContent(
                as: ToDoItem(
                    title: "Foo", itemDescription: "Bar", timestamp: 1.0,
                    location: Location(name: "Home"))))
        XCTAssertFalse(
            item.hasSameContent(
                as: ToDoItem(
                    title: "Baz", itemDescription: "Bar", timestamp: 1.0,
                    location: Location(name: "Home"))))
        XCTAssertFalse(
            item.hasSameContent(
                as: ToDoItem(
                    title: "Foo", itemDescription: "Baz", timestamp: 1.0,
                    location: Location(name: "Home"))))
        XCTAssertFalse(
            item.hasSameContent(
                as: ToDoItem(
                    title: "Foo", itemDescription: nil, timestamp: 1.0,
                    location: Location(name: "Home"))))
        XCTAssertFalse(
            item.hasSameContent(
                as: ToDoItem(
                    title: "Foo", itemDescription: "Bar", timestamp: 2.0,
                    location: Location(name: "Home"))))
        XCTAssertFalse(
            item.hasSameContent(
                as: ToDoItem(
                    title: "Foo", itemDescription: "Bar", timestamp: 1.0,
                    location: Location(name: "Work"))))
        XCTAssertFalse(item.hasSameContent(as: ToDoItem(title: "Foo", itemDescription: "Bar", timestamp: 1.0)))
    }

    func test_json_usesTheSpecKeysInStableOrderAndOmitsAbsentOptionals() {
        let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!
        let item = ToDoItem(title: "Call Mom", id: id)

        XCTAssertEqual(
            String(decoding: item.json.serializedCompactly(), as: UTF8.self),
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"Call Mom","done":false}"#)
    }

    func test_json_writesEveryField() throws {
        let text =
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","number":7,"title":"Call Mom","itemDescription":"About the trip","timestamp":1641772800,"location":{"name":"Home"},"done":true,"createdAt":1641700000.5,"completedAt":1641800000}"#

        let item = try ToDoItem(json: JSONValue(parsing: Array(text.utf8)), path: "")

        XCTAssertEqual(item.number, 7)
        XCTAssertEqual(item.title, "Call Mom")
        XCTAssertEqual(item.itemDescription, "About the trip")
        XCTAssertEqual(item.timestamp, 1_641_772_800)
        XCTAssertEqual(item.location, Location(name: "Home"))
        XCTAssertTrue(item.done)
        XCTAssertEqual(item.createdAt, 1_641_700_000.5)
        XCTAssertEqual(item.completedAt, 1_641_800_000)
        XCTAssertEqual(String(decoding: item.json.serializedCompactly(), as: UTF8.self), text)
    }

    func test_json_keepsUnknownFieldsAfterTheKnownOnes() throws {
        let text =
            #"{"priority":"high","id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","tags":["x",{"y":null}],"done":false,"big":123456789012345678901234567890}"#

        let item = try ToDoItem(json: JSONValue(parsing: Array(text.utf8)), path: "")

        XCTAssertEqual(
            String(decoding: item.json.serializedCompactly(), as: UTF8.self),
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","done":false,"priority":"high","tags":["x",{"y":null}],"big":123456789012345678901234567890}"#
        )
    }

    func test_json_readsTheBookAppsItemWithLowercaseIDAndNoNumber() throws {
        let text =
            #"{"id":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f","title":"Buy milk","timestamp":1641772800,"done":false,"location":{"name":"Shop","coordinate":{"latitude":52.5,"longitude":13.4}}}"#

        let item = try ToDoItem(json: JSONValue(parsing: Array(text.utf8)), path: "")

        XCTAssertEqual(item.id, UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"))
        XCTAssertEqual(item.number, 0)
        XCTAssertEqual(item.location?.coordinate, Coordinate(latitude: 52.5, longitude: 13.4))
    }

    func test_json_treatsNullAsAbsent() throws {
        let text = #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","itemDescription":null,"location":null}"#

        let item = try ToDoItem(json: JSONValue(parsing: Array(text.utf8)), path: "")

        XCTAssertNil(item.itemDescription)
        XCTAssertNil(item.location)
        XCTAssertFalse(item.done)
    }

    func test_json_refusesWrongTypesNamingThePath() throws {
        let cases: [(String, JSONShapeError)] = [
            (#"{"title":"A"}"#, JSONShapeError(path: "items[2].id", reason: "missing required field")),
            (#"{"id":"nope","title":"A"}"#, JSONShapeError(path: "items[2].id", reason: "\"nope\" is not a UUID")),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":5}"#,
                JSONShapeError(path: "items[2].title", reason: "expected a string, found a number")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","done":"yes"}"#,
                JSONShapeError(path: "items[2].done", reason: "expected a boolean, found a string")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","number":1.5}"#,
                JSONShapeError(path: "items[2].number", reason: "expected a whole number, found a number")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","number":-3}"#,
                JSONShapeError(path: "items[2].number", reason: "-3 is outside 1...9007199254740991")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","number":9223372036854775807}"#,
                JSONShapeError(path: "items[2].number", reason: "9223372036854775807 is outside 1...9007199254740991")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","number":0}"#,
                JSONShapeError(path: "items[2].number", reason: "0 is outside 1...9007199254740991")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","timestamp":1e300}"#,
                JSONShapeError(path: "items[2].timestamp", reason: "1e+300 is outside -62135856000...253402387199")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","createdAt":-1e20}"#,
                JSONShapeError(path: "items[2].createdAt", reason: "-1e+20 is outside -62135856000...253402387199")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","location":{"name":"x","coordinate":{"latitude":90.5,"longitude":0}}}"#,
                JSONShapeError(path: "items[2].location.coordinate.latitude", reason: "90.5 is outside -90...90")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","timestamp":"tomorrow"}"#,
                JSONShapeError(path: "items[2].timestamp", reason: "expected a finite number, found a string")
            ),
            (
                #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","location":{"name":["x"]}}"#,
                JSONShapeError(path: "items[2].location.name", reason: "expected a string, found an array")
            ),
            (#"["A"]"#, JSONShapeError(path: "items[2]", reason: "expected an object, found an array"))
        ]
        for (text, expected) in cases {
            let json = try JSONValue(parsing: Array(text.utf8))
            XCTAssertThrows(try ToDoItem(json: json, path: "items[2]"), expected)
        }
    }

    func test_jsonArray_writesOneItemPerLine() throws {
        let first = ToDoItem(title: "A \"quoted\"", id: UUID(uuidString: "11111111-1111-4111-8111-111111111111")!)
        let second = ToDoItem(title: "B", timestamp: 1.5, id: UUID(uuidString: "22222222-2222-4222-8222-222222222222")!)

        XCTAssertEqual(
            String(decoding: ToDoItem.jsonArray([first, second]), as: UTF8.self),
            """
            [
              {"id":"11111111-1111-4111-8111-111111111111","title":"A \\"quoted\\"","done":false},
              {"id":"22222222-2222-4222-8222-222222222222","title":"B","timestamp":1.5,"done":false}
            ]

            """)
        XCTAssertEqual(String(decoding: ToDoItem.jsonArray([]), as: UTF8.self), "[]\n")
    }

    func test_codable_roundTripsThroughJSONEncoderAndDecoderWithTheSameKeys() throws {
        var item = ToDoItem(
            title: "Call Mom", itemDescription: "Sunday", timestamp: 1_641_772_800,
            location: Location(
                name: "Home", address: "Main St 1",
                coordinate: Coordinate(latitude: 52.5, longitude: 13.4)))
        item.title = "Call Mom!"

        let data = try JSONEncoder().encode(item)
        let decoded = try JSONDecoder().decode(ToDoItem.self, from: data)
        let keys = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any]).keys

        XCTAssertEqual(decoded, item)
        XCTAssertEqual(decoded.location?.address, "Main St 1")
        XCTAssertEqual(Set(keys), ["id", "title", "itemDescription", "timestamp", "location", "done"])
    }
}
