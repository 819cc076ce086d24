import Foundation
import TestSupport
import XCTest

@testable import ToDoModel

final class DueDateParserTests: XCTestCase {
    /// Sunday 22 November 2026, 15:30 in Berlin.
    let now = Date(timeIntervalSince1970: 1_795_357_800)
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func test_monthFirstNumericDates_areThatDaysLocalMidnight() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)

        XCTAssertEqual(try show(parser.parse("01/10/22")), "2022-01-10 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("01/10/2022")), "2022-01-10 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("1/5/22")), "2022-01-05 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("02/29/24")), "2024-02-29 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("07/04/2027")), "2027-07-04 00:00 +0200")
    }

    func test_dayFirstOrder_swapsMonthAndDay() throws {
        let parser = DueDateParser(now: now, timeZone: berlin, order: .dayFirst)

        XCTAssertEqual(try show(parser.parse("01/10/22")), "2022-10-01 00:00 +0200")
        XCTAssertEqual(try show(parser.parse("31/12/2026")), "2026-12-31 00:00 +0100")
        XCTAssertThrowsError(try parser.parse("12/31/2026"))
    }

    func test_isoDates_andTimes() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)

        XCTAssertEqual(try show(parser.parse("2022-01-10")), "2022-01-10 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("2022-01-10 14:30")), "2022-01-10 14:30 +0100")
        XCTAssertEqual(try show(parser.parse("2022-01-10T09:05")), "2022-01-10 09:05 +0100")
        XCTAssertEqual(try show(parser.parse("01/10/22 9:05")), "2022-01-10 09:05 +0100")
        XCTAssertEqual(try show(parser.parse("tomorrow 23:59")), "2026-11-23 23:59 +0100")
    }

    /// Sunday 22 November 2026 in Berlin: "in 1 month" is 22 December, eow is today.
    func test_datesAsPeopleSayThem() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)
        let cases: [(String, String)] = [
            ("in 3 days", "2026-11-25 00:00 +0100"), ("in 1 day", "2026-11-23 00:00 +0100"),
            ("in 2 weeks", "2026-12-06 00:00 +0100"), ("in 1 month", "2026-12-22 00:00 +0100"),
            ("in 3 months", "2027-02-22 00:00 +0100"), ("in 1 year", "2027-11-22 00:00 +0100"),
            ("next monday", "2026-11-23 00:00 +0100"), ("next sunday", "2026-11-29 00:00 +0100"),
            ("tomorrow 17:00", "2026-11-23 17:00 +0100"), ("fri 9am", "2026-11-27 09:00 +0100"),
            ("2030-01-10 5:30pm", "2030-01-10 17:30 +0100"), ("today noon", "2026-11-22 12:00 +0100"),
            ("tomorrow midnight", "2026-11-23 00:00 +0100"), ("today 12am", "2026-11-22 00:00 +0100"),
            ("today 12pm", "2026-11-22 12:00 +0100"), ("in 2 days 08:15", "2026-11-24 08:15 +0100"),
            ("eod", "2026-11-22 00:00 +0100"), ("eow", "2026-11-22 00:00 +0100"),
            ("eom", "2026-11-30 00:00 +0100"), ("eoy", "2026-12-31 00:00 +0100"),
            // Their starts and the quarter's, as Taskwarrior's `task calc` gives them.
            ("eoq", "2026-12-31 00:00 +0100"), ("sod", "2026-11-22 00:00 +0100"),
            ("sow", "2026-11-16 00:00 +0100"), ("som", "2026-11-01 00:00 +0100"),
            ("soq", "2026-10-01 00:00 +0200"), ("soy", "2026-01-01 00:00 +0100"),
            ("eom 17:00", "2026-11-30 17:00 +0100")
        ]
        for (text, expected) in cases { XCTAssertEqual(try show(parser.parse(text)), expected, text) }
        // Nothing else is guessed.
        for text in [
            "in three days", "in 3 fortnights", "next", "next fortnight", "next 01/10/22", "13pm", "0am",
            "5 pm", "in -1 days", "today at 5pm", "in 1 month 9", "last friday", "dec 32", "32 dec",
            "december 3 27", "2x", "12/24/", "now 17:00", "2s", "in 2 seconds"
        ] {
            XCTAssertThrowsError(try parser.parse(text), text)
        }
    }

    /// What the neighbours' users type (issue 32): the next such day for a month and day without
    /// a year, next week's Monday, next month's and year's first day, a time alone the next such
    /// time, yesterday and days ago, Taskwarrior's `3d`, `now`. Sunday 22 November 2026, 15:30.
    func test_theFormsNeighboursUsersType() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)
        let cases: [(String, String)] = [
            ("next week", "2026-11-23 00:00 +0100"), ("next month", "2026-12-01 00:00 +0100"),
            ("next year", "2027-01-01 00:00 +0100"),
            ("dec 3", "2026-12-03 00:00 +0100"), ("3 dec", "2026-12-03 00:00 +0100"),
            ("December 3", "2026-12-03 00:00 +0100"),
            ("dec 3rd", "2026-12-03 00:00 +0100"), ("nov 22", "2026-11-22 00:00 +0100"),
            ("nov 21", "2027-11-21 00:00 +0100"),
            ("sept 1", "2027-09-01 00:00 +0200"), ("dec 3 2027", "2027-12-03 00:00 +0100"),
            ("dec 3 17:00", "2026-12-03 17:00 +0100"),
            ("feb 29", "2028-02-29 00:00 +0100"), ("12/24", "2026-12-24 00:00 +0100"),
            ("11/22", "2026-11-22 00:00 +0100"),
            ("01/10", "2027-01-10 00:00 +0100"), ("12/24 9am", "2026-12-24 09:00 +0100"),
            ("3pm", "2026-11-23 15:00 +0100"), ("17:00", "2026-11-22 17:00 +0100"), ("noon", "2026-11-23 12:00 +0100"),
            ("midnight", "2026-11-23 00:00 +0100"), ("yesterday", "2026-11-21 00:00 +0100"),
            ("-2d", "2026-11-20 00:00 +0100"),
            ("-1w", "2026-11-15 00:00 +0100"), ("3d", "2026-11-25 00:00 +0100"), ("2w", "2026-12-06 00:00 +0100"),
            ("+1m", "2026-12-22 00:00 +0100"), ("+2y", "2028-11-22 00:00 +0100"), ("now", "2026-11-22 15:30 +0100")
        ]
        for (text, expected) in cases { XCTAssertEqual(try show(parser.parse(text)), expected, text) }
        XCTAssertEqual(
            try show(DueDateParser(now: now, timeZone: berlin, order: .dayFirst).parse("24/12")),
            "2026-12-24 00:00 +0100")
        XCTAssertFalse(DueDateParser.isWholeDay(try parser.span("3pm")), "a time alone is a time")
        XCTAssertTrue(DueDateParser.isWholeDay(try parser.span("dec 3")), "a month and day is a day")
    }

    /// The words Taskwarrior's users type (issue 52), as `task calc` answers them on Sunday
    /// 22 November 2026, but for the calendar's months, quarters and years (Taskwarrior counts 30,
    /// 91 and 365 days) and `31st` (Taskwarrior 2.6.2 gives the 1st of a month of 30 days).
    func test_taskwarriorsWords() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)
        let cases: [(String, String)] = [
            ("1st", "2026-12-01 00:00 +0100"), ("22nd", "2026-12-22 00:00 +0100"), ("23rd", "2026-11-23 00:00 +0100"),
            ("30th", "2026-11-30 00:00 +0100"), ("31st", "2026-12-31 00:00 +0100"), ("11th", "2026-12-11 00:00 +0100"),
            ("jan", "2027-01-01 00:00 +0100"), ("dec", "2026-12-01 00:00 +0100"),
            ("November", "2027-11-01 00:00 +0100"),
            ("2wk", "2026-12-06 00:00 +0100"), ("3days", "2026-11-25 00:00 +0100"),
            ("1 week", "2026-11-29 00:00 +0100"),
            ("-1m", "2026-10-22 00:00 +0200"), ("3m", "2027-02-22 00:00 +0100"), ("1q", "2027-02-22 00:00 +0100"),
            ("2qtrs", "2027-05-22 00:00 +0200"), ("-1y", "2025-11-22 00:00 +0100"),
            ("in 2 weeks", "2026-12-06 00:00 +0100"),
            ("2 weeks 5pm", "2026-12-06 17:00 +0100"), ("2h", "2026-11-22 17:30 +0100"),
            ("in 2 hours", "2026-11-22 17:30 +0100"), ("90min", "2026-11-22 17:00 +0100"),
            ("now+2h", "2026-11-22 17:30 +0100"), ("now-30min", "2026-11-22 15:00 +0100"),
            ("tomorrow+17h", "2026-11-23 17:00 +0100"), ("monday+9h", "2026-11-23 09:00 +0100"),
            ("eow-1d", "2026-11-21 00:00 +0100"), ("sow+1w", "2026-11-23 00:00 +0100"),
            ("2026-12-01+1d", "2026-12-02 00:00 +0100"), ("now+1d", "2026-11-23 15:30 +0100"),
            ("2030-01-10T17:00:00", "2030-01-10 17:00 +0100"), ("2030-01-10T17:00:00Z", "2030-01-10 18:00 +0100"),
            ("2030-01-10t17:00z", "2030-01-10 18:00 +0100"), ("01/10/30 17:00:59", "2030-01-10 17:00 +0100"),
            ("in 2h", "2026-11-22 17:30 +0100"), ("in 3d", "2026-11-25 00:00 +0100")
        ]
        for (text, expected) in cases { XCTAssertEqual(try show(parser.parse(text)), expected, text) }
        XCTAssertTrue(DueDateParser.isWholeDay(try parser.span("2wk")), "a duration in days is a day")
        XCTAssertFalse(DueDateParser.isWholeDay(try parser.span("tomorrow+17h")), "hours after a day are a time")
        XCTAssertTrue(DueDateParser.namesAnEnd("eow-1d"), "Saturday's end, as Taskwarrior reads eow-1d")
        XCTAssertFalse(DueDateParser.namesAnEnd("eow+2h"))
        // The clocks go forward at 02:00 on 29 March 2026 in Berlin: hours after that day's start
        // are its local clock, and a time it skips is refused as a typed one is.
        let march = DueDateParser(now: Date(timeIntervalSince1970: 1_774_688_400), timeZone: berlin)
        XCTAssertEqual(try show(march.parse("tomorrow+17h")), "2026-03-29 17:00 +0200")
        XCTAssertThrowsError(try march.parse("tomorrow+2h")) { error in
            XCTAssertNotNil((error as? DueDateError)?.skipped, "\(error)")
        }
        // Moved past the years todo keeps: said so, as for a time typed there.
        for text in ["9999-12-31+1d", "0001-01-01-1d", "100000y", "-2027y", "now+100000y", "9999-12-31T23:59Z+1min"] {
            XCTAssertThrowsError(try parser.parse(text), text) { error in
                XCTAssertEqual((error as? DueDateError)?.outsideTheYears, true, text)
            }
        }
        for text in ["someday", "later", "Someday"] {
            XCTAssertThrowsError(try parser.parse(text), text) { error in
                let error = error as? DueDateError
                XCTAssertEqual(error?.someday, true, text)
                XCTAssertNil(error?.acceptedForms, text)
                XCTAssertEqual(
                    error?.description,
                    "invalid date '\(text)': todo keeps no far-off stand-in date (Taskwarrior's is 9999-12-30); leave"
                        + " the date out (an item without a due sorts after every dated one), or give the day it"
                        + " should wait until")
            }
        }
    }

    func test_aMonthLater_keepsTheDay_orTheMonthsLastOne() throws {
        // Saturday 31 January 2026, 10:00 in Berlin.
        let parser = DueDateParser(now: Date(timeIntervalSince1970: 1_769_850_000), timeZone: berlin)
        XCTAssertEqual(try show(parser.parse("in 1 month")), "2026-02-28 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("in 13 months")), "2027-02-28 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("eow")), "2026-02-01 00:00 +0100")
    }

    func test_words_areRelativeToNowInTheTimeZone() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)

        XCTAssertEqual(try show(parser.parse("today")), "2026-11-22 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("Tomorrow")), "2026-11-23 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("+0d")), "2026-11-22 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("+3d")), "2026-11-25 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("+2w")), "2026-12-06 00:00 +0100")
    }

    func test_weekdayNames_meanTheNextSuchDayAfterToday() throws {
        let parser = DueDateParser(now: now, timeZone: berlin)

        XCTAssertEqual(try show(parser.parse("monday")), "2026-11-23 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("Sat")), "2026-11-28 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("sunday")), "2026-11-29 00:00 +0100", "today is Sunday: the next one")
    }

    func test_theTimeZoneDecidesWhatTodayIs() throws {
        // 15:30 in Berlin is already Monday in Tokyo.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let parser = DueDateParser(now: now.addingTimeInterval(9 * 3600), timeZone: tokyo)

        XCTAssertEqual(try show(parser.parse("today"), in: tokyo), "2026-11-23 00:00 +0900")
        XCTAssertEqual(try show(parser.parse("01/10/22"), in: tokyo), "2022-01-10 00:00 +0900")
    }

    func test_daysAcrossADaylightSavingChange_stayWholeDays() throws {
        // Saturday 28 March 2026, noon in Berlin; clocks go forward the next night.
        let parser = DueDateParser(now: Date(timeIntervalSince1970: 1_774_695_600), timeZone: berlin)

        XCTAssertEqual(try show(parser.parse("+1d")), "2026-03-29 00:00 +0100")
        XCTAssertEqual(try show(parser.parse("+2d")), "2026-03-30 00:00 +0200")
    }

    func test_refusesTimesAndDaysTheCalendarWouldHaveToMove() {
        let newYork = DueDateParser(now: now, timeZone: TimeZone(identifier: "America/New_York")!)

        // 02:30 did not happen in New York on 8 March 2026; 5-14 October 1582 never happened at all.
        XCTAssertThrowsError(try newYork.parse("2026-03-08 02:30"))
        XCTAssertNoThrow(try newYork.parse("2026-03-08 03:30"))
        XCTAssertThrowsError(try newYork.parse("1582-10-10"))
        XCTAssertNoThrow(try newYork.parse("1582-10-15"))
    }

    func test_refusesAnythingElse() {
        let parser = DueDateParser(now: now, timeZone: berlin)

        for text in [
            "13/45/22", "2022-02-30", "banana", "13/10", "", " ", "02/29/23", "00/10/22", "01/00/22", "01/10/022",
            "2022-13-01", "22-01-10", "+d", "+3", "+3x", "1th", "32nd", "0th", "now+", "now+2",
            "in -2 days", "next day", "01/10/22 25:00", "01/10/22 12:60",
            "01/10/22 12", "2022-01-10T", "2022/01/10", "1e3", "mon day", "+999999d", "0000-01-01",
            "01/10/22 10:00 extra", "tomorrowx", "t", "０１/10/22"
        ] {
            XCTAssertThrowsError(try parser.parse(text), text) { error in
                XCTAssertEqual(error as? DueDateError, DueDateError(text: text, order: .monthFirst), text)
            }
        }
    }

    func test_error_quotesTheTextAndListsTheAcceptedForms() {
        XCTAssertThrowsError(try DueDateParser(now: now, timeZone: berlin).parse("banana")) { error in
            XCTAssertEqual(String(describing: error), "invalid date 'banana'")
            XCTAssertEqual(
                (error as? DueDateError)?.acceptedForms,
                "MM/dd/yy, MM/dd/yyyy, yyyy-MM-dd, MM/dd, dec 3, jan, 15th, today, tomorrow, yesterday, a weekday name (the"
                    + " next one; also next friday), next week|month|year, 2d, +2w, -1m, 1q, 1y, 2 weeks, in 3 days, eod, eow,"
                    + " eom, eoq, eoy, sod, sow, som, soq, soy; each with an optional time (HH:mm, 5pm, 5:30pm, noon,"
                    + " midnight); a time alone (the next one); now, 2h, in 90 minutes; any of them moved by one more"
                    + " (now+2h, tomorrow+17h, eow-1d); yyyy-MM-ddTHH:mm[:ss][Z]"
            )
        }
    }

    private func show(_ timestamp: Double, in timeZone: TimeZone? = nil) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone ?? berlin
        formatter.dateFormat = "yyyy-MM-dd HH:mm Z"
        return formatter.string(from: Date(timeIntervalSince1970: timestamp))
    }
}
