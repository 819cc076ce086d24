import Foundation
import ToDoCore
import TestSupport
import XCTest

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

        for text in ["13/45/22", "2022-02-30", "banana", "01/10", "", " ", "02/29/23", "00/10/22", "01/00/22", "01/10/022",
                     "2022-13-01", "22-01-10", "+d", "+3", "+3m", "-3d", "next week", "01/10/22 25:00", "01/10/22 12:60",
                     "01/10/22 12", "2022-01-10T", "2022/01/10", "1e3", "mon day", "+999999d", "0000-01-01",
                     "01/10/22 10:00 extra", "tomorrowx", "t", "０１/10/22"] {
            XCTAssertThrowsError(try parser.parse(text), text) { error in
                XCTAssertEqual(error as? DueDateError, DueDateError(text: text, order: .monthFirst), text)
            }
        }
    }

    func test_error_quotesTheTextAndListsTheAcceptedForms() {
        XCTAssertThrowsError(try DueDateParser(now: now, timeZone: berlin).parse("banana")) { error in
            XCTAssertEqual(String(describing: error), "invalid date 'banana'")
            XCTAssertEqual((error as? DueDateError)?.acceptedForms,
                           "MM/dd/yy, MM/dd/yyyy, yyyy-MM-dd (each with an optional HH:mm), today, tomorrow,"
                           + " a weekday name (the next one), +Nd, +Nw")
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
