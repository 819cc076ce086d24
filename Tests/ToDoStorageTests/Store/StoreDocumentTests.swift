import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

final class StoreDocumentTests: XCTestCase {
    func test_readsTheVersionedFormat() throws {
        let document = try read(
            #"{"version":1,"nextNumber":5,"items":[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","number":4,"title":"A"}]}"#
        )

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
        XCTAssertThrowsError(
            try read(#"{"version":4,"items":"whatever"}"#),
            StoreError.unsupportedVersion(file: "f.json", version: 4, supported: 3))
    }

    func test_refusesWrongShapesNamingThePath() {
        let cases: [(String, String)] = [
            (#""hello""#, "expected an object or an array of items"),
            ("42", "expected an object or an array of items"),
            (#"{"version":"1"}"#, "version: expected a whole number, found a string"),
            (#"{"version":0}"#, "version: 0 is not a format version"),
            (#"{"nextNumber":true}"#, "nextNumber: expected a whole number, found a boolean"),
            (#"{"items":{}}"#, "items: expected an array, found an object"),
            (
                #"{"items":[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A"},{"title":"B"}]}"#,
                "items[1].id: missing required field"
            ),
            (#"[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"}]"#, "[0].title: missing required field")
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try read(text), StoreError.invalidContent(file: "f.json", reason: reason))
        }
    }

    func test_writesVersionNextNumberItemsThenUnknownFields() throws {
        var document = try read(#"{"owner":"ada","items":[],"version":1,"nextNumber":3,"sync":{"at":5}}"#)
        document.nextNumber = 4

        XCTAssertEqual(
            String(decoding: document.serialized(), as: UTF8.self),
            """
            {
              "version": 2,
              "nextNumber": 4,
              "items": [],
              "owner": "ada",
              "sync": {"at":5}
            }

            """)
    }

    func test_writesOneItemPerLine() throws {
        let document = try read(
            """
            {"version": 1, "nextNumber": 3, "items": [
              {"id": "11111111-1111-4111-8111-111111111111", "number": 1, "title": "A"},
              {"title": "B", "number": 2, "id": "22222222-2222-4222-8222-222222222222", "done": true, "x": [1, {"y": "z"}]}]}
            """)

        XCTAssertEqual(
            String(decoding: document.serialized(), as: UTF8.self),
            """
            {
              "version": 2,
              "nextNumber": 3,
              "items": [
                {"id":"11111111-1111-4111-8111-111111111111","number":1,"title":"A","done":false},
                {"id":"22222222-2222-4222-8222-222222222222","number":2,"title":"B","done":true,"x":[1,{"y":"z"}]}
              ]
            }

            """)
    }

    func test_itemsBeforeTheVersion_areCheckedAgainstTheVersion() {
        XCTAssertThrowsError(
            try read(#"{"items":[{"unknown":"shape"}],"version":4}"#),
            StoreError.unsupportedVersion(file: "f.json", version: 4, supported: 3))
        XCTAssertThrowsError(
            try read(#"{"items":[{"title":"A"}],"version":1}"#),
            StoreError.invalidContent(file: "f.json", reason: "items[0].id: missing required field"))
    }

    /// A list as Python's `json.dump(sort_keys=True)` writes it (the items before the version,
    /// keys sorted, white space, `\u` escapes) reads as fast as todo's own layout: its items keep
    /// their fields in the text instead of being decoded, and read as the general reader reads them.
    func test_aListInPythonsLayout_isReadByTheShortcut() throws {
        let text =
            #"{"items": [{"createdAt": 1735690200, "done": false, "id": "B475B38D-75CA-40B1-B327-591ACCB90712", "#
            + #""location": {"address": "Hauptstra\u00dfe 5", "coordinate": {"latitude": 52.520008, "longitude": 13.404954}, "name": "Shop"}, "#
            + #""number": 1, "timestamp": 1805846400, "title": "Gr\u00fc\u00dfe an J\u00f6rg #1"}, "#
            + #"{"done": true, "id": "C414E5A3-1E38-47B0-BEBA-5CAC52DD9E62", "number": 2, "title": "Book"}], "nextNumber": 3, "version": 1}"#
        let document = try StoreDocument(bytes: Array(text.utf8), file: "f.json")
        let items = document.items.open + document.items.done
        XCTAssertEqual(items.map(\.storage.keepsFieldsInText), [true, true])
        XCTAssertEqual(items.map(\.title), ["Grüße an Jörg #1", "Book"])
        XCTAssertEqual(
            items[0].location,
            Location(
                name: "Shop", address: "Hauptstraße 5",
                coordinate: Coordinate(latitude: 52.520008, longitude: 13.404954)))
        XCTAssertEqual(items[0].location?.address, "Hauptstraße 5")
        XCTAssertEqual(items[0].locationName, "Shop")
        XCTAssertEqual(items[0].item.timestamp, 1_805_846_400)
        XCTAssertEqual(items[0].createdAt, 1_735_690_200)
        XCTAssertEqual(document.nextNumber, 3)
        // Written anew in todo's own layout, with the same content.
        let rewritten = try StoreDocument(bytes: document.serialized(), file: "f.json")
        XCTAssertEqual((rewritten.items.open + rewritten.items.done).map(\.item), items.map(\.item))
    }

    /// A long list's second half is read on another thread from a place near the middle. Whatever
    /// that place is (every byte is tried), the list read is the one read in one go: the same items
    /// in the same order, kept in the written form or not alike, or the same error naming the same
    /// item. (Under a sanitizer, every sixteenth byte: `TestRun.exhaustiveStride`.)
    func test_aListReadInTwoHalves_isReadExactlyAsInOneGo() throws {
        var random = SeededGenerator(seed: 0x2A1F)
        var items = StoredItems()
        for index in 0..<16 {
            var item = RandomItems.item(&random)
            item.number = index % 5 == 0 ? 0 : index + 1
            items.append(StoredItem(item))
        }
        let written = String(decoding: StoreDocument(items: items, nextNumber: 40).serialized(), as: UTF8.self)
        // Items of other forms among them, which the other thread stops at and the reader reads.
        var lines = written.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert(#"    {"title": "Spaced", "id": "33333333-3333-4333-8333-333333333333", "number": 33},"#, at: 9)
        lines.insert(
            #"    {"id":"44444444-4444-4444-8444-444444444444","number":34,"title":"Extra","done":true,"x":{"y":[1]}},"#,
            at: 14)
        lines.insert(
            #"{"id":"55555555-5555-4555-8555-555555555555","number":35,"title":"Unindented","done":false},"#, at: 17)
        let mixed = lines.joined(separator: "\n")
        let errorInSecondHalf = mixed.replacingOccurrences(of: #""title":"Unindented""#, with: #""title":7"#)
        let errorInFirstHalf = mixed.replacingOccurrences(of: #""title": "Spaced""#, with: #""title": 7"#)
        let bareArray = "[" + lines[4...].joined(separator: "\n").dropLast(3)

        for text in [written, mixed, errorInSecondHalf, errorInFirstHalf, bareArray] {
            let expected = outcome(text) { _, _ in nil }
            XCTAssertFalse(expected.isEmpty)
            for start in stride(from: 0, through: text.utf8.count, by: TestRun.exhaustiveStride) {
                let got = outcome(text) { _, _ in start }
                XCTAssertEqual(got, expected, "second half from byte \(start) of:\n\(text)")
                if got != expected { return }
            }
        }
        XCTAssertEqual(
            outcome(errorInSecondHalf) { _, _ in nil }, ["items[13].title: expected a string, found a number"])
    }

    /// Unchanged items that lie one after another in the file are copied as one run of bytes; the
    /// file written is the same as when every item is written anew, whatever moved or changed, in
    /// pieces of about `pieceSize`.
    func test_writingRunsOfUnchangedItems_givesTheBytesOfWritingEachItem() throws {
        var random = SeededGenerator(seed: 0xC0FF)
        var stored = StoredItems()
        for index in 0..<10_000 {
            var item = RandomItems.item(&random)
            item.number = index + 1
            stored.append(StoredItem(item))
        }
        let document = try StoreDocument(
            bytes: StoreDocument(items: stored, nextNumber: 10_001).serialized(), file: "f.json")
        var items = [document.items.open, document.items.done].joined().map { $0 }
        XCTAssertGreaterThan(document.serialized().count, 2 * StoredItem.pieceSize)
        // Moved, removed and changed items break the runs here and there.
        for _ in 0..<40 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: items.append(items.remove(at: Int.random(in: 0..<items.count, using: &random)))
            case 1: items.remove(at: Int.random(in: 0..<items.count, using: &random))
            default:
                let index = Int.random(in: 0..<items.count, using: &random)
                var changed = items[index].item
                changed.title = "Changed"
                items[index] = StoredItem(changed)
            }
        }
        func written(_ items: [StoredItem]) -> (bytes: [UInt8], largestPiece: Int) {
            var bytes: [UInt8] = [], largestPiece = 0
            _ = try? document.write(items: [items]) { piece throws(StoreError) in
                bytes += piece
                largestPiece = max(largestPiece, piece.count)
            }
            return (bytes, largestPiece)
        }
        let copied = written(items), anew = written(items.map { StoredItem($0.item) })
        XCTAssertEqual(copied.bytes.count, anew.bytes.count)
        XCTAssertTrue(copied.bytes == anew.bytes)
        XCTAssertLessThan(copied.largestPiece, StoredItem.pieceSize + 64 * 1024)
    }

    /// What reading `text` gives, item by item, or the error.
    private func outcome(_ text: String, secondHalf: @escaping StoreDocument.SecondHalfStart) -> [String] {
        do {
            let document = try StoreDocument(bytes: Array(text.utf8), file: "f.json", secondHalf: secondHalf)
            let items = document.items
            return [items.open, items.done].joined().map { item in
                "\(item.id) \(item.number) \(item.done) \(item.title) \(item.writtenForm.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "decoded")"
            } + items.unnumbered.map { "unnumbered \($0.isDone) \($0.index)" } + ["next \(document.nextNumber ?? 0)"]
        } catch {
            guard case .invalidContent(_, let reason) = error else { return ["\(error)"] }
            return [reason]
        }
    }

    private func read(_ text: String) throws -> StoreDocument {
        try StoreDocument(bytes: Array(text.utf8), file: "f.json")
    }
}
