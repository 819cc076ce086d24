import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

final class ICalendarFormatTests: XCTestCase {
    private let utc = TimeZoneRules(TimeZone(identifier: "UTC")!)
    private let newYork = TimeZoneRules(TimeZone(identifier: "America/New_York")!)

    func test_write_isRFC5545_withCRLFFoldingAndEscapes() throws {
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1_700_000_000) })
        let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!
        try manager.add(
            ToDoItem(
                title: "Buy milk, eggs; bread \\ more", itemDescription: "line one\nline two",
                due: .day(2022, 1, 10),
                location: Location(
                    name: "Shop", address: "1 Main St",
                    coordinate: Coordinate(latitude: 52.5, longitude: -13.25)), id: id))
        let text = ICalendarFormat.write(
            manager.toDoItems, timeZone: newYork, now: Date(timeIntervalSince1970: 1_795_361_400),
            productID: "-//todo//test//EN")
        XCTAssertEqual(
            text,
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo//test//EN", "BEGIN:VTODO",
                "UID:9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "DTSTAMP:20261122T153000Z", "CREATED:20231114T221320Z",
                "SUMMARY:Buy milk\\, eggs\\; bread \\\\ more", "DESCRIPTION:line one\\nline two",
                "DUE;VALUE=DATE:20220110",
                "LOCATION:Shop", "X-TODO-ADDRESS:1 Main St", "GEO:52.5;-13.25", "STATUS:NEEDS-ACTION",
                "LAST-MODIFIED:20231114T221320Z", "END:VTODO", "END:VCALENDAR", ""
            ].joined(separator: "\r\n"))
    }

    func test_theOrganisingFields_areICalendarsOwnProperties_andReadBack() throws {
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1_700_000_000) })
        let parent = try manager.add(
            ToDoItem(title: "Garden", id: UUID(uuidString: "11111111-2222-4333-8444-555555555555")!))
        // 17:00 in Chicago is midnight in Berlin: a time, not a whole day.
        var child = ToDoItem(
            title: "Water", timestamp: 1_608_505_200, id: UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!,
            priority: 1, tags: ["home", "Pflanzen"], start: .time(1_608_418_800),
            repeatRule: "FREQ=WEEKLY;BYDAY=MO,TH")
        child.parent = parent.id
        try manager.add(child)
        let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)
        let text = ICalendarFormat.write(
            [manager.toDoItems[1]], timeZone: berlin, now: Date(timeIntervalSince1970: 1_795_361_400),
            productID: "-//todo//test//EN")
        XCTAssertEqual(
            text,
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo//test//EN", "BEGIN:VTODO",
                "UID:9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "DTSTAMP:20261122T153000Z", "CREATED:20231114T221320Z",
                "SUMMARY:Water", "DTSTART:20201219T230000Z", "DUE:20201220T230000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH",
                "PRIORITY:1",
                "CATEGORIES:home,Pflanzen", "RELATED-TO;RELTYPE=PARENT:11111111-2222-4333-8444-555555555555",
                "STATUS:NEEDS-ACTION",
                "LAST-MODIFIED:20231114T221320Z", "END:VTODO", "END:VCALENDAR", ""
            ].joined(separator: "\r\n"))

        let read = try XCTUnwrap(ICalendarFormat.read(text, timeZone: berlin).first?.item)
        XCTAssertEqual(read.due, .time(1_608_505_200))
        XCTAssertEqual(read.start, .time(1_608_418_800))
        XCTAssertEqual(read.repeatRule, "FREQ=WEEKLY;BYDAY=MO,TH")
        XCTAssertEqual(read.priority, 1)
        XCTAssertEqual(read.tags, ["home", "Pflanzen"])
        XCTAssertEqual(read.parent, parent.id)
        XCTAssertEqual(read.modifiedAt, 1_700_000_000)

        // A whole day stays a date; PRIORITY 0 is none; CATEGORIES of several lines and words.
        let calendar = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:x", "SUMMARY:Tax", "DUE;VALUE=DATE:20300110", "PRIORITY:0",
            "CATEGORIES:Work stuff,a\\,b", "CATEGORIES:work", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
        let whole = try XCTUnwrap(ICalendarFormat.read(calendar, timeZone: berlin).first?.item)
        XCTAssertEqual(whole.due, .day(2030, 1, 10))
        XCTAssertNil(whole.priority)
        XCTAssertEqual(whole.tags, ["Work-stuff", "a,b", "work"])
        XCTAssertTrue(
            ICalendarFormat.write([whole], timeZone: berlin, now: Date(), productID: "p").contains(
                "\r\nDUE;VALUE=DATE:20300110\r\n"))
    }

    func test_folded_keepsEveryLineWithin75OctetsAndNeverSplitsACharacter() {
        let line = "SUMMARY:" + String(repeating: "ab✓é👩‍👩‍👧", count: 40)
        let folded = ICalendarFormat.folded(line)
        XCTAssertTrue(folded.hasSuffix("\r\n"))
        // Split as bytes: to `Character`, a space before a joiner is one character.
        let physical = Array(folded.utf8.dropLast(2)).split(separator: 13).map { Array($0.drop { $0 == 10 }) }
        XCTAssertGreaterThan(physical.count, 5)
        var unfolded: [UInt8] = []
        for (index, part) in physical.enumerated() {
            XCTAssertLessThanOrEqual(part.count, 75)
            if index > 0 { XCTAssertEqual(part.first, UInt8(ascii: " ")) }
            XCTAssertNotNil(String(bytes: part, encoding: .utf8))
            unfolded += index == 0 ? part : Array(part.dropFirst())
        }
        XCTAssertEqual(unfolded, Array(line.utf8))
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n\(folded)END:VTODO\r\nEND:VCALENDAR\r\n"
        XCTAssertEqual(try ICalendarFormat.read(text, timeZone: utc).first?.item.title, String(line.dropFirst(8)))
        XCTAssertEqual(
            ICalendarFormat.folded(String(repeating: "a", count: 75)), String(repeating: "a", count: 75) + "\r\n")
        XCTAssertEqual(
            ICalendarFormat.folded(String(repeating: "a", count: 76)), String(repeating: "a", count: 75) + "\r\n a\r\n")
    }

    func test_escaped_dropsControlCharactersTextCannotHold() {
        XCTAssertEqual(ICalendarFormat.escaped("a\u{1B}[31mb\r\nc\td"), "a[31mb\\nc\td")
        XCTAssertEqual(ICalendarFormat.unescaped("a\\,b\\;c\\\\d\\ne\\Nf"), "a,b;c\\d\ne\nf")
    }

    func test_read_takesVTODOsFromOtherCalendars() throws {
        let text = """
            BEGIN:VCALENDAR\r
            PRODID:-//Other//EN\r
            BEGIN:VEVENT\r
            SUMMARY:A meeting, not a task\r
            END:VEVENT\r
            BEGIN:VTODO\r
            UID:task-1@example.com\r
            SUMMARY;LANGUAGE=en:File the \r
             report\\, today\r
            DUE;TZID=Europe/Berlin:20220110T090000\r
            DESCRIPTION:first\\nsecond\r
            LOCATION:Office\r
            GEO:48.85;2.35\r
            BEGIN:VALARM\r
            SUMMARY:Not the task's title\r
            END:VALARM\r
            END:VTODO\r
            BEGIN:VTODO\r
            UID:urn:uuid:9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f\r
            SUMMARY:Done thing\r
            DUE;VALUE=DATE:20220110\r
            COMPLETED:20220111T120000Z\r
            END:VTODO\r
            BEGIN:VTODO\r
            SUMMARY:Cancelled thing\r
            STATUS:CANCELLED\r
            DUE:20220110T090000\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        let items = try ICalendarFormat.read(text, timeZone: newYork)
        XCTAssertEqual(items.map(\.origin), ["line 6", "line 18", "line 24"])
        let first = items[0].item
        XCTAssertEqual(first.title, "File the report, today")
        XCTAssertEqual(first.id, UUID(hashing: "task-1@example.com"))
        XCTAssertEqual(first.timestamp, 1_641_801_600)
        XCTAssertEqual(first.itemDescription, "first\nsecond")
        XCTAssertEqual(
            first.location, Location(name: "Office", coordinate: Coordinate(latitude: 48.85, longitude: 2.35)))
        XCTAssertFalse(first.done)
        XCTAssertNil(items[0].ignoredBecause)
        let second = items[1].item
        XCTAssertEqual(second.id, UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"))
        XCTAssertEqual(second.due, .day(2022, 1, 10))
        XCTAssertTrue(second.done)
        XCTAssertEqual(second.completedAt, 1_641_902_400)
        XCTAssertEqual(items[2].item.timestamp, 1_641_823_200)
        XCTAssertEqual(items[2].ignoredBecause, "cancelled in the calendar")
    }

    func test_read_aCalendarThatCannotBeParsed_isRefusedWhole() {
        let cases: [(String, ImportError)] = [
            ("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\n", ImportError(at: "line 2", "BEGIN:VTODO is never ended")),
            ("BEGIN:VCALENDAR\nEND:VTODO\n", ImportError(at: "line 2", "END:VTODO without BEGIN:VTODO")),
            (
                "BEGIN:VCALENDAR\r\nthis is not a property\r\n",
                ImportError(at: "line 1", "BEGIN:VCALENDAR is never ended")
            ),
            (
                "this is not a calendar\nBEGIN:VCALENDAR\nEND:VCALENDAR\n",
                ImportError(at: "line 1", "not iCalendar: it does not start with BEGIN:VCALENDAR or BEGIN:VTODO")
            )
        ]
        for (text, expected) in cases {
            XCTAssertThrows(try ICalendarFormat.read(text, timeZone: utc), expected)
        }
    }

    /// A problem confined to one property is the item's: it imports without that value.
    func test_read_aValueTodoCannotRead_isAProblemOfItsItem() throws {
        let cases: [(String, String)] = [
            ("UID:1", "line 2: the VTODO has no SUMMARY; imported as \"Untitled\""),
            ("SUMMARY:x\r\nDUE:2022-01-10", "line 4: DUE '2022-01-10' is not a date or date-time; left out"),
            ("SUMMARY:x\r\nDUE:20220230", "line 4: DUE '20220230' is not a date that exists; left out"),
            ("SUMMARY:x\r\nGEO:91;0", "line 4: GEO '91;0' is not a coordinate (expected LAT;LON); left out"),
            ("SUMMARY:x\r\nPRIORITY:high", "line 4: PRIORITY 'high' is not a number from 0 to 9; left out"),
            ("SUMMARY:x\r\nPERCENT_COMPLETE:100", "line 4: 'PERCENT_COMPLETE' is not a property name; left out")
        ]
        for (properties, problem) in cases {
            let text =
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n\(properties)\r\nEND:VTODO\r\nBEGIN:VTODO\r\nSUMMARY:next\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            let items = try ICalendarFormat.read(text, timeZone: utc)
            XCTAssertEqual(
                items.map(\.item.title), [properties.hasPrefix("UID") ? "Untitled" : "x", "next"], properties)
            XCTAssertEqual(items[0].problems, [problem], properties)
            XCTAssertTrue(items[1].problems.isEmpty)
        }
        // An empty LOCATION or DESCRIPTION is none.
        let empty = try XCTUnwrap(
            ICalendarFormat.read(
                "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\nLOCATION:\nDESCRIPTION:\nEND:VTODO\nEND:VCALENDAR\n",
                timeZone: utc
            ).first?.item)
        XCTAssertNil(empty.location)
        XCTAssertNil(empty.itemDescription)
    }

    /// RFC 5545 folds at 75 octets, and some writers split a character there: it is put back.
    func test_read_aFoldThatSplitsACharacter_isRejoined() throws {
        let bytes =
            Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Gr".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xBC]
            + Array("\u{00DF}e\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let read = try ItemInterchange.read(bytes, format: .auto, timeZone: utc)
        XCTAssertEqual(read.items.map(\.item.title), ["Grüße"])
        XCTAssertEqual(read.items.first?.origin, "line 2")
    }

    /// A calendar's UID goes back out byte for byte: a UID that is not a UUID, and a UUID in lower case.
    func test_originalUIDs_goBackOutAsTheyCame() throws {
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:pwen4kz18g@vm", "SUMMARY:Parent", "END:VTODO",
            "BEGIN:VTODO", "UID:9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f", "SUMMARY:Child", "RELATED-TO:pwen4kz18g@vm",
            "END:VTODO",
            "BEGIN:VTODO", "UID:9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E50", "SUMMARY:Own", "END:VTODO", "END:VCALENDAR", ""
        ]
        .joined(separator: "\r\n")
        var manager = ItemManager()
        _ = try manager.importItems(try ICalendarFormat.read(text, timeZone: utc))
        XCTAssertEqual(
            manager.toDoItems.map(\.originalUID), ["pwen4kz18g@vm", "9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f", nil])
        XCTAssertEqual(manager.toDoItems[1].parent, manager.toDoItems[0].id)
        // Kept in the file: read back from the store's JSON.
        let stored = try ToDoItem(json: manager.toDoItems[0].json, path: "item")
        XCTAssertEqual(stored.originalUID, "pwen4kz18g@vm")
        let exported = ICalendarFormat.write(
            manager.toDoItems, timeZone: utc, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertTrue(exported.contains("\r\nUID:pwen4kz18g@vm\r\n"), exported)
        XCTAssertTrue(exported.contains("\r\nUID:9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f\r\n"), exported)
        XCTAssertTrue(exported.contains("\r\nRELATED-TO;RELTYPE=PARENT:pwen4kz18g@vm\r\n"), exported)
        XCTAssertTrue(exported.contains("\r\nUID:9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E50\r\n"), exported)
    }

    /// 17:00 in Chicago is midnight in Berlin: read there, it stays a time, and goes out as the same instant.
    func test_aTimeAtLocalMidnight_staysATime_andDurationImpliesTheDue() throws {
        let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "SUMMARY:Call", "DUE;TZID=America/Chicago:20201220T170000",
            "END:VTODO",
            "BEGIN:VTODO", "UID:b", "SUMMARY:Trip", "DTSTART;VALUE=DATE:20300110", "DURATION:P2D", "END:VTODO",
            "BEGIN:VTODO", "UID:c", "SUMMARY:Meeting", "DTSTART:20300110T090000Z", "DURATION:PT1H30M", "END:VTODO",
            "BEGIN:VTODO", "UID:d", "SUMMARY:Odd", "DTSTART:20300110T090000Z", "DURATION:soon", "END:VTODO",
            "END:VCALENDAR", ""
        ]
        .joined(separator: "\r\n")
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(items[0].item.due?.isDay, false)
        XCTAssertTrue(
            ICalendarFormat.write([items[0].item], timeZone: berlin, now: Date(), productID: "p").contains(
                "\r\nDUE:20201220T230000Z\r\n"))
        XCTAssertEqual(items[1].item.start, .day(2030, 1, 10))
        XCTAssertEqual(items[1].item.due, .day(2030, 1, 12))
        XCTAssertEqual(items[2].item.due, .time(1_894_266_000 + 5400))
        XCTAssertNil(items[3].item.timestamp)
        XCTAssertEqual(items[3].problems, ["line 23: DURATION 'soon' is not a duration (as P1D or PT1H30M); left out"])
        XCTAssertEqual(
            ["P1W", "PT1H30M", "P1DT12H", "+PT15S", "P", "PT", "P1H", "-P1D"].map {
                ICalendarFormat.seconds(ofDuration: Substring($0))
            },
            [604_800, 5400, 129_600, 15, nil, nil, nil, nil])
    }

    /// What a calendar app wrote that todo has no field for goes back out as it came.
    func test_propertiesAndAlarmsTodoHasNoFieldFor_goBackOutAsTheyCame() throws {
        let kept = [
            "X-APPLE-SORT-ORDER:731", "CLASS:PRIVATE",
            "RELATED-TO;RELTYPE=SIBLING:other@vm", "X-LONG:" + String(repeating: "é", count: 60)
        ]
        let alarm = [
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT15M", "DESCRIPTION:Reminder", "END:VALARM"
        ]
        let text =
            ([
                "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:a@vm", "SUMMARY:Pay", "RELATED-TO:parent@vm",
                "PERCENT-COMPLETE:40", "URL;VALUE=URI:https://example.com/a,b"
            ] + kept + alarm
            + ["END:VTODO", "END:VCALENDAR", ""]).map(ICalendarFormat.folded).joined()
        let item = try XCTUnwrap(ICalendarFormat.read(text, timeZone: utc).first?.item)
        XCTAssertEqual(item.icalendarLines, kept + alarm)
        XCTAssertEqual(item.percentComplete, 40, "a field of todo's own")
        XCTAssertEqual(item.url, "https://example.com/a,b", "a field of todo's own")
        XCTAssertEqual(item.itemDescription, nil, "the alarm's DESCRIPTION is the alarm's")
        // Kept in the file, and written back in the order they came, folded as iCalendar folds.
        XCTAssertEqual(try ToDoItem(json: item.json, path: "item").icalendarLines, kept + alarm)
        let exported = ICalendarFormat.write([item], timeZone: utc, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertTrue(
            exported.contains((kept + alarm).map(ICalendarFormat.folded).joined() + "END:VTODO\r\n"), exported)
        XCTAssertEqual(try ICalendarFormat.read(exported, timeZone: utc).first?.item.icalendarLines, kept + alarm)
    }
}
