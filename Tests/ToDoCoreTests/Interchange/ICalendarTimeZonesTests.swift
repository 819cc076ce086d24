import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

/// Zones as calendars name them, and occurrences of recurring tasks, read in Berlin.
final class ICalendarTimeZonesTests: XCTestCase {
    private let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)

    private func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR", ""]).joined(
            separator: "\r\n")
    }

    private func todo(_ uid: String, _ lines: [String]) -> [String] {
        ["BEGIN:VTODO", "UID:" + uid, "SUMMARY:Task " + uid] + lines + ["END:VTODO"]
    }

    /// The moment of a local time in an IANA zone, as the test's expectation.
    private func moment(_ text: String, in zone: String) throws -> Double {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyyMMdd'T'HHmmss"
        return try XCTUnwrap(formatter.date(from: text)).timeIntervalSince1970
    }

    /// Exchange's VTIMEZONE for its Windows name `Eastern Standard Time` (as Outlook writes it:
    /// observances from 1601, rules without an end).
    private let easternDefinition = [
        "BEGIN:VTIMEZONE", "TZID:Eastern Standard Time",
        "BEGIN:STANDARD", "DTSTART:16010101T020000", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500",
        "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=11", "END:STANDARD",
        "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400",
        "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"
    ]

    /// A VTIMEZONE made to explode (each observance from year 1, changing the offset daily, or
    /// on a day that never comes) costs
    /// a bounded number of onsets, as a real zone does, not every day to 2200: it is read at once.
    func test_aZoneWhoseRulesChangeDaily_fromYearOne_isReadInBoundedWork() throws {
        var definition = ["BEGIN:VTIMEZONE", "TZID:Evil"]
        for index in 0..<100 {
            definition += [
                "BEGIN:\(index % 2 == 0 ? "STANDARD" : "DAYLIGHT")", "DTSTART:00010101T0\(index % 10)0000",
                // Some never match: the days looked at end with the span, not with year 9999.
                "TZOFFSETFROM:+0\(index % 10)00", "TZOFFSETTO:-0\(index % 10)00",
                index % 3 == 0 ? "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30" : "RRULE:FREQ=DAILY",
                "END:\(index % 2 == 0 ? "STANDARD" : "DAYLIGHT")"
            ]
        }
        definition.append("END:VTIMEZONE")
        let text = calendar(
            definition + todo("a", ["DUE;TZID=Evil:20260115T090000"]) + todo("b", ["DUE;TZID=Evil:20260716T090000"]))
        XCTAssertGreaterThan(text.utf8.count, 10_000)
        // The work is bounded by the onsets kept (before the cap, the release took 21 s and gigabytes).
        var zones = ICalendarTimeZones(definitions: [
            try ICalendarFormat.contentLines(definition.joined(separator: "\r\n"))
        ])
        let evil = try XCTUnwrap(zones.zone(named: "Evil"))
        XCTAssertLessThanOrEqual(evil.rules.listedChanges, ICalendarTimeZones.mostOnsets)
        XCTAssertGreaterThan(evil.rules.listedChanges, 0)
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items.compactMap(\.item.timestamp).count, 2)
    }

    /// A daily or monthly rule from long ago is followed from 1900 on, on the days its pattern gives.
    func test_aRuleFromLongAgo_isFollowedOnItsOwnDays() throws {
        let definition = [
            "BEGIN:VTIMEZONE", "TZID:Old",
            "BEGIN:STANDARD", "DTSTART:18000101T000000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY",
            "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:18000331T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:18001027T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"
        ]
        let text = calendar(
            definition + todo("a", ["DUE;TZID=Old:20260115T090000"]) + todo("b", ["DUE;TZID=Old:20260716T090000"]))
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(
            items.map(\.item.timestamp),
            [try moment("20260115T090000", in: "Europe/Berlin"), try moment("20260716T090000", in: "Europe/Berlin")])
    }

    /// The issue's case: 09:00 Eastern is 15:00 in Berlin in January, not 09:00.
    func test_aWindowsNameTheCalendarDefines_isReadByItsRules() throws {
        let text = calendar(
            easternDefinition + todo("a", ["DUE;TZID=Eastern Standard Time:20300115T090000"])
                + todo("b", ["DUE;TZID=\"Eastern Standard Time\":20300715T090000"]))
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(
            items.map(\.item.due),
            [
                .time(try moment("20300115T150000", in: "Europe/Berlin")),
                .time(try moment("20300715T150000", in: "Europe/Berlin"))
            ])
        XCTAssertEqual(items.flatMap(\.problems), [])
    }

    /// A zone only the calendar knows (Outlook's "Customized Time Zone"), with a rule that ends,
    /// one that follows it, and a clock change the other way round in the southern hemisphere.
    func test_aZoneOnlyTheCalendarDefines_followsItsObservancesAndTheirEnds() throws {
        let definition = [
            "BEGIN:VTIMEZONE", "TZID:Customized Time Zone",
            // Until 2006 the US changed in April and October; since 2007 in March and November.
            "BEGIN:DAYLIGHT", "DTSTART:19870405T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400",
            "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;UNTIL=20060402T070000Z", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:19671029T020000", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20061029T060000Z", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:20070311T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:20071104T020000", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500",
            "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VTIMEZONE", "TZID:Southern",
            "BEGIN:STANDARD", "DTSTART:20080406T030000", "TZOFFSETFROM:+1100", "TZOFFSETTO:+1000",
            "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:20081005T020000", "TZOFFSETFROM:+1000", "TZOFFSETTO:+1100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU", "END:DAYLIGHT", "END:VTIMEZONE"
        ]
        let dues = [
            "Customized Time Zone:20050320T090000", "Customized Time Zone:20050410T090000",
            "Customized Time Zone:20300320T090000",
            "Customized Time Zone:20301030T090000", "Southern:20300115T090000", "Southern:20300715T090000"
        ]
        let text = calendar(definition + dues.enumerated().flatMap { todo("\($0.offset)", ["DUE;TZID=" + $0.element]) })
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        let expected = try [
            ("20050320T090000", "America/New_York"), ("20050410T090000", "America/New_York"),
            ("20300320T090000", "America/New_York"), ("20301030T090000", "America/New_York"),
            ("20300115T090000", "Australia/Sydney"), ("20300715T090000", "Australia/Sydney")
        ].map { try moment($0.0, in: $0.1) }
        XCTAssertEqual(items.map(\.item.timestamp), expected)
        XCTAssertEqual(items.flatMap(\.problems), [])
    }

    /// Evolution names zones by a path ending in an IANA name; an observance may give its onsets
    /// as RDATEs instead of a rule.
    func test_anEvolutionPath_andRDATEOnsets() throws {
        let text = calendar(
            [
                "BEGIN:VTIMEZONE", "TZID:/freeassociation.sourceforge.net/Tzfile/Europe/Vienna",
                "X-LIC-LOCATION:Europe/Vienna",
                "BEGIN:STANDARD", "TZNAME:CET", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
                "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
                "BEGIN:DAYLIGHT", "TZNAME:CEST", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
                "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
                "BEGIN:VTIMEZONE", "TZID:Listed",
                "BEGIN:STANDARD", "DTSTART:20291104T020000", "RDATE:20301103T020000,20311102T020000",
                "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "END:STANDARD",
                "BEGIN:DAYLIGHT", "DTSTART:20300310T020000", "RDATE:20310309T020000", "TZOFFSETFROM:-0500",
                "TZOFFSETTO:-0400", "END:DAYLIGHT",
                "END:VTIMEZONE"
            ] + todo("a", ["DUE;TZID=/freeassociation.sourceforge.net/Tzfile/Europe/Vienna:20300715T090000"])
                + todo("b", ["DUE;TZID=/mozilla.org/20050126_1/Europe/Vienna:20300115T090000"])
                + todo("c", ["DUE;TZID=Listed:20300115T090000"]) + todo("d", ["DUE;TZID=Listed:20300715T090000"])
                + todo("e", ["DUE;TZID=Listed:20301215T090000"]))
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(
            items.map(\.item.timestamp),
            try [
                moment("20300715T090000", in: "Europe/Vienna"), moment("20300115T090000", in: "Europe/Vienna"),
                moment("20300115T090000", in: "America/New_York"), moment("20300715T090000", in: "America/New_York"),
                moment("20301215T090000", in: "America/New_York")
            ])
        XCTAssertEqual(items.flatMap(\.problems), [])
    }

    /// Without a definition, a Windows name is the IANA zone CLDR maps it to; a name that is
    /// nothing todo knows is read as local time, and said.
    func test_aWindowsNameWithoutDefinition_isCLDRsZone_andAnUnknownNameIsAProblem() throws {
        let text = calendar(
            todo("a", ["DUE;TZID=W. Europe Standard Time:20300115T090000"])
                + todo("b", ["DUE;TZID=Tokyo Standard Time:20300115T090000"])
                + todo("c", ["DTSTART;TZID=Mars/Olympus_Mons:20300115T090000"]))
        let items = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(
            items.map(\.item.due),
            try [
                .time(moment("20300115T090000", in: "Europe/Berlin")),
                .time(moment("20300115T090000", in: "Asia/Tokyo")), nil
            ])
        XCTAssertEqual(items[2].item.start, .time(try moment("20300115T090000", in: "Europe/Berlin")))
        XCTAssertEqual(
            items.map(\.problems),
            [
                [], [],
                [
                    "line 17: TZID 'Mars/Olympus_Mons' is neither a time zone todo knows nor one the calendar defines; DTSTART read as local time (Europe/Berlin)"
                ]
            ])
    }

    /// Every zone of the Windows table is one this system's Foundation knows.
    func test_everyWindowsNameMapsToAZoneFoundationKnows() {
        XCTAssertGreaterThan(WindowsZoneNames.ianaName.count, 130)
        for (windows, iana) in WindowsZoneNames.ianaName {
            XCTAssertNotNil(TimeZone(identifier: iana), "\(windows): \(iana)")
        }
    }

    // MARK: Occurrences of a recurring task

    /// Thunderbird and eM Client record a checked occurrence of a recurring task as a VTODO of its
    /// own, with the series' UID and a RECURRENCE-ID: it is a done item, and the series is due
    /// with its first occurrence nobody has done.
    func test_aCompletedOccurrence_isADoneItem_andTheSeriesMovesPastIt() throws {
        let series = [
            "BEGIN:VTODO", "UID:chores-1@thunderbird", "SUMMARY:Water the plants", "DTSTART;VALUE=DATE:20301104",
            "DUE;VALUE=DATE:20301104", "RRULE:FREQ=WEEKLY;COUNT=5", "END:VTODO"
        ]
        let occurrence = [
            "BEGIN:VTODO", "UID:chores-1@thunderbird", "RECURRENCE-ID;VALUE=DATE:20301104",
            "DTSTART;VALUE=DATE:20301104",
            "DUE;VALUE=DATE:20301104", "STATUS:COMPLETED", "COMPLETED:20301104T100000Z", "END:VTODO"
        ]
        let second = occurrence.map { $0.replacingOccurrences(of: "20301104", with: "20301111") }
        let text = calendar(series + occurrence + second)
        let read = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(read.flatMap(\.problems), [], "an occurrence without SUMMARY takes the series'")
        var manager = ItemManager()
        let summary = try manager.importItems(read)
        XCTAssertEqual(summary.skipped.count, 0, "\(summary.skipped)")
        let open = try XCTUnwrap(manager.toDoItems.first)
        XCTAssertEqual(manager.toDoItems.count, 1)
        XCTAssertEqual(open.title, "Water the plants")
        XCTAssertEqual(open.due, .day(2030, 11, 18))
        XCTAssertNil(open.start, "a series anchored on its due (DTSTART as DUE) has no start of its own")
        XCTAssertEqual(open.repeatRule, "FREQ=WEEKLY;COUNT=3")
        XCTAssertEqual(manager.doneItems.map(\.title), ["Water the plants", "Water the plants"])
        XCTAssertEqual(manager.doneItems.map(\.due), [.day(2030, 11, 4), .day(2030, 11, 11)])
        XCTAssertEqual(manager.doneItems.map(\.repeatRule), [nil, nil])
        XCTAssertEqual(Set(manager.doneItems.map(\.id)).count, 2)

        // The export gives a calendar back the series and its occurrences under the one UID.
        let exported = ICalendarFormat.write(
            manager.toDoItems + manager.doneItems, timeZone: berlin, now: Date(timeIntervalSince1970: 0), productID: "p"
        )
        XCTAssertEqual(exported.components(separatedBy: "\r\nUID:chores-1@thunderbird\r\n").count, 4, exported)
        XCTAssertTrue(exported.contains("\r\nRECURRENCE-ID;VALUE=DATE:20301104\r\n"), exported)
        XCTAssertTrue(exported.contains("\r\nRECURRENCE-ID;VALUE=DATE:20301111\r\n"), exported)
        // Imported again, it is the same items.
        let again = try manager.importItems(try ICalendarFormat.read(exported, timeZone: berlin))
        XCTAssertEqual(again.added.count, 0)
        XCTAssertEqual(again.skipped.count, 3)
    }

    /// An occurrence moved on its own is an open item with its own due; the series passes it.
    /// When every occurrence has its own VTODO, the series is done.
    func test_aMovedOccurrence_isAnItemOfItsOwn_andASeriesWithNothingLeftIsDone() throws {
        let text = calendar([
            "BEGIN:VTODO", "UID:s", "SUMMARY:Report", "DUE:20301104T090000Z", "RRULE:FREQ=DAILY;COUNT=2", "END:VTODO",
            "BEGIN:VTODO", "UID:s", "SUMMARY:Report (late)", "RECURRENCE-ID:20301104T090000Z", "DUE:20301104T150000Z",
            "END:VTODO",
            "BEGIN:VTODO", "UID:s", "SUMMARY:Report", "RECURRENCE-ID:20301105T090000Z", "DUE:20301105T090000Z",
            "STATUS:COMPLETED",
            "COMPLETED:20301105T080000Z", "END:VTODO"
        ])
        let read = try ICalendarFormat.read(text, timeZone: berlin)
        XCTAssertEqual(read.map(\.item.title), ["Report", "Report (late)", "Report"])
        XCTAssertEqual(read.map(\.item.done), [true, false, true])
        XCTAssertEqual(read[0].item.completedAt, 1_919_980_800 + 86_400 + 8 * 3600)
        XCTAssertEqual(read[1].item.due, .time(1_919_980_800 + 15 * 3600))
        XCTAssertEqual(read[1].item.originalUID, "s")
        XCTAssertEqual(read[1].item.icalendarLines, ["RECURRENCE-ID:20301104T090000Z"])
    }

    /// jtx Board (DAVx5) repeats a task by its DTSTART alone, and cancels occurrences: the series
    /// starts with its first occurrence neither done nor cancelled, and checking it moves its start.
    func test_aSeriesByItsStartAlone_passesDoneAndCancelledOccurrences_andChecksByItsStart() throws {
        func occurrence(_ day: String, _ status: String) -> [String] {
            [
                "BEGIN:VTODO", "UID:8a8736b4-bc35-4085-a98b-89c2f52a5c51", "SUMMARY:Clean Rosie filter",
                "STATUS:" + status,
                "DTSTART;VALUE=DATE:" + day, "RECURRENCE-ID;VALUE=DATE:" + day, "END:VTODO"
            ]
        }
        let text = calendar(
            [
                "BEGIN:VTODO", "UID:8a8736b4-bc35-4085-a98b-89c2f52a5c51", "SUMMARY:Clean Rosie filter",
                "DTSTART;VALUE=DATE:20250415",
                "RRULE:FREQ=WEEKLY;BYDAY=TU,FR", "PRIORITY:0", "END:VTODO"
            ]
                + occurrence("20250415", "COMPLETED") + occurrence("20250418", "CANCELLED")
                + occurrence("20250422", "CANCELLED")
                + occurrence("20250425", "COMPLETED") + occurrence("20250502", "COMPLETED"))
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1_795_000_000) })
        let summary = try manager.importItems(try ICalendarFormat.read(text, timeZone: berlin))
        XCTAssertEqual(summary.added.count, 4)
        XCTAssertEqual(
            summary.skipped.map(\.reason),
            [.ignored("cancelled in the calendar"), .ignored("cancelled in the calendar")])
        let series = try XCTUnwrap(manager.toDoItems.first)
        XCTAssertNil(series.due)
        XCTAssertEqual(series.start, .day(2025, 4, 29), "the 25th is done, the 29th has no VTODO")
        let checked = try manager.checkOccurrence(withID: series.id, rules: berlin)
        XCTAssertEqual(checked.series?.start, .day(2026, 11, 20), "the next Friday or Tuesday still ahead")
        XCTAssertEqual(checked.record.start, series.start)
        XCTAssertTrue(checked.record.done)
    }

    /// RFC 5545's own example task is open with a COMPLETED time: the time goes back out as it came.
    func test_anOpenTaskWithACompletedTime_keepsIt() throws {
        let text = calendar(todo("a", ["STATUS:NEEDS-ACTION", "COMPLETED:20070707T100000Z"]))
        let item = try XCTUnwrap(ICalendarFormat.read(text, timeZone: berlin).first?.item)
        XCTAssertFalse(item.done)
        XCTAssertEqual(item.completedAt, 1_183_802_400)
        XCTAssertTrue(
            ICalendarFormat.write([item], timeZone: berlin, now: Date(), productID: "p").contains(
                "\r\nCOMPLETED:20070707T100000Z\r\n"))
    }

    /// RFC 5545 wants a calendar to hold a component: an empty list's is a zone, which an import passes over.
    func test_anEmptyListExportsAValidCalendar() throws {
        let text = ICalendarFormat.write([], timeZone: berlin, now: Date(timeIntervalSince1970: 0), productID: "p")
        XCTAssertTrue(text.contains("\r\nBEGIN:VTIMEZONE\r\nTZID:UTC\r\n"), text)
        XCTAssertEqual(try ICalendarFormat.read(text, timeZone: berlin).count, 0)
    }

    // MARK: What real files hold (ical4android's and Python icalendar's test files)

    /// `PRIORITY:` with nothing after it is no priority; a VTODO by itself is a calendar of one;
    /// text that is not UTF-8 (DAVx5's `latin1.ics`) is read as Windows-1252, said once.
    func test_anEmptyPriority_aBareVTODO_andLatin1Text() throws {
        let empty = try ICalendarFormat.read(calendar(todo("a", ["PRIORITY:"])), timeZone: berlin)
        XCTAssertEqual(empty.first?.problems, [])
        XCTAssertNil(empty.first?.item.priority)

        let bare =
            "BEGIN:VTODO\nUID:20070313T123432Z-456553@example.com\nDUE;VALUE=DATE:20070501\nSUMMARY:Submit Quebec Income Tax Return for 2006\n"
            + "CATEGORIES:FAMILY,FINANCE\nSTATUS:NEEDS-ACTION\nEND:VTODO"
        let read = try ItemInterchange.read(Array(bare.utf8), format: .auto, timeZone: berlin)
        XCTAssertEqual(read.format, .ical)
        XCTAssertEqual(read.items.map(\.item.title), ["Submit Quebec Income Tax Return for 2006"])
        XCTAssertEqual(read.items.first?.item.tags, ["FAMILY", "FINANCE"])

        let latin1 =
            Array("BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VTODO\nUID:latin1@ical4android\nSUMMARY:".utf8) + [
                0xE4, 0xF6, 0xFC, 0xDF, 0x80
            ]
            + Array("\nEND:VTODO\nEND:VCALENDAR\n".utf8)
        let items = try ItemInterchange.read(latin1, format: .ical, timeZone: berlin).items
        XCTAssertEqual(items.map(\.item.title), ["äöüß€"])
        XCTAssertEqual(
            items.first?.problems, ["byte 72: not UTF-8; the whole source is read as Windows-1252 (Latin-1)"])
        let todoTxt = try ItemInterchange.read([0x43, 0x61, 0x66, 0xE9, 0x0A], format: .todotxt, timeZone: berlin).items
        XCTAssertEqual(todoTxt.map(\.item.title), ["Café"])
        XCTAssertEqual(todoTxt.first?.problems.count, 1)
    }
}
