import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// The fields declared once (`ItemField`): what the sync, the history and `edit` compare, and a
/// text field (`url`) that every part takes from the table alone.
final class ItemFieldTests: XCTestCase {
    private let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!

    func test_everyFieldHasANameAndALabel_andTheTextFieldsHaveKeysOfTheirOwn() {
        XCTAssertEqual(
            ItemField.allCases.map(\.name),
            [
                "title", "description", "due date", "start", "repeat", "priority", "tags", "parent",
                "location", "status", "progress", "project", "annotations", "url", "reminders", "list"
            ])
        XCTAssertEqual(ItemField.texts, [.project, .url, .list])
        XCTAssertEqual(Set(ItemField.inFileOrder), Set(ItemField.allCases), "the file writes every field")
        XCTAssertEqual(ItemField.inFileOrder.count, ItemField.allCases.count)
        XCTAssertTrue(
            ToDoItem.ownKeys.contains("url"), "a text field's key is todo's own: another program's is kept apart")
        XCTAssertTrue(ToDoItem.ownKeys.contains("project"))
    }

    func test_theURL_isStoredShownInJSON_andReadBack() throws {
        var item = ToDoItem(title: "Fix bug", id: id)
        item.url = "https://example.com/ticket/42?a=1,b;c"
        XCTAssertEqual(
            String(decoding: item.json.serializedCompactly(), as: UTF8.self),
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"Fix bug","done":false,"url":"https://example.com/ticket/42?a=1,b;c"}"#
        )
        XCTAssertEqual(try ToDoItem(json: item.json, path: "").url, item.url)
        XCTAssertThrowsError(
            try ToDoItem(
                json: JSONValue(
                    parsing: Array(#"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","url":3}"#.utf8)),
                path: "item"))
    }

    func test_theURL_travelsThroughICalendarAndReminders_andTodoTxtAndTaskwarriorLeaveItOut() throws {
        var item = ToDoItem(title: "Fix bug", id: id)
        item.url = "https://example.com/a,b"
        let text = ICalendarFormat.write([item], timeZone: .utc, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertTrue(text.contains("\r\nURL:https://example.com/a,b\r\n"), "a URI, not escaped TEXT: \(text)")
        let back = try XCTUnwrap(ICalendarFormat.read(text, timeZone: .utc).first?.item)
        XCTAssertEqual(back.url, "https://example.com/a,b")
        XCTAssertEqual(back.icalendarLines, [], "read as todo's own, not kept as a line")
        // A phone's URL;VALUE=URI (as Nextcloud writes it) is the URL too.
        let phone = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:p", "SUMMARY:S", "URL;VALUE=URI:https://nextcloud.example/x",
            "END:VTODO", "END:VCALENDAR"
        ]
        XCTAssertEqual(
            try ICalendarFormat.read(phone.joined(separator: "\r\n"), timeZone: .utc).first?.item.url,
            "https://nextcloud.example/x")

        let reminders = #"[{"externalId":"x","title":"R","isCompleted":false,"url":"https://apple.example/r"}]"#
        let reminder = try XCTUnwrap(
            ItemInterchange.read(Array(reminders.utf8), format: .reminders, timeZone: .utc).items.first)
        XCTAssertEqual(reminder.item.url, "https://apple.example/r")
        XCTAssertEqual(reminder.unknownKeys, [], "todo's own now")

        XCTAssertFalse(TodoTxtFormat.write([item], timeZone: .utc).contains("example.com"))
        XCTAssertFalse(
            String(decoding: TaskwarriorFormat.write([item], now: Date(), timeZone: .utc), as: UTF8.self).contains(
                "example.com"))
    }

    func test_theURL_isMergedBySync_andNamedByTheHistory_andAnEditOfItChangesTheItem() throws {
        var base = ToDoItem(title: "Fix bug", id: id)
        base.url = "https://a.example"
        var remote = base
        remote.url = "https://b.example"
        let merged = ItemMerge.merge(base: base, local: base, remote: remote, tieBreaker: .local)
        XCTAssertEqual(merged.item.url, "https://b.example")
        XCTAssertTrue(merged.changesLocal)
        XCTAssertEqual(ItemChange(before: base, after: remote).editedFields, [.url])

        var manager = ItemManager()
        let added = try manager.add(base)
        var edit = ItemEdit()
        edit.texts[.url] = .set("https://a.example")
        XCTAssertEqual(try manager.edit(itemWithID: added.id, edit), added, "the same value changes nothing")
        XCTAssertTrue(manager.steps.count == 1)
        edit.texts[.url] = .remove
        XCTAssertNil(try manager.edit(itemWithID: added.id, edit).url)
    }

    /// A link is one line: a line break in it is refused (it would end a calendar's property and
    /// start another), and one a hand-edited file holds is written escaped, never as a new line.
    func test_aLinkWithALineBreak_isRefused_andNeverWrittenAsOne() throws {
        var manager = ItemManager()
        var item = ToDoItem(title: "Phish", id: id)
        item.url = "https://example.com/\r\nATTENDEE:mailto:eve@example.com"
        XCTAssertThrowsError(try manager.add(item)) { error in
            XCTAssertEqual(error as? ItemManagerError, .controlCharacters(.url, item.url!))
            XCTAssertEqual(
                (error as? ItemManagerError)?.description,
                #"the url must be one line without control characters: "https://example.com/\r\nATTENDEE:mailto:eve@example.com""#
            )
        }
        XCTAssertEqual(manager.toDoCount, 0)
        let text = ICalendarFormat.write([item], timeZone: .utc, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertTrue(text.contains("\r\nURL:https://example.com/%0D%0AATTENDEE:mailto:eve@example.com\r\n"), text)
        XCTAssertFalse(text.contains("\r\nATTENDEE"), text)
    }

    /// An import leaves a link that is not one line out of the field, says so, and keeps it as it came.
    func test_anImportedLinkThatIsNotOneLine_isKeptAsItCame() throws {
        let calendar = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "SUMMARY:T", "URL:https://a\tb", "END:VTODO", "END:VCALENDAR"
        ]
        let read = try XCTUnwrap(ICalendarFormat.read(calendar.joined(separator: "\r\n"), timeZone: .utc).first)
        XCTAssertNil(read.item.url)
        XCTAssertEqual(read.item.icalendarLines, ["URL:https://a\tb"])
        XCTAssertEqual(
            read.problems,
            ["line 5: URL is not one line (it holds a line break or a control character); kept as it came"])
        let reminders = #"[{"externalId":"x","title":"R","isCompleted":false,"url":"https://a\nb"}]"#
        let reminder = try XCTUnwrap(
            ItemInterchange.read(Array(reminders.utf8), format: .reminders, timeZone: .utc).items.first)
        XCTAssertNil(reminder.item.url)
        XCTAssertEqual(reminder.item.foreignMembers.members(from: "reminders")["url"], .string("https://a\nb"))
    }

    /// Items are equal when every field is, the place's address too; the book's looser rule for
    /// places stays `Location`'s own equality, which the uniqueness rule uses.
    func test_itemEquality_isStructural_andTheBooksRuleKeepsItsPlace() throws {
        let home = Location(name: "Home", address: "1 Main St"), moved = Location(name: "Home", address: "2 Main St")
        XCTAssertEqual(home, moved, "the book's equality leaves the address out")
        let a = ToDoItem(title: "A", location: home, id: id), b = ToDoItem(title: "A", location: moved, id: id)
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(a.hasSameContent(as: b), "the uniqueness rule keeps the book's")
    }
}
