import Foundation
import XCTest

@testable import ToDoModel

/// Repeat rules: what `--repeat` takes, the RRULE text read, and the next occurrence of each kind.
final class RepeatRuleTests: XCTestCase {
    private let newYork = TimeZoneRules(TimeZone(identifier: "America/New_York")!)
    private lazy var local = CivilTime(rules: newYork)

    /// The moment of a local time in New York.
    private func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Double {
        local.timestamp(of: CivilTime.Fields(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// The next occurrence's local time as `2026-11-30 09:00`, and the rule kept with it.
    private func next(
        _ rule: String, after due: Double, allDay: Bool = true, now: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (String, String)? {
        let parsed = try RepeatRule(rule)
        guard
            case .occurrence(let moment, let kept)? = parsed.nextOccurrence(
                after: due, allDay: allDay, now: now, rules: newYork)
        else {
            return nil
        }
        let fields = local.fields(of: moment)
        let text = String(
            format: "%04d-%02d-%02d %02d:%02d", fields.year, fields.month, fields.day, fields.hour, fields.minute)
        return (text, kept.text)
    }

    // MARK: Typed forms

    func test_typedForms_becomeRRULEText() throws {
        let cases = [
            ("daily", "FREQ=DAILY"), ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("weekly", "FREQ=WEEKLY"),
            ("monthly", "FREQ=MONTHLY"), ("Yearly", "FREQ=YEARLY"), ("every day", "FREQ=DAILY"),
            ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
            ("every 1 month", "FREQ=MONTHLY"), ("every 1 months", "FREQ=MONTHLY"),
            ("every 3 years", "FREQ=YEARLY;INTERVAL=3"), ("every  10   days", "FREQ=DAILY;INTERVAL=10"),
            ("freq=monthly;byday=-1fr", "FREQ=MONTHLY;BYDAY=-1FR"),
            ("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU")
        ]
        for (typed, text) in cases {
            XCTAssertEqual(try RepeatRule.typed(typed).text, text, typed)
        }
    }

    /// The month's end kept (`keepingMonthEnd`) is a cadence to the formats that say only one;
    /// another rule of month days read from a file is not, and never traps (`28,5` once did).
    func test_aMonthEndRule_isACadence_andNoOtherMonthDays() {
        XCTAssertEqual(
            RepeatRule.keepingMonthEnd("FREQ=MONTHLY", dueDay: 30, month: 11, year: 2026), "FREQ=MONTHLY;BYMONTHDAY=-1")
        XCTAssertEqual(
            RepeatRule.keepingMonthEnd("FREQ=MONTHLY;INTERVAL=2", dueDay: 30, month: 1, year: 2027),
            "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        XCTAssertEqual(RepeatRule.keepingMonthEnd("FREQ=MONTHLY", dueDay: 28, month: 1, year: 2027), "FREQ=MONTHLY")
        for text in [
            "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYMONTHDAY=28,29;BYSETPOS=-1",
            "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30;BYSETPOS=-1"
        ] {
            XCTAssertNotNil(RepeatRule.endlessCadence(of: text), text)
        }
        for text in [
            "FREQ=MONTHLY;BYMONTHDAY=28,5;BYSETPOS=-1", "FREQ=MONTHLY;BYMONTHDAY=28;BYSETPOS=-1",
            "FREQ=MONTHLY;BYMONTHDAY=15",
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"
        ] {
            XCTAssertNil(RepeatRule.endlessCadence(of: text), text)
        }
    }

    func test_otherText_isRefused_sayingWhy() {
        let cases: [(String, String)] = [
            ("fortnightly", "invalid repeat 'fortnightly': use \(RepeatRule.typedForms)"),
            ("every 0 days", "invalid repeat 'every 0 days': use \(RepeatRule.typedForms)"),
            ("every 2 week", "invalid repeat 'every 2 week': use \(RepeatRule.typedForms)"),
            ("every weeks", "invalid repeat 'every weeks': use \(RepeatRule.typedForms)"),
            ("FREQ=SOMETIMES", "invalid repeat rule 'FREQ=SOMETIMES': FREQ=SOMETIMES is not a frequency"),
            (
                "FREQ=WEEKLY;INTERVAL=0",
                "invalid repeat rule 'FREQ=WEEKLY;INTERVAL=0': INTERVAL=0 is not a list of numbers 1 to 99999"
            ),
            (
                "FREQ=WEEKLY;BYDAY=XX",
                "invalid repeat rule 'FREQ=WEEKLY;BYDAY=XX': BYDAY=XX is not a list of weekdays (MO, TU, 2MO, -1FR)"
            ),
            (
                "FREQ=DAILY;COUNT=2;UNTIL=20300101",
                "invalid repeat rule 'FREQ=DAILY;COUNT=2;UNTIL=20300101': it has both COUNT and UNTIL"
            ),
            ("FREQ=DAILY;FREQ=WEEKLY", "invalid repeat rule 'FREQ=DAILY;FREQ=WEEKLY': FREQ is given twice"),
            (
                "FREQ=MONTHLY;BYMONTHDAY=32",
                "invalid repeat rule 'FREQ=MONTHLY;BYMONTHDAY=32': BYMONTHDAY=32 is not a list of numbers ±1 to 31"
            ),
            (
                "FREQ=MONTHLY;UNTIL=20300230",
                "invalid repeat rule 'FREQ=MONTHLY;UNTIL=20300230': UNTIL=20300230 is not a date that exists"
            ),
            (
                "FREQ=WEEKLY;COLOUR=RED",
                "invalid repeat rule 'FREQ=WEEKLY;COLOUR=RED': COLOUR is not a part of a repeat rule"
            ),
            ("FREQ=WEEKLY;;", "invalid repeat rule 'FREQ=WEEKLY;;': \"\" is not NAME=VALUE"),
            ("INTERVAL=2;FREQ=", "invalid repeat rule 'INTERVAL=2;FREQ=': \"FREQ=\" is not NAME=VALUE")
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try RepeatRule.typed(text), text) { error in
                XCTAssertEqual((error as? RepeatRuleError)?.description, message)
            }
        }
    }

    func test_summary_saysTheTypedFormsInWords_andOthersAsText() throws {
        XCTAssertEqual(try RepeatRule("FREQ=WEEKLY").summary, "every week")
        XCTAssertEqual(try RepeatRule("FREQ=WEEKLY;INTERVAL=2").summary, "every 2 weeks")
        XCTAssertEqual(try RepeatRule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR").summary, "every weekday")
        XCTAssertEqual(try RepeatRule("FREQ=DAILY;COUNT=3").summary, "every day, 3 times more")
        XCTAssertEqual(try RepeatRule("FREQ=DAILY;COUNT=1").summary, "every day, this time the last")
        XCTAssertEqual(try RepeatRule("FREQ=MONTHLY;BYDAY=-1FR").summary, "FREQ=MONTHLY;BYDAY=-1FR")
    }

    func test_finerRules_areKept_butCannotBeFollowed() throws {
        for text in ["FREQ=HOURLY", "FREQ=DAILY;BYHOUR=9,17", "FREQ=YEARLY;BYWEEKNO=20", "FREQ=WEEKLY;X-APPLE-THING=1"]
        {
            let rule = try RepeatRule(text)
            XCTAssertEqual(rule.text, text)
            XCTAssertEqual(rule.canBeFollowed, text.hasPrefix("FREQ=WEEKLY"), text)
        }
        XCTAssertNil(try RepeatRule("FREQ=HOURLY").nextOccurrence(after: 0, allDay: false, now: 0, rules: newYork))
    }

    // MARK: The next occurrence

    func test_aWeeklyItemDueToday_movesOneWeek_andOneLongOverdue_toTheComingWeek() throws {
        // Sunday 22 November 2026.
        let now = at(2026, 11, 22, 10, 30)
        XCTAssertEqual(try next("FREQ=WEEKLY", after: at(2026, 11, 22), now: now)?.0, "2026-11-29 00:00")
        XCTAssertEqual(
            try next("FREQ=WEEKLY", after: at(2026, 9, 1), now: now)?.0, "2026-11-24 00:00",
            "a Tuesday chore twelve weeks overdue: the coming Tuesday, not one week on")
        XCTAssertEqual(
            try next("FREQ=DAILY", after: at(2026, 11, 1), now: now)?.0, "2026-11-22 00:00",
            "a whole day: today is still ahead")
        XCTAssertEqual(
            try next("FREQ=WEEKLY;INTERVAL=2", after: at(2026, 11, 29), now: now)?.0, "2026-12-13 00:00",
            "checked ahead of its day: the next after the due")
    }

    func test_aTimedItem_keepsItsTimeOfDay_andMovesPastNow() throws {
        let now = at(2026, 11, 22, 10, 30)
        XCTAssertEqual(
            try next("FREQ=DAILY", after: at(2026, 11, 22, 17), allDay: false, now: now)?.0, "2026-11-23 17:00")
        XCTAssertEqual(
            try next("FREQ=DAILY", after: at(2026, 11, 20, 17), allDay: false, now: now)?.0, "2026-11-22 17:00",
            "later today is still ahead")
        XCTAssertEqual(
            try next("FREQ=DAILY", after: at(2026, 11, 20, 9), allDay: false, now: now)?.0, "2026-11-23 09:00",
            "this morning is past")
        // The clocks go back on 1 November 2026 in New York: 09:00 stays 09:00.
        XCTAssertEqual(
            try next("FREQ=DAILY", after: at(2026, 10, 31, 9), allDay: false, now: at(2026, 10, 31, 10))?.0,
            "2026-11-01 09:00")
        // They go forward on 14 March 2027: 02:30 does not exist, and is read with the offset before.
        XCTAssertEqual(
            try next("FREQ=DAILY", after: at(2027, 3, 13, 2, 30), allDay: false, now: at(2027, 3, 13, 3))?.0,
            "2027-03-14 03:30")
    }

    func test_weekdays_skipTheWeekend() throws {
        // Friday 27 November 2026.
        XCTAssertEqual(
            try next("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", after: at(2026, 11, 27), now: at(2026, 11, 27, 8))?.0,
            "2026-11-30 00:00")
        XCTAssertEqual(
            try next("FREQ=DAILY;BYDAY=MO,WE", after: at(2026, 11, 23), now: at(2026, 11, 23, 8))?.0, "2026-11-25 00:00"
        )
    }

    func test_monthlyAndYearly_skipDaysAMonthOrYearLacks() throws {
        let now = at(2026, 1, 1)
        XCTAssertEqual(
            try next("FREQ=MONTHLY", after: at(2026, 1, 31), now: now)?.0, "2026-03-31 00:00", "no 31 February")
        XCTAssertEqual(
            try next("FREQ=YEARLY", after: at(2024, 2, 29), now: now)?.0, "2028-02-29 00:00", "the next 29 February")
        XCTAssertEqual(
            try next("FREQ=MONTHLY;BYMONTHDAY=-1", after: at(2026, 1, 31), now: now)?.0, "2026-02-28 00:00",
            "the last day")
        XCTAssertEqual(
            try next("FREQ=MONTHLY;BYDAY=-1FR", after: at(2026, 1, 30), now: now)?.0, "2026-02-27 00:00",
            "the last Friday")
        XCTAssertEqual(
            try next("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", after: at(2026, 1, 30), now: now)?.0,
            "2026-02-27 00:00",
            "the last weekday")
        XCTAssertEqual(
            try next("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", after: at(2026, 11, 26), now: now)?.0, "2027-11-25 00:00",
            "Thanksgiving")
        XCTAssertEqual(
            try next("FREQ=YEARLY;BYDAY=20MO", after: at(2026, 5, 18), now: now)?.0, "2027-05-17 00:00",
            "the 20th Monday of the year")
        XCTAssertEqual(try next("FREQ=MONTHLY;BYMONTHDAY=1,15", after: at(2026, 1, 1), now: now)?.0, "2026-01-15 00:00")
        XCTAssertEqual(
            try next("FREQ=YEARLY;BYMONTHDAY=1", after: at(2026, 1, 1), now: now)?.0, "2026-02-01 00:00",
            "a day of the month in a yearly rule without BYMONTH: every month")
        XCTAssertEqual(
            try next("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", after: at(2026, 2, 13), now: now)?.0, "2026-03-13 00:00",
            "Friday the 13th")
    }

    func test_count_isLoweredByEveryOccurrencePassed_andTheLastOneEndsTheSeries() throws {
        let now = at(2026, 11, 22, 10, 30)
        XCTAssertEqual(try next("FREQ=WEEKLY;COUNT=5", after: at(2026, 11, 22), now: now)?.1, "FREQ=WEEKLY;COUNT=4")
        XCTAssertEqual(
            try next("FREQ=DAILY;COUNT=5", after: at(2026, 11, 19), now: now)?.1, "FREQ=DAILY;COUNT=2",
            "the 19th checked, the 20th and 21st passed over: the 22nd and 23rd left")
        XCTAssertEqual(
            try RepeatRule("FREQ=DAILY;COUNT=3").nextOccurrence(
                after: at(2026, 11, 19), allDay: true, now: now, rules: newYork),
            .ended, "too few left to reach today")
        XCTAssertEqual(
            try RepeatRule("FREQ=DAILY;COUNT=1").nextOccurrence(
                after: at(2026, 11, 22), allDay: true, now: now, rules: newYork),
            .ended)
    }

    func test_until_endsTheSeries_asADayOrAMoment() throws {
        let now = at(2026, 11, 22, 10, 30)
        XCTAssertEqual(try next("FREQ=WEEKLY;UNTIL=20261129", after: at(2026, 11, 22), now: now)?.0, "2026-11-29 00:00")
        XCTAssertNil(try next("FREQ=WEEKLY;UNTIL=20261128", after: at(2026, 11, 22), now: now))
        // 17:00 in New York is 22:00 UTC.
        XCTAssertEqual(
            try next("FREQ=DAILY;UNTIL=20261123T220000Z", after: at(2026, 11, 22, 17), allDay: false, now: now)?.0,
            "2026-11-23 17:00")
        XCTAssertNil(
            try next("FREQ=DAILY;UNTIL=20261123T215959Z", after: at(2026, 11, 22, 17), allDay: false, now: now))
        XCTAssertNil(
            try next("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", after: at(2026, 1, 1), now: now),
            "a rule that never matches ends")
    }
}
