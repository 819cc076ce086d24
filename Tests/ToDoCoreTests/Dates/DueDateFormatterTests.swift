import Foundation
import ToDoCore
import XCTest

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

        XCTAssertEqual(DueDateFormatter(timeZone: TimeZone(identifier: "UTC")!).string(from: midnightInNewYork), "01/10/22 05:00")
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
