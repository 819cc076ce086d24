import Foundation
import XCTest

@testable import ToDoModel

/// Reminders in the model: their file form, their VALARMs, and when they ring.
final class AlarmTests: XCTestCase {
    private let newYork = CivilTime(rules: TimeZoneRules(TimeZone(identifier: "America/New_York")!))

    func test_durations_readAndWrittenAsRFC5545SaysThem() {
        for (text, seconds) in [
            ("-PT15M", -900), ("PT0S", 0), ("-P2D", -172_800), ("P1W", 604_800), ("-PT1H30M", -5400),
            ("P1DT2H3M4S", 93_784)
        ] {
            XCTAssertEqual(ICalendarText.seconds(ofDuration: Substring(text)), Double(seconds), text)
            XCTAssertEqual(ICalendarText.duration(seconds: seconds), text)
        }
        for text in ["", "P", "-", "15M", "PT", "P1H", "PT1D", "P1.5D", "--PT1M"] {
            XCTAssertNil(ICalendarText.seconds(ofDuration: Substring(text)), text)
        }
    }

    func test_theFileForm_isReadBack_andAnythingElseIsKeptAsAnotherProgramsMember() throws {
        let alarms = [
            Alarm(.beforeDue(900)), Alarm(.beforeStart(-60), icalendarLines: ["REPEAT:2"]), Alarm(.at(1_795_000_000))
        ]
        XCTAssertEqual(Alarm.list(from: .array(alarms.map(\.json))), alarms)
        for bad in [
            #"[{"before":1.5}]"#, #"[{"before":900,"at":1}]"#, #"[{"before":900,"of":"end"}]"#, #"[{"when":1}]"#,
            #"{"before":1}"#,
            #"[{"before":9999999999}]"#, #"[{"at":1,"icalendar":[1]}]"#
        ] {
            XCTAssertNil(Alarm.list(from: try JSONValue(parsing: Array(bad.utf8))), bad)
            let item = try ToDoItem(
                json: JSONValue(
                    parsing: Array(#"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"A","alarms":\#(bad)}"#.utf8)),
                path: "")
            XCTAssertEqual(item.alarms, [], bad)
            XCTAssertTrue(
                String(decoding: item.json.serializedCompactly(), as: UTF8.self).contains(#""alarms":"#),
                "\(bad) is kept")
        }
    }

    /// A list an earlier version wrote kept a calendar's alarms as its lines: they are reminders
    /// when read, and what else the lines held stays.
    func test_alarmsAnEarlierVersionKeptAsLines_areReadAsReminders() throws {
        let text =
            #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","title":"Water the plants","timestamp":1795500000,"done":false,"#
            + #""icalendar":["X-APPLE-SORT-ORDER:3","BEGIN:VALARM","ACTION:DISPLAY","DESCRIPTION:Water the plants","TRIGGER:-PT15M","END:VALARM","#
            + #""BEGIN:VALARM","ACTION:DISPLAY","TRIGGER;RELATED=FOO:-PT1M","END:VALARM"]}"#
        let item = try ToDoItem(json: JSONValue(parsing: Array(text.utf8)), path: "")
        XCTAssertEqual(item.alarms, [Alarm(.beforeDue(900))])
        XCTAssertEqual(
            item.icalendarLines,
            ["X-APPLE-SORT-ORDER:3", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=FOO:-PT1M", "END:VALARM"],
            "one todo cannot place stays as it came")
    }

    func test_whenEachRings_aWholeDayFromItsStartHere_andAMovedSeriesCarriesASetTime() throws {
        var item = ToDoItem(title: "Pay rent", due: .day(try XCTUnwrap(Day(year: 2026, month: 12, day: 3))))
        item.alarms = [Alarm(.beforeDue(3600)), Alarm(.beforeStart(0)), Alarm(.at(1_796_000_000))]
        let moments = item.alarms.map { $0.moment(of: item, local: newYork) }
        XCTAssertEqual(
            moments, [1_796_274_000 - 3600, 1_796_274_000, 1_796_000_000],
            "midnight of 12/03 in New York; no start: the due")
        XCTAssertEqual(Alarm(.at(100)).moved(by: 86_400), Alarm(.at(86_500)))
        XCTAssertEqual(Alarm(.beforeDue(5)).moved(by: 86_400), Alarm(.beforeDue(5)))
        item.due = nil
        XCTAssertNil(item.alarms[0].moment(of: item, local: newYork), "its date is gone")
    }
}
