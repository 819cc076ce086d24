import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// An item written to its calendar resource keeps what the calendar keeps beside it.
final class CalendarResourceTests: XCTestCase {
    private let utc = TimeZoneRules(TimeZone(identifier: "UTC")!)

    private let serverText = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Nextcloud//Tasks//EN", "X-WR-CALNAME:Chores",
        "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "END:STANDARD", "END:VTIMEZONE",
        "BEGIN:VTODO", "UID:water@phone", "SUMMARY:Water the plants", "DUE;TZID=Europe/Berlin:20301104T090000",
        "RRULE:FREQ=WEEKLY",
        "X-APPLE-SORT-ORDER:12", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM", "END:VTODO",
        "BEGIN:VTODO", "UID:water@phone", "RECURRENCE-ID;TZID=Europe/Berlin:20301104T090000",
        "SUMMARY:Water the plants",
        "STATUS:COMPLETED", "COMPLETED:20301104T100000Z", "END:VTODO",
        "END:VCALENDAR", ""
    ].joined(separator: "\r\n")

    func test_anEditedItem_keepsTheCalendarsZonesOccurrencesAndOwnProperties() throws {
        var item = try XCTUnwrap(CalendarResource.item(of: serverText, timeZone: utc)).item
        XCTAssertEqual(item.title, "Water the plants")
        XCTAssertEqual(item.uid, "water@phone")
        XCTAssertNotNil(item.repeatRule)
        // A bare trigger of a VTODO without DTSTART counts from its due, as phones mean it.
        XCTAssertEqual(item.alarms, [Alarm(.beforeDue(900))])
        item.fields.title = "Water the ferns"
        let text = CalendarResource.text(
            for: item, replacing: serverText, timeZone: utc, now: Date(timeIntervalSince1970: 0),
            productID: "-//todo//EN")
        let lines = text.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.prefix(3), ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo//EN"])
        XCTAssertEqual(
            lines.filter { $0 == "BEGIN:VCALENDAR" || $0 == "VERSION:2.0" || $0.hasPrefix("PRODID") }.count, 3,
            "once each")
        for kept in [
            "X-WR-CALNAME:Chores", "TZID:Europe/Berlin", "RECURRENCE-ID;TZID=Europe/Berlin:20301104T090000",
            "X-APPLE-SORT-ORDER:12",
            "TRIGGER;RELATED=END:-PT15M", "DESCRIPTION:Water the ferns", "SUMMARY:Water the ferns", "UID:water@phone"
        ] {
            XCTAssertTrue(lines.contains(kept), "\(kept) in\n\(text)")
        }
        XCTAssertEqual(lines.filter { $0 == "SUMMARY:Water the plants" }.count, 1, "the occurrence keeps its own title")
        XCTAssertEqual(lines.filter { $0 == "BEGIN:VTODO" }.count, 2)
        XCTAssertEqual(lines.last(where: { !$0.isEmpty }), "END:VCALENDAR")
        // Read back, it is the item as edited.
        XCTAssertEqual(try CalendarResource.item(of: text, timeZone: utc)?.item.title, "Water the ferns")
    }

    func test_aNewItem_isOneVTODO_andAnEventHoldsNoItem() {
        let item = ToDoItem(title: "Tea")
        let text = CalendarResource.text(
            for: item, replacing: nil, timeZone: utc, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertEqual(
            text, ICalendarFormat.write([item], timeZone: utc, now: Date(timeIntervalSince1970: 0), productID: "p"))
        let event =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nSUMMARY:Meeting\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        XCTAssertNil(try CalendarResource.item(of: event, timeZone: utc))
    }
}
