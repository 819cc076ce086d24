import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

final class ItemInterchangeTests: XCTestCase {
    private let utc = TimeZoneRules(TimeZone(identifier: "UTC")!)

    private func read(
        _ text: String, _ format: ImportFormat = .auto
    ) throws -> (format: ImportFormat, items: [ImportedItem]) {
        try ItemInterchange.read(Array(text.utf8), format: format, timeZone: utc)
    }

    func test_auto_recognisesEachFormat() throws {
        XCTAssertEqual(try read(#"{"version": 1, "items": []}"#).format, .json)
        XCTAssertEqual(try read(#"  [{"title": "Call Mom"}]"#).format, .json)
        XCTAssertEqual(
            try read(#"[{"description": "Call Mom", "uuid": "9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51"}]"#).format,
            .taskwarrior)
        XCTAssertEqual(try read("\u{FEFF}BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n").format, .ical)
        XCTAssertEqual(try read("begin:vcalendar\nend:vcalendar\n").format, .ical)
        XCTAssertEqual(try read("x 2022-01-10 Call Mom\n").format, .todotxt)
        XCTAssertEqual(try read("").format, .todotxt)
    }

    func test_json_readsTheBooksBareArrayAndGivesMissingIdsNewOnes() throws {
        let items = try read(
            #"[{"title": "Call Mom", "timestamp": 1641772800, "location": {"name": "Home"}, "done": false}, {"title": "Old", "done": true, "number": 7}]"#
        ).items
        XCTAssertEqual(items.map(\.item.title), ["Call Mom", "Old"])
        XCTAssertEqual(items.map(\.item.done), [false, true])
        XCTAssertEqual(items.map(\.item.number), [0, 0])
        XCTAssertNotEqual(items[0].item.id, items[1].item.id)
        // Made from the item, so that the same item imported again is found by its id.
        XCTAssertEqual(try read(#"[{"title": "Old", "done": true}]"#).items[0].item.id, items[1].item.id)
        XCTAssertEqual(
            try read("x Old\nOld\n").items.map(\.item.id), try read("Old\nx Old\n").items.map(\.item.id).reversed())
        XCTAssertEqual(items.map(\.origin), ["[0]", "[1]"])
    }

    func test_json_namesTheOffsetOrItemAtFault() {
        let cases: [(String, ImportError)] = [
            (
                "[{\"title\": \"a\"},\n {\"title\": }]",
                ImportError(at: "", "not JSON: unexpected '}', expected a value at line 2, column 12 (byte 28)")
            ),
            (#"{"items": [{"title": 5}]}"#, ImportError(at: "", "items[0].title: expected a string, found a number")),
            (#"{"items": [1]}"#, ImportError(at: "items[0]", "expected an item object, found a number")),
            (
                #"{"version": 4, "items": []}"#,
                ImportError(at: "version", "format version 4 is from a newer todo (this one reads version 2)")
            ),
            (
                #"{"version": 3, "items": []}"#,
                ImportError(
                    at: "version",
                    "a long list's own file, whose latest changes are in its journal: import what `todo export` writes of it"
                )
            ),
            (#"{"items": 3}"#, ImportError(at: "items", "expected an array of items, found a number")),
            (#""text""#, ImportError(at: "", "expected an object or an array of items, found a string"))
        ]
        for (text, expected) in cases {
            XCTAssertThrows(try read(text, .json).items, expected)
        }
    }

    /// Text that is not UTF-8 is an older program's Windows-1252: read so, and said, naming the first byte that is not UTF-8.
    func test_text_thatIsNotUTF8_isReadAsWindows1252_andSaid() throws {
        let items = try ItemInterchange.read(
            [0xEF, 0xBB, 0xBF] + Array("Buy milk\nCall ".utf8) + [0xFF] + Array(" Mom\n".utf8),
            format: .auto, timeZone: utc
        ).items
        XCTAssertEqual(items.map(\.item.title), ["Buy milk", "Call \u{FF} Mom"])
        XCTAssertEqual(
            items.map(\.problems), [["byte 17: not UTF-8; the whole source is read as Windows-1252 (Latin-1)"], []])
    }
}
