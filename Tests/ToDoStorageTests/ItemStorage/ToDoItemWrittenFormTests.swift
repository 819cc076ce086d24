import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

/// The shortcut for items in the form todo writes reads exactly what the general reader reads, and
/// leaves everything else to it.
final class ToDoItemWrittenFormTests: XCTestCase {
    func test_randomItemsAsWritten_areReadByTheShortcutAsByTheGeneralReader() throws {
        var random = SeededGenerator(seed: 0x5107)
        for index in 0..<3_000 {
            var item = RandomItems.item(&random)
            if Bool.random(using: &random) { item.number = 0 }
            item.createdAt =
                Bool.random(using: &random) ? Double(Int.random(in: 0...2_000_000_000, using: &random)) : nil
            item.completedAt =
                Bool.random(using: &random) ? Double.random(in: ToDoItem.timestampRange, using: &random) : nil
            Self.addOrganisingFields(to: &item, &random)
            let bytes = written(item)

            let (shortcut, consumed) = readWithShortcut(bytes)
            let general = try readWithGeneralReader(bytes).item

            let read = try XCTUnwrap(shortcut, "case \(index): \(String(decoding: bytes, as: UTF8.self))")
            XCTAssertEqual(consumed, bytes.count, "case \(index)")
            XCTAssertEqual(read.item, general.item, "case \(index)")
            XCTAssertEqual(read.item, item, "case \(index)")
            XCTAssertEqual(read.location?.address, general.location?.address, "case \(index)")
            XCTAssertEqual(read.location?.coordinate, general.location?.coordinate, "case \(index)")
            XCTAssertEqual(read.createdAt, general.createdAt, "case \(index)")
            XCTAssertEqual(read.completedAt, general.completedAt, "case \(index)")
            XCTAssertEqual(read.priority, general.priority, "case \(index)")
            XCTAssertEqual(read.tags, general.tags, "case \(index)")
            XCTAssertEqual(read.modifiedAt, general.modifiedAt, "case \(index)")
            XCTAssertEqual(read.start, general.start, "case \(index)")
            XCTAssertEqual(read.parent, general.parent, "case \(index)")
            XCTAssertEqual(read.due, general.due, "case \(index)")
            XCTAssertEqual(read.repeatRule, general.repeatRule, "case \(index)")
            XCTAssertEqual(read.inProgress, general.inProgress, "case \(index)")
            XCTAssertEqual(read.project, general.project, "case \(index)")
            XCTAssertEqual(read.list, general.list, "case \(index)")
            // What a list shows, read from the text and from the decoded fields alike.
            for stored in [read, general] {
                var text: [UInt8] = []
                let fields = stored.listFields(into: &text)
                XCTAssertEqual(fields.priority, general.priority, "case \(index)")
                XCTAssertEqual(fields.date, general.due, "case \(index)")
                XCTAssertEqual(fields.repeats, general.repeatRule != nil, "case \(index)")
                XCTAssertEqual(fields.hasAlarms, !general.item.alarms.isEmpty, "case \(index)")
                // Shown as they are, or decoded when one has an escape or a control character.
                let shown = fields.shownTags.map { String(decoding: text[$0], as: UTF8.self) }
                XCTAssertEqual(
                    shown ?? fields.tagList(in: text).map { $0.map { " +" + $0 }.joined() },
                    general.tags.isEmpty ? nil : general.tags.map { " +" + $0 }.joined(), "case \(index)")
                XCTAssertEqual(Array(text[fields.title]), Array(general.title.utf8), "case \(index)")
                XCTAssertEqual(
                    fields.locationName.map { Array(text[$0]) }, general.location.map { Array($0.name.utf8) },
                    "case \(index)")
            }
            XCTAssertEqual(read.locationName, general.location?.name, "case \(index)")
            XCTAssertEqual(general.locationName, general.location?.name, "case \(index)")
        }
    }

    func test_itemsReadFromTheirExactWrittenForm_writeTheSameBytesBack() throws {
        var random = SeededGenerator(seed: 0xB7E5)
        var kept = 0
        for index in 0..<3_000 {
            var item = RandomItems.item(&random)
            Self.addOrganisingFields(to: &item, &random)
            let bytes = written(item)

            var read = try XCTUnwrap(readWithShortcut(bytes).item, "case \(index)")

            if read.writtenForm != nil { kept += 1 }
            XCTAssertEqual(written(read), bytes, "case \(index)")
            read = StoredItem(read.item)
            XCTAssertNil(read.writtenForm)
            XCTAssertEqual(written(read), bytes, "case \(index)")
        }
        // Whatever the writer writes is its exact form, escapes, DEL and odd numbers included.
        XCTAssertEqual(kept, 3_000)
    }

    func test_aChangedItem_forgetsItsWrittenForm() throws {
        let bytes = written(
            ToDoItem(title: "A", itemDescription: "d", timestamp: 86_400, location: Location(name: "Home")))
        let stored = try XCTUnwrap(readWithShortcut(bytes).item)
        XCTAssertNotNil(stored.writtenForm)

        var item = stored.item
        item.location?.name = "Work"
        let changed = StoredItem(item)

        XCTAssertNil(changed.writtenForm)
        XCTAssertEqual(
            String(decoding: written(changed), as: UTF8.self),
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "Home", with: "Work"))
    }

    func test_itemsInAnyOtherForm_areLeftToTheGeneralReader() throws {
        let id = "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"
        let others = [
            #"{"id":"\#(id)","title":"A","done":false,"note":1}"#, // a field this version does not know
            #"{"id":"\#(id)","number":1.0,"title":"A","done":false}"#, // a number written otherwise
            #"{"id":"\#(id)","number":0,"title":"A","done":false}"#, // a number out of range
            #"{"id":"\#(id)","title":"A","timestamp":1e400,"done":false}"#, // a time out of range
            #"{"id":"\#(id)","title":null,"done":false}"#,
            #"{"id":"\#(id)","title":"A","done":null}"#,
            #"{"id":"\#(id)","title":"A","title":"B"}"#, // a member twice
            #"{"id":"\#(id.lowercased())x","title":"A","done":false}"#,
            #"{"id":"\#(id)","title":"A","timestamp":1.50,"done":false}"#, // digits it does not write
            #"{"id":"\#(id)","title":"A","timestamp":-0,"done":false}"#,
            #"{"id":"\#(id)","title":"A","timestamp":1e3,"done":false}"#,
            #"{"id":"\#(id)","number":1.5,"title":"A","done":false}"#,
            #"{"id":"\#(id)","title":"A","location":null}"#,
            #"{"id":"\#(id)","title":"A","location":{"name":"Home","x":[1]}}"#, // kept by the general reader
            #"{"id":"\#(id)","title":"A","location":{"name":"Home","name":"Work"}}"#,
            #"{"id":"\#(id)","title":"A","location":{"name":"Home","coordinate":{"latitude":1}}}"#,
            #"{"id":"\#(id)","title":"A","location":{"name":"Home","coordinate":{"latitude":1,"longitude":1.50}}}"#,
            #"{"id":"\#(id)","title":"A","location":{"address":"Main St"}}"#,
            // A key with an escape: taken to its first quote, it is no member the shortcut knows.
            #"{"id":"\#(id)","ti\u0074le":"A","done":false}"#,
            #"{"id":"\#(id)","title":"A","a\"b":1}"#,
            #"{"id":"\#(id)","title":"A","location":{"n\u0061me":"Home"}}"#
        ]
        for text in others {
            XCTAssertNil(readWithShortcut(Array(text.utf8)).item, text)
        }
    }

    /// Items in another layout (white space, another order, escapes the writer does not use) whose
    /// members and values are todo's own are read by the shortcut too, as the general reader reads
    /// them, and are written anew rather than copied.
    func test_itemsInAnotherLayout_areReadByTheShortcutAsByTheGeneralReader_andWrittenAnew() throws {
        let id = "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"
        let layouts = [
            #"{"title":"A","id":"\#(id)","done":false}"#, // another order
            #"{ "id":"\#(id)","title":"A","done":false}"#, // white space
            #"{"id":"\#(id)","title":"A"}"#, // no done
            #"{"id":"\#(id.lowercased())","title":"A","done":false}"#, // an id in lower case
            #"{"id":"\#(id)","title":"\u0041","done":false}"#, // an escape the writer does not use
            #"{"id":"\#(id)","title":"a\u000A","done":false}"#, // (it writes \n)
            #"{"id":"\#(id)","title":"a\/b","done":false}"#,
            "{\"id\":\"\(id)\",\"title\":\"a\u{7F}\",\"done\":false}", // DEL, which it escapes
            #"{"location": {"address": "Main St", "coordinate": {"longitude": 13.405, "latitude": 52.52}, "name": "Home"}, "title": "A", "id": "\#(id)"}"#
        ]
        for text in layouts {
            let bytes = Array(text.utf8)
            let read = try XCTUnwrap(readWithShortcut(bytes).item, text)
            let general = try readWithGeneralReader(bytes)
            XCTAssertEqual(read.item, general.item.item, text)
            XCTAssertEqual(readWithShortcut(bytes).consumed, general.consumed, text)
            XCTAssertNil(read.writtenForm, text)
            XCTAssertEqual(written(read), written(general.item), text)
        }
    }

    func test_randomItemsInOtherLayouts_areReadByTheShortcutAsByTheGeneralReader() throws {
        var random = SeededGenerator(seed: 0x1A7E)
        for index in 0..<2_000 {
            var item = RandomItems.item(&random)
            item.createdAt =
                Bool.random(using: &random) ? Double(Int.random(in: 0...2_000_000_000, using: &random)) : nil
            Self.addOrganisingFields(to: &item, &random)
            let json = try JSONValue(parsing: written(item))
            // As Python's json.dump writes it (spaces after separators), with sorted keys, or indented.
            let bytes: [UInt8]
            switch index % 3 {
            case 0: bytes = spaced(json)
            case 1: bytes = sortingKeys(json).serializedCompactly()
            default: bytes = json.serialized()
            }
            let context = "case \(index): \(String(decoding: bytes, as: UTF8.self))"
            let read = try XCTUnwrap(readWithShortcut(bytes).item, context)
            let general = try readWithGeneralReader(bytes).item
            XCTAssertEqual(read.item, general.item, context)
            XCTAssertEqual(read.item, item, context)
            XCTAssertNil(read.writtenForm, context)
            XCTAssertEqual(read.location?.address, general.location?.address, context)
            XCTAssertEqual(read.locationName, general.location?.name, context)
            var text: [UInt8] = []
            let fields = read.listFields(into: &text)
            XCTAssertEqual(Array(text[fields.title]), Array(general.title.utf8), context)
            XCTAssertEqual(
                fields.locationName.map { Array(text[$0]) }, general.location.map { Array($0.name.utf8) }, context)
            XCTAssertEqual(fields.date, general.due, context)
            XCTAssertEqual(written(read), written(item), context)
        }
    }

    /// A priority, tags and a repeat rule (any strings: a file may hold what the command line
    /// refuses), a modified time, a start, a parent, and whether the due is a whole day, each on
    /// about half the items.
    /// A day or a time of the years 1 to 9999, as likely.
    static func randomDate(_ random: inout SeededGenerator) -> ItemDate {
        Bool.random(using: &random)
            ? .time(Double.random(in: ToDoItem.timestampRange, using: &random))
            : .day(Day(number: Int.random(in: Day.numberRange, using: &random))!)
    }

    static func addOrganisingFields(to item: inout ToDoItem, _ random: inout SeededGenerator) {
        item.priority = Bool.random(using: &random) ? Int.random(in: 1...9, using: &random) : nil
        item.tags =
            Bool.random(using: &random)
            ? (0..<Int.random(in: 1...3, using: &random)).map { _ in RandomItems.text(&random) } : []
        item.modifiedAt = Bool.random(using: &random) ? Double(Int.random(in: 0...2_000_000_000, using: &random)) : nil
        item.start = Bool.random(using: &random) ? randomDate(&random) : nil
        item.parent = Bool.random(using: &random) ? UUID() : nil
        if item.due != nil, Bool.random(using: &random) { item.due = randomDate(&random) }
        item.repeatRule = Bool.random(using: &random) ? RandomItems.text(&random) : nil
        item.list = Int.random(in: 0..<4, using: &random) == 0 ? RandomItems.text(&random) : nil
        // Every other field the shortcut reads (`ItemMember`), on a few.
        if Int.random(in: 0..<4, using: &random) == 0 {
            item.repeatZone = Bool.random(using: &random) ? RandomItems.text(&random) : nil
            item.inProgress = Bool.random(using: &random)
            item.percentComplete = Bool.random(using: &random) ? Int.random(in: 0...100, using: &random) : nil
            item.project = Bool.random(using: &random) ? RandomItems.text(&random) : nil
            item.url = Bool.random(using: &random) ? RandomItems.text(&random) : nil
            item.originalUID = Bool.random(using: &random) ? RandomItems.text(&random) : nil
        }
        // Reminders on a few, of every kind, some with a calendar's lines kept.
        if Int.random(in: 0..<4, using: &random) == 0 {
            item.alarms = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                let seconds = Int.random(in: -Alarm.longestOffset...Alarm.longestOffset, using: &random)
                let trigger: Alarm.Trigger =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: .beforeDue(seconds)
                    case 1: .beforeStart(seconds)
                    default: .at(Double.random(in: ToDoItem.timestampRange, using: &random))
                    }
                return Alarm(
                    trigger, icalendarLines: Bool.random(using: &random) ? ["REPEAT:2", RandomItems.text(&random)] : [])
            }
        }
    }

    /// The value as Python's `json.dump` writes it by default: `", "` and `": "` between members.
    private func spaced(_ value: JSONValue) -> [UInt8] {
        guard case .object(let object) = value else { return value.serializedCompactly() }
        let members = object.members.map { key, value in
            JSONValue.string(key).serializedCompactly() + Array(": ".utf8) + spaced(value)
        }
        return Array("{".utf8) + Array(members.joined(separator: Array(", ".utf8))) + Array("}".utf8)
    }

    private func sortingKeys(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        var sorted = JSONObject()
        for key in object.keys.sorted() { sorted[key] = sortingKeys(object[key]!) }
        return .object(sorted)
    }

    /// Most numbers are told to be in the writer's spelling without formatting them (see
    /// `writtenNumber`); whichever way, the verdict and the value are those of spelling them anew.
    func test_numbers_areAcceptedExactlyWhenTheWriterSpellsThemSo() throws {
        var random = SeededGenerator(seed: 0xD1617)
        let id = "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"
        func digits(_ count: Int, leadingZero: Bool) -> String {
            String(
                (0..<count).map { index in
                    Character(
                        String(
                            index == 0 && !leadingZero
                                ? Int.random(in: 1...9, using: &random) : Int.random(in: 0...9, using: &random)))
                })
        }
        var accepted = 0, fractions = 0
        let fixed = [
            "0", "-0", "0.0001", "0.00001", "0.00012", "-0.0001", "1.5", "1.50", "123456789012345", "1234567890123456",
            "12345678901234.5", "99999999999999.9", "0.123456789012345", "0.1234567890123456", "1.0", "-5", "1e3",
            "1E+3",
            "253402387199", "253402387200", "-62135856000", "-62135856001", "52.52", "-122.419416",
            // Ten digits, a time in seconds, read without the digit loop: and what may follow them.
            "1735690200", "-1735690200", "1735690200.5", "1735690200.50", "1735690200e3", "1735690200E3", "17356902001",
            "0735690200"
        ]
        var literals = fixed
        for _ in 0..<20_000 {
            var literal = Bool.random(using: &random) ? "-" : ""
            let integerDigits = Int.random(in: 0...16, using: &random)
            literal += integerDigits == 0 ? "0" : digits(integerDigits, leadingZero: false)
            if Int.random(in: 0..<4, using: &random) > 0 {
                let zeros =
                    integerDigits == 0 ? String(repeating: "0", count: Int.random(in: 0...5, using: &random)) : ""
                literal += "." + zeros + digits(Int.random(in: 1...17, using: &random), leadingZero: true)
            }
            if Int.random(in: 0..<20, using: &random) == 0 {
                literal += "e" + String(Int.random(in: -5...5, using: &random))
            }
            literals.append(literal)
        }
        for literal in literals {
            let bytes = Array(#"{"id":"\#(id)","title":"A","timestamp":\#(literal),"done":false}"#.utf8)
            let value = try XCTUnwrap(Double(literal))
            let expected = ToDoItem.timestampRange.contains(value) && JSONValue.literal(for: value) == literal
            let item = readWithShortcut(bytes).item
            XCTAssertEqual(item != nil, expected, literal)
            if let item {
                accepted += 1
                if literal.contains(".") { fractions += 1 }
                XCTAssertEqual(item.item.timestamp?.bitPattern, value.bitPattern, literal)
            }
        }
        XCTAssertGreaterThan(accepted, 5_000)
        XCTAssertGreaterThan(fractions, 2_000)
    }

    func test_mutatedItems_areReadByTheShortcutOnlyAsTheGeneralReaderReadsThem() throws {
        var random = SeededGenerator(seed: 0xB17E)
        var acceptedByShortcut = 0
        for index in 0..<5_000 {
            var bytes = written(RandomItems.item(&random))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: position)
                default: bytes.insert(Array("\",:{}[]0-.e \\tn".utf8).randomElement(using: &random)!, at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let shortcut = readWithShortcut(bytes)
            guard let item = shortcut.item else { continue }
            // Kept bytes are exactly what writing the item anew gives.
            if let form = item.writtenForm {
                XCTAssertEqual(
                    Array(form.bytes), written(StoredItem(item.item)),
                    "case \(index): \(String(decoding: bytes, as: UTF8.self))")
            }
            acceptedByShortcut += 1
            let general = try? readWithGeneralReader(bytes)
            XCTAssertEqual(item.item, general?.item.item, "case \(index): \(String(decoding: bytes, as: UTF8.self))")
            XCTAssertEqual(shortcut.consumed, general?.consumed, "case \(index)")
            XCTAssertEqual(item.location?.address, general?.item.location?.address, "case \(index)")
        }
        XCTAssertGreaterThan(acceptedByShortcut, 100, "some mutations (inside strings, digits) keep the form")
    }

    private func written(_ item: ToDoItem) -> [UInt8] {
        written(StoredItem(item))
    }

    private func written(_ item: StoredItem) -> [UInt8] {
        var writer = JSONWriter()
        item.write(to: &writer)
        return writer.bytes
    }

    private func readWithShortcut(_ bytes: [UInt8]) -> (item: StoredItem?, consumed: Int) {
        let text = StoredText(bytes)
        return withExtendedLifetime(text) {
            var scanner = JSONScanner(bytes: text.buffer)
            let item = StoredItem.scanWrittenForm(&scanner, in: text)
            return (item, scanner.index)
        }
    }

    /// The item that starts `bytes`, and where it ends (the rest is for whoever reads on).
    private func readWithGeneralReader(_ bytes: [UInt8]) throws -> (item: StoredItem, consumed: Int) {
        try bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer)
            let item = try StoredItem(scanning: &scanner, path: { "" })
            return (item, scanner.index)
        }
    }
}
