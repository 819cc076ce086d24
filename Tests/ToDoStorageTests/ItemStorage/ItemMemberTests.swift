import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

/// The table of an item's members (`ItemMember`) is the one place a field's keys are spelled: the
/// writer, both readers, the written form's offsets and the list's index are made from it.
final class ItemMemberTests: XCTestCase {
    /// Every field given, times and days apart (a due or a start is one or the other).
    private func fullFields(days: Bool) -> ItemFields {
        var urgency = JSONObject(), foreign = JSONObject()
        urgency["urgency"] = .number("4.2")
        foreign["taskwarrior"] = .object(urgency)
        return ItemFields(
            title: "Call Mom", itemDescription: "About Sunday",
            due: days ? .day(Day(year: 2030, month: 1, day: 10)!) : .time(1_800_000_000),
            start: days ? .day(Day(year: 2030, month: 1, day: 3)!) : .time(1_799_000_000),
            repeatRule: "FREQ=WEEKLY", repeatZone: "Europe/Paris",
            location: Location(name: "Home", address: "Main St", coordinate: Coordinate(latitude: 1, longitude: 2)),
            priority: 2, tags: ["family", "@phone"], parent: UUID(), inProgress: true, percentComplete: 40,
            project: "home.calls", url: "https://example.com/1", list: "Work",
            alarms: [Alarm(.beforeDue(900), icalendarLines: [])],
            annotations: [Annotation(time: 1_700_000_000, text: "Rang once")], createdAt: 1_600_000_000,
            completedAt: 1_650_000_000, modifiedAt: 1_660_000_000, originalUID: "abc@example.com",
            icalendarLines: ["X-APPLE-SORT-ORDER:3"],
            foreignMembers: ForeignMembers(sources: foreign),
            unknownMembers: UnknownMembers())
    }

    func test_theInitializer_takesEveryField_andTheWriterWritesEveryMember() throws {
        let empty = ToDoItem(id: UUID(), number: 1, done: false, fields: ItemFields(title: ""))
        var written: Set<String> = []
        for days in [false, true] {
            let full = ToDoItem(id: UUID(), number: 1, done: true, fields: fullFields(days: days))
            for field in ItemField.allCases {
                XCTAssertFalse(field.isSame(in: empty, as: full), "\(field) is given to ItemFields' initializer")
            }
            var writer = JSONWriter()
            full.write(to: &writer)
            guard case .object(let object) = try JSONValue(parsing: writer.bytes) else { return XCTFail("an object") }
            written.formUnion(object.keys)
            // Read back as it was written, by the general reader and by the shortcut alike.
            XCTAssertEqual(
                try writer.bytes.withUnsafeBufferPointer { bytes in
                    var scanner = JSONScanner(bytes: bytes)
                    return try ToDoItem(scanning: &scanner, path: { "" })
                }, full)
            let stored = full.readByTheShortcut
            // (Annotations, a calendar's lines and other programs' members are the general reader's.)
            XCTAssertNil(stored, "the shortcut leaves an item with annotations to the general reader")
        }
        XCTAssertEqual(
            written, Set(ItemMember.allCases.filter(\.isWritten).map(\.key.description)),
            "the writer writes every member but the one it only reads")
    }

    func test_anItemWithEveryFieldTheShortcutReads_isReadByIt_asWritten() throws {
        for days in [false, true] {
            var fields = fullFields(days: days)
            (fields.annotations, fields.icalendarLines, fields.foreignMembers) = ([], [], ForeignMembers())
            let full = ToDoItem(id: UUID(), number: 7, done: true, fields: fields)
            let stored = try XCTUnwrap(full.readByTheShortcut)
            XCTAssertNotNil(stored.writtenForm, "exact")
            XCTAssertEqual(stored.item, full)
            XCTAssertEqual(stored.item.location?.address, "Main St")
            XCTAssertEqual(stored.inProgress, true)
            XCTAssertEqual(stored.project, "home.calls")
        }
    }

    func test_theMembers_fitTheWrittenFormsOffsets_andEachKeyIsFoundByItsBytes() {
        XCTAssertLessThanOrEqual(ItemMember.allCases.count, UnsafeWrittenForm.Offsets().lanes.scalarCount)
        XCTAssertEqual(Set(ItemMember.allCases.map(\.key.description)).count, ItemMember.allCases.count)
        XCTAssertTrue(MemberKeys.table.isOneToOne, "each member has a slot of its own")
        for member in ItemMember.allCases {
            let key = Array(member.key.description.utf8)
            XCTAssertEqual(key.withUnsafeBufferPointer { MemberKeys.table.member(for: $0) }, member)
            // A key differing in its length or in any byte is no member's.
            for near in [key + [UInt8(ascii: "s")], Array(key.dropLast())]
                + key.indices.map({ index in
                    var near = key
                    near[index] ^= 0x20
                    return near
                })
            {
                XCTAssertNil(
                    near.withUnsafeBufferPointer { MemberKeys.table.member(for: $0) },
                    String(decoding: near, as: UTF8.self))
            }
            // As the exact form has it after the member before: 6 to 24 bytes, compared in words.
            let written = WrittenKey(member)
            XCTAssertTrue((6...24).contains(written.count), "\(member)")
            let text = Array(",\"\(member.key)\":".utf8)
            XCTAssertTrue(text.withUnsafeBufferPointer { written.isNext(in: JSONScanner(bytes: $0)) })
            var other = text
            other[other.count - 2] = UInt8(ascii: "x")
            XCTAssertFalse(other.withUnsafeBufferPointer { written.isNext(in: JSONScanner(bytes: $0)) })
        }
    }

    /// A value of another kind under one of todo's keys is another program's, kept beside todo's
    /// fields, where other programs use the key (Reminders' `"priority": 0`, a word for a repeat);
    /// under any other key of todo's it makes the file one todo refuses. The table says which.
    func test_aValueOfAnotherKind_isKeptWhereTheTableSays_andRefusedElsewhere() throws {
        let id = "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"
        for member in ItemMember.allCases {
            var members = [("id", "\"\(id)\""), ("title", "\"T\"")].filter { $0.0 != member.key.description }
            members.append((member.key.description, #"{"x":1}"#))
            let text = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            let read = try? Array(text.utf8).withUnsafeBufferPointer { bytes in
                var scanner = JSONScanner(bytes: bytes)
                return try ToDoItem(scanning: &scanner, path: { "" })
            }
            if member.keepsOtherKinds {
                XCTAssertEqual(
                    read?.unknownMembers.keys, [member.key.description], "\(member) keeps another program's value")
            } else {
                XCTAssertNil(read, "\(member) refuses a value of another kind")
            }
        }
    }

    /// A list copies its items thousands of times: a copy of up to 128 bytes is made without a
    /// call to `memcpy` (which cost 5% of `todo list`'s instructions when the offsets first grew).
    func test_anItem_copiesWithoutACall() {
        XCTAssertLessThanOrEqual(MemoryLayout<StoredItem>.size, 128)
    }

    func test_eachFieldsKeys_comeFromTheTable_inTheWritersOrder() {
        XCTAssertEqual(ItemField.due.fileKeys, ["timestamp", "dueDate"])
        XCTAssertEqual(ItemField.progress.fileKeys, ["inProgress", "percentComplete"])
        for field in ItemField.allCases { XCTAssertFalse(field.members.isEmpty, "\(field) has a key") }
        XCTAssertEqual(ItemField.inFileOrder.first, .title)
        XCTAssertEqual(ItemField.inFileOrder.count, ItemField.allCases.count)
    }
}
