import Foundation
import TestSupport
import XCTest

@testable import ToDoModel

final class DueDateFormatterTests: XCTestCase {
    let newYork = TimeZone(identifier: "America/New_York")!

    func test_showsMonthFirstTwoDigitDates() throws {
        let midnight = try DueDateParser(now: Date(), timeZone: newYork).parse("01/10/22")

        XCTAssertEqual(DueDateFormatter(timeZone: newYork).string(from: midnight), "01/10/22")
        XCTAssertEqual(DueDateFormatter(timeZone: newYork, order: .dayFirst).string(from: midnight), "10/01/22")
    }

    func test_addsTheTimeWhenItIsNotMidnight() throws {
        let afternoon = try DueDateParser(now: Date(), timeZone: newYork).parse("2022-01-10 14:05")

        XCTAssertEqual(DueDateFormatter(timeZone: newYork).string(from: afternoon), "01/10/22 14:05")
    }

    func test_showsTheDayInItsOwnTimeZone() throws {
        let midnightInNewYork = try DueDateParser(now: Date(), timeZone: newYork).parse("01/10/22")

        XCTAssertEqual(
            DueDateFormatter(timeZone: TimeZone(identifier: "UTC")!).string(from: midnightInNewYork), "01/10/22 05:00")
    }

    func test_aYearOutsideThisCentury_isShownWhole_inEitherOrder() throws {
        let parser = DueDateParser(now: Date(timeIntervalSince1970: 1_795_357_800), timeZone: newYork)
        XCTAssertEqual(DueDateFormatter(timeZone: newYork).string(from: try parser.parse("2126-03-01")), "03/01/2126")
        XCTAssertEqual(
            DueDateFormatter(timeZone: newYork).string(from: try parser.parse("1/10/1922 9:30")), "01/10/1922 09:30")
        XCTAssertEqual(
            DueDateFormatter(timeZone: newYork, order: .dayFirst).string(from: try parser.parse("0001-01-01")),
            "01/01/0001")
        XCTAssertEqual(DueDateFormatter(timeZone: newYork).string(from: try parser.parse("2099-12-31")), "12/31/99")
        XCTAssertEqual(DueDateFormatter(timeZone: newYork).string(from: try parser.parse("2000-01-01")), "01/01/00")
    }

    func test_weekdayNameAndDaysFromNow() throws {
        let formatter = DueDateFormatter(timeZone: newYork)
        let parser = DueDateParser(now: Date(timeIntervalSince1970: 1_795_357_800), timeZone: newYork)

        XCTAssertEqual(formatter.weekdayName(of: try parser.parse("01/10/22")), "Monday")
        XCTAssertEqual(formatter.daysFrom(parser.now, to: try parser.parse("tomorrow")), 1)
        XCTAssertEqual(formatter.daysFrom(parser.now, to: try parser.parse("today 23:00")), 0)
        XCTAssertEqual(formatter.daysFrom(parser.now, to: try parser.parse("11/20/26")), -2)
    }
}

/// The direct date arithmetic agrees with Foundation's calendar.
final class DueDateFormatterAgreementTests: XCTestCase {
    func test_agreesWithTheCalendarAcrossZonesCenturiesAndClockChanges() throws {
        var random = SeededGenerator(seed: 7)
        // Zones whose offset never changes are computed without asking the zone when formatting
        // many dates: UTC and zones given as an offset, among zones of every kind of change.
        let zones =
            try [
                "UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe",
                "America/St_Johns", "Pacific/Kiritimati", "Etc/GMT-14"
            ].map { try XCTUnwrap(TimeZone(identifier: $0)) }
            + [19_800, -36_000].map { try XCTUnwrap(TimeZone(secondsFromGMT: $0)) }
        for zone in zones {
            let identifier = zone.identifier
            let formatter = DueDateFormatter(timeZone: zone)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let now = Date(timeIntervalSince1970: 1_795_361_400)
            for _ in 0..<500 {
                // From year 1: the Julian calendar before 15 October 1582, as Foundation's.
                let timestamp = Double(Int.random(in: -62_135_596_800...253_402_300_799, using: &random))
                let date = Date(timeIntervalSince1970: timestamp)
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
                // A year outside 2000-2099 is written whole.
                let year =
                    (2000...2099).contains(parts.year!)
                    ? String(format: "%02d", parts.year! % 100) : String(format: "%04d", parts.year!)
                var expected = String(format: "%02d/%02d/", parts.month!, parts.day!) + year
                if parts.hour != 0 || parts.minute != 0 {
                    expected += String(format: " %02d:%02d", parts.hour!, parts.minute!)
                }
                XCTAssertEqual(formatter.string(from: timestamp), expected, "\(identifier) \(timestamp)")
                // Calendar days between the two local dates (a day a zone skipped, as Kiritimati's
                // 31 December 1994, still counts), counted in UTC by Foundation's calendar.
                var utc = Calendar(identifier: .gregorian)
                utc.timeZone = TimeZone(identifier: "UTC")!
                func day(_ date: Date) -> Date {
                    let local = calendar.dateComponents([.era, .year, .month, .day], from: date)
                    return utc.date(
                        from: DateComponents(era: local.era, year: local.year, month: local.month, day: local.day))!
                }
                let days = Int((day(date).timeIntervalSince(day(now)) / 86_400).rounded())
                XCTAssertEqual(formatter.daysFrom(now, to: timestamp), days, "\(identifier) \(timestamp)")
            }
        }
    }
}
