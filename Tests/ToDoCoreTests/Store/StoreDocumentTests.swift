@testable import ToDoCore
import TestSupport
import XCTest

final class StoreDocumentTests: XCTestCase {
    func test_readsTheVersionedFormat() throws {
        let document = try read(#"{"version":1,"nextNumber":5,"items":[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","number":4,"title":"A"}]}"#)

        XCTAssertEqual(document.nextNumber, 5)
        XCTAssertEqual(document.items.open.map(\.title), ["A"])
        XCTAssertEqual(document.items.open.map(\.number), [4])
    }

    func test_readsTheBookAppsBareArray() throws {
        let document = try read(#"[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","done":false}]"#)

        XCTAssertNil(document.nextNumber)
        XCTAssertEqual(document.items.open.map(\.title), ["A"])
    }

    func test_missingKeysTakeTheirDefaults() throws {
        let document = try read("{}")

        XCTAssertNil(document.nextNumber)
        XCTAssertTrue(document.items.open.isEmpty && document.items.done.isEmpty)
    }

    func test_refusesANewerVersion() {
        XCTAssertThrowsError(try read(#"{"version":2,"items":"whatever"}"#),
                             StoreError.unsupportedVersion(file: "f.json", version: 2, supported: 1))
    }

    func test_refusesWrongShapesNamingThePath() {
        let cases: [(String, String)] = [
            (#""hello""#, "expected an object or an array of items"),
            ("42", "expected an object or an array of items"),
            (#"{"version":"1"}"#, "version: expected a whole number, found a string"),
            (#"{"version":0}"#, "version: 0 is not a format version"),
            (#"{"nextNumber":true}"#, "nextNumber: expected a whole number, found a boolean"),
            (#"{"items":{}}"#, "items: expected an array, found an object"),
            (#"{"items":[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A"},{"title":"B"}]}"#,
             "items[1].id: missing required field"),
            (#"[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"}]"#, "[0].title: missing required field"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try read(text), StoreError.invalidContent(file: "f.json", reason: reason))
        }
    }

    func test_writesVersionNextNumberItemsThenUnknownFields() throws {
        var document = try read(#"{"owner":"ada","items":[],"version":1,"nextNumber":3,"sync":{"at":5}}"#)
        document.nextNumber = 4

        XCTAssertEqual(String(decoding: document.serialized(), as: UTF8.self), """
            {
              "version": 1,
              "nextNumber": 4,
              "items": [],
              "owner": "ada",
              "sync": {"at":5}
            }

            """)
    }

    func test_writesOneItemPerLine() throws {
        let document = try read("""
            {"version": 1, "nextNumber": 3, "items": [
              {"id": "11111111-1111-4111-8111-111111111111", "number": 1, "title": "A"},
              {"title": "B", "number": 2, "id": "22222222-2222-4222-8222-222222222222", "done": true, "x": [1, {"y": "z"}]}]}
            """)

        XCTAssertEqual(String(decoding: document.serialized(), as: UTF8.self), """
            {
              "version": 1,
              "nextNumber": 3,
              "items": [
                {"id":"11111111-1111-4111-8111-111111111111","number":1,"title":"A","done":false},
                {"id":"22222222-2222-4222-8222-222222222222","number":2,"title":"B","done":true,"x":[1,{"y":"z"}]}
              ]
            }

            """)
    }

    func test_itemsBeforeTheVersion_areCheckedAgainstTheVersion() {
        XCTAssertThrowsError(try read(#"{"items":[{"unknown":"shape"}],"version":2}"#),
                             StoreError.unsupportedVersion(file: "f.json", version: 2, supported: 1))
        XCTAssertThrowsError(try read(#"{"items":[{"title":"A"}],"version":1}"#),
                             StoreError.invalidContent(file: "f.json", reason: "items[0].id: missing required field"))
    }

    private func read(_ text: String) throws -> StoreDocument {
        try StoreDocument(bytes: Array(text.utf8), file: "f.json")
    }
}
