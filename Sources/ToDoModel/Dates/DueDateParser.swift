#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a due date was not understood: the text, and the forms that are accepted; or, for a time
/// a clock change skips, what happened then.
public struct DueDateError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let order: DateOrder
    /// Set when the text is well formed but names a local time that does not exist.
    public let skipped: SkippedTime?
    /// Set when the text names a time whose instant lies outside the years 1 to 9999 (UTC), as
    /// `9999-12-31 23:59` does twelve hours west of UTC.
    public let outsideTheYears: Bool

    /// A local time skipped when the clocks went forward, as `02:30` on 8 March 2026 in New York.
    public struct SkippedTime: Equatable, Sendable {
        /// `02:30`, and the day as it is shown (`Sunday 03/08/26`).
        public let time: String
        public let day: String
        public let zone: String
        /// The clock before and after the change, `02:00` and `03:00`.
        public let from: String
        public let to: String
        /// The same moment read after the change: `03:30`.
        public let suggestion: String
    }

    public init(text: String, order: DateOrder, skipped: SkippedTime? = nil, outsideTheYears: Bool = false) {
        self.text = text
        self.order = order
        self.skipped = skipped
        self.outsideTheYears = outsideTheYears
    }

    public var description: String {
        if outsideTheYears {
            return "invalid date '\(text)': that time is outside the years 1 to 9999 (in UTC), which todo keeps"
        }
        guard let skipped else { return "invalid date '\(text)'" }
        return
            "invalid date '\(text)': \(skipped.time) does not exist on \(skipped.day) in \(skipped.zone), where the clocks"
            + " go from \(skipped.from) to \(skipped.to); did you mean \(skipped.suggestion)?"
    }

    /// The accepted forms, for the line after the error; `nil` when the text has one of them.
    public var acceptedForms: String? { skipped == nil && !outsideTheYears ? DueDateParser.acceptedForms(order) : nil }
}

/// Reads due dates as users type them, in a given time zone relative to a given now: numeric dates
/// (`01/10/22`, `01/10/2022`, `2022-01-10`; `12/24` without a year is the next such day), a month's
/// name and a day (`dec 3`, `3 december`, `dec 3 2027`: the next such day without a year), the
/// words `today`, `tomorrow`, `yesterday`, weekday names (the next such day after today, `next
/// friday` alike), `next week` (its Monday), `next month` and `next year` (their first day),
/// `+Nd`, `+Nw`, `+Nm`, `+Ny` (days, weeks, months, years from today; `-2d` before it, `3d` as
/// Taskwarrior writes it), `in N days|weeks|months|years`, `eod`, `eow`, `eom`, `eoq`, `eoy` (today,
/// this week's Sunday, the month's, quarter's and year's last day) and `sod`, `sow`, `som`, `soq`,
/// `soy` (their first days); any of them followed by a time
/// (`17:00`, `5pm`, `5:30pm`, `noon`, `midnight`: the start of that day). A time alone is today's,
/// or tomorrow's once it has passed; `now` is this minute. A date without a time means that
/// calendar day (`ItemDate.day`). Nothing else is guessed.
public struct DueDateParser: Sendable {
    public let now: Date
    public let rules: TimeZoneRules
    public let order: DateOrder
    private let local: CivilTime

    public init(now: Date, rules: TimeZoneRules, order: DateOrder = .monthFirst) {
        self.now = now
        self.rules = rules
        self.order = order
        local = CivilTime(rules: rules)
    }

    /// The accepted forms, one line, for help and error messages.
    public static func acceptedForms(_ order: DateOrder) -> String {
        let numeric = order == .monthFirst ? "MM/dd/yy, MM/dd/yyyy" : "dd/MM/yy, dd/MM/yyyy"
        let short = order == .monthFirst ? "MM/dd" : "dd/MM"
        return "\(numeric), yyyy-MM-dd, \(short), dec 3, today, tomorrow, yesterday, a weekday name (the next one; also"
            + " next friday), next week|month|year, +Nd, +Nw, +Nm, +Ny, -Nd, in N days|weeks|months|years, eod, eow, eom,"
            + " eoq, eoy, sod, sow, som, soq, soy; each with an optional time (HH:mm, 5pm, 5:30pm, noon, midnight); a time alone (the next one); now"
    }

    /// The due date `text` names, in seconds since 1970.
    public func parse(_ text: String) throws(DueDateError) -> Double {
        try span(text).lowerBound
    }

    /// The date `text` names: the day for a form without a time, else the time.
    public func date(_ text: String) throws(DueDateError) -> ItemDate {
        let span = try span(text)
        return Self.isWholeDay(span) ? .day(Day(of: span.lowerBound, local: local)) : .time(span.lowerBound)
    }

    /// Whether a span `span(_:)` gave is a whole day (a form without a time) rather than a time:
    /// a time is one minute long; a day, however clocks change, is hours.
    public static func isWholeDay(_ span: Range<Double>) -> Bool {
        span.upperBound - span.lowerBound > 60
    }

    /// Whether `text` names the end of a period (`eod`, `eow`, `eom`, `eoq`, `eoy`), as Taskwarrior reads
    /// them: the last moment of its last day, so that "due before the end of the week" holds
    /// Sunday's items (a filter's bound is then the end of that day, not its start).
    public static func namesAnEnd(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        return words.count == 1 && ["eod", "eow", "eom", "eoq", "eoy"].contains(String(words[0]))
    }

    /// The span of time `text` names, in seconds since 1970: a whole local day for a date without
    /// a time (from its midnight to the next), else the minute it names. Filters compare with it:
    /// "due before 01/10/22" is before that day begins, "due after" it is once it has ended.
    public func span(_ text: String) throws(DueDateError) -> Range<Double> {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard (1...4).contains(words.count) else { throw error(text) }
        if words == ["now"] {
            let minute = (now.timeIntervalSince1970 / 60).rounded(.down) * 60
            return minute..<minute + 60
        }
        // A time alone is the next one: today's, or tomorrow's once it has passed.
        if words.count == 1, let time = Self.parseTime(words[0]) {
            for day in today...today + 1 {
                guard
                    case .moment(let moment) = local.resolve(local: day * 86_400 + time.hour * 3600 + time.minute * 60),
                    Double(moment) > now.timeIntervalSince1970
                else { continue }
                return Double(moment)..<Double(moment + 60)
            }
        }
        var time: (hour: Int, minute: Int)?
        if words.count > 1, let parsedTime = Self.parseTime(words.last!) {
            time = parsedTime
            words.removeLast()
        }
        // ISO 8601's "2022-01-10T14:30" is one word.
        if time == nil, words.count == 1, let separator = words[0].firstIndex(of: "t"), words[0].first?.isNumber == true
        {
            guard let parsedTime = Self.parseTime(String(words[0][words[0].index(after: separator)...])) else {
                throw error(text)
            }
            time = parsedTime
            words[0] = String(words[0][..<separator])
        }
        guard let dayNumber = self.dayNumber(for: words) else { throw error(text) }
        guard let time else {
            let start = Double(local.firstMoment(ofDay: dayNumber))
            return start..<Double(local.firstMoment(ofDay: dayNumber + 1))
        }
        switch local.resolve(local: dayNumber * 86_400 + time.hour * 3600 + time.minute * 60) {
        case .moment(let moment):
            // A time is an instant: one past the years todo keeps would show as no year anywhere.
            guard ToDoItem.instantRange.contains(Double(moment)) else {
                throw DueDateError(text: text, order: order, outsideTheYears: true)
            }
            return Double(moment)..<Double(moment + 60)
        case .skipped(let before, let after):
            throw skippedError(text, dayNumber: dayNumber, time: time, offsetBefore: before, offsetAfter: after)
        }
    }

    // MARK: Days

    /// The day the words before any time name: one word, `next` and a weekday or period, a month
    /// and a day (and a year), or `in N units`.
    private func dayNumber(for words: [String]) -> Int? {
        switch words.count {
        case 1:
            if let day = numericDay(words[0]) { return day.number }
            if let number = endOfPeriod(words[0]) { return number }
            if let number = shortDay(words[0]) { return number }
            if let number = offsetDay(words[0]) { return number }
            if let offset = relativeDays(words[0]) { return CalendarDay(number: today + offset).number }
            return nil
        case 2:
            if let number = monthAndDay(words) { return number }
            guard words[0] == "next" else { return nil }
            let day = CalendarDay(number: today)
            switch words[1] {
            // Next week begins on its Monday (ISO 8601's weeks); next month and year on their first day.
            case "week": return today + (7 - (CalendarDay.weekday(ofDayNumber: today) + 5) % 7)
            case "month": return CalendarDay(year: day.year + day.month / 12, month: day.month % 12 + 1, day: 1).number
            case "year": return CalendarDay(year: day.year + 1, month: 1, day: 1).number
            default:
                // "next friday" is the next Friday after today, as "friday" is.
                guard Self.weekdayIndex(words[1]) != nil, let offset = relativeDays(words[1]) else { return nil }
                return today + offset
            }
        case 3:
            if let number = monthAndDay(words) { return number }
            guard words[0] == "in", let count = Self.digits(Substring(words[1])), count <= 100_000 else { return nil }
            return later(by: count, words[2])
        default:
            return nil
        }
    }

    /// `dec 3`, `3 december`, `december 3 2027`: that day, the next such one (today counts) when
    /// no year is given.
    private func monthAndDay(_ words: [String]) -> Int? {
        let month: Int, dayText: String
        if let named = Self.monthIndex(words[0]) {
            (month, dayText) = (named + 1, words[1])
        } else if let named = Self.monthIndex(words[1]) {
            (month, dayText) = (named + 1, words[0])
        } else {
            return nil
        }
        // `3rd`, `21st` read as the number.
        let digits =
            dayText.hasSuffix("st") || dayText.hasSuffix("nd") || dayText.hasSuffix("rd") || dayText.hasSuffix("th")
            ? dayText.dropLast(2) : Substring(dayText)
        guard digits.count <= 2, let dayOfMonth = Self.digits(digits) else { return nil }
        if words.count == 3 {
            guard words[2].count == 4, let year = Self.digits(Substring(words[2])) else { return nil }
            return CalendarDay(year: year, month: month, day: dayOfMonth).number
        }
        return nextDay(month: month, day: dayOfMonth)
    }

    /// `MM/dd` (or `dd/MM`), without a year: the next such day, today counting.
    private func shortDay(_ word: String) -> Int? {
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count <= 2,
            let first = Self.digits(parts[0]), let second = Self.digits(parts[1])
        else { return nil }
        return order == .monthFirst ? nextDay(month: first, day: second) : nextDay(month: second, day: first)
    }

    /// The next day that is `day` of `month`, today counting: this year's, else a later year's
    /// (29 February waits for a leap year); `nil` for a day no month has.
    private func nextDay(month: Int, day: Int) -> Int? {
        let year = CalendarDay(number: today).year
        for candidate in year...year + 8 {
            if let number = CalendarDay(year: candidate, month: month, day: day).number, number >= today {
                return number
            }
        }
        return nil
    }

    /// `+Nm` and `+Ny` (months and years from today, as `in N months`), and `-Nd`, `-Nw` (days and
    /// weeks before today); `Nd`, `Nw` as Taskwarrior writes a duration from today.
    private func offsetDay(_ word: String) -> Int? {
        var body = Substring(word), sign = 1
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        let units: [Character: DatePeriod.Unit] = ["d": .day, "w": .week, "m": .month, "y": .year]
        guard let last = body.last, let unit = units[last], let count = Self.digits(body.dropLast()), count <= 100_000
        else { return nil }
        // Months and years only forward, and with their `+` (a bare `3m` is minutes to some).
        if unit == .month || unit == .year, sign < 0 || body.count == word.count { return nil }
        return DatePeriod(count: sign * count, unit: unit).moved(dayNumber: today)
    }

    /// The day `count` units (`days`, `weeks`, `months`, `years`, or one of each) after today; a
    /// month or year later keeps the day of the month, or the month's last day when it has fewer
    /// (in 1 month from 31 January is 28 or 29 February).
    private func later(by count: Int, _ unit: String) -> Int? {
        let singular = unit.hasSuffix("s") ? String(unit.dropLast()) : unit
        guard count == 1 || unit.hasSuffix("s") else { return nil }
        let units: [String: DatePeriod.Unit] = ["day": .day, "week": .week, "month": .month, "year": .year]
        return units[singular].flatMap { DatePeriod(count: count, unit: $0).moved(dayNumber: today) }
    }

    /// The days Taskwarrior's words for the ends of periods name, as `task calc` gives them: `eod`,
    /// `eow`, `eom`, `eoq`, `eoy` the last day of today, this week (Monday to Sunday, as ISO 8601
    /// counts them), this month, quarter and year; `sod`, `sow`, `som`, `soq`, `soy` their first.
    /// A day, as a date without a time is.
    private func endOfPeriod(_ word: String) -> Int? {
        let day = CalendarDay(number: today)
        // Weekdays count from 1 for Sunday: Sunday is the end of its own week.
        let sunday = today + (8 - CalendarDay.weekday(ofDayNumber: today)) % 7
        let quarterStart = (day.month - 1) / 3 * 3 + 1
        switch word {
        case "eod", "sod": return today
        case "eow": return sunday
        case "sow": return sunday - 6
        case "eom":
            return CalendarDay(
                year: day.year, month: day.month, day: CalendarDay.length(ofMonth: day.month, year: day.year)
            ).number
        case "som": return CalendarDay(year: day.year, month: day.month, day: 1).number
        case "eoq":
            let last = quarterStart + 2
            return CalendarDay(year: day.year, month: last, day: CalendarDay.length(ofMonth: last, year: day.year))
                .number
        case "soq": return CalendarDay(year: day.year, month: quarterStart, day: 1).number
        case "eoy": return CalendarDay(year: day.year, month: 12, day: 31).number
        case "soy": return CalendarDay(year: day.year, month: 1, day: 1).number
        default: return nil
        }
    }

    private static func weekdayIndex(_ word: String) -> Int? {
        weekdays.firstIndex { $0 == word || (word.count == 3 && $0.hasPrefix(word)) }
    }

    /// The number of today's local day.
    private var today: Int { local.dayNumber(of: now.timeIntervalSince1970) }

    /// `MM/dd/yy`, `MM/dd/yyyy` (or day first) and `yyyy-MM-dd`, checked against the calendar.
    private func numericDay(_ word: String) -> CalendarDay? {
        let day: CalendarDay
        if word.contains("/") {
            let parts = word.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count <= 2, parts[1].count <= 2,
                parts[2].count == 2 || parts[2].count == 4,
                let first = Self.digits(parts[0]), let second = Self.digits(parts[1]), var year = Self.digits(parts[2])
            else { return nil }
            // Two-digit years are this century's: 22 is 2022.
            if parts[2].count == 2 { year += 2000 }
            day =
                order == .monthFirst
                ? CalendarDay(year: year, month: first, day: second)
                : CalendarDay(year: year, month: second, day: first)
        } else if word.contains("-") {
            let parts = word.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2,
                let year = Self.digits(parts[0]), let month = Self.digits(parts[1]),
                let dayOfMonth = Self.digits(parts[2])
            else { return nil }
            day = CalendarDay(year: year, month: month, day: dayOfMonth)
        } else {
            return nil
        }
        // A day that does not exist (30 February, 5 October 1582) has no number.
        guard day.year >= 1, day.number != nil else { return nil }
        return day
    }

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december"
    ]

    /// A month's name, or its first three letters (`sept` too), from 0 for January.
    private static func monthIndex(_ word: String) -> Int? {
        months.firstIndex {
            $0 == word || (word.count == 3 && $0.hasPrefix(word)) || (word == "sept" && $0 == "september")
        }
    }

    /// How many days from today `word` means: `today`, `tomorrow`, `yesterday`, a weekday.
    private func relativeDays(_ word: String) -> Int? {
        switch word {
        case "today": return 0
        case "tomorrow": return 1
        case "yesterday": return -1
        default: break
        }
        if let weekday = Self.weekdayIndex(word) {
            let todayWeekday = CalendarDay.weekday(ofDayNumber: today) - 1
            let ahead = (weekday - todayWeekday + 7) % 7
            return ahead == 0 ? 7 : ahead
        }
        return nil
    }

    /// The error for `time` on a day when the clocks skip it, with the time they skip to.
    private func skippedError(
        _ text: String, dayNumber: Int, time: (hour: Int, minute: Int),
        offsetBefore: Int, offsetAfter: Int
    ) -> DueDateError {
        func clock(_ seconds: Int) -> String {
            let seconds = (seconds % 86_400 + 86_400) % 86_400
            return CivilTime.digits(seconds / 3600, 2) + ":" + CivilTime.digits(seconds % 3600 / 60, 2)
        }
        let typed = time.hour * 3600 + time.minute * 60
        let midnight = Double(local.firstMoment(ofDay: dayNumber))
        let formatter = DueDateFormatter(rules: rules, order: order)
        // The clock just before the change, read in the old offset.
        let gapStart =
            local.momentOfChange(skipping: dayNumber * 86_400 + typed, from: offsetBefore, to: offsetAfter)
            + offsetBefore
        return DueDateError(
            text: text, order: order,
            skipped: .init(
                time: clock(typed), day: "\(formatter.weekdayName(of: midnight)) \(formatter.string(from: midnight))",
                zone: rules.name, from: clock(gapStart), to: clock(gapStart + offsetAfter - offsetBefore),
                suggestion: clock(typed + offsetAfter - offsetBefore)))
    }

    // MARK: Pieces

    /// `H:mm` or `HH:mm`, 00:00 to 23:59; `5pm`, `5:30am` (12-hour, 1 to 12); `noon`, `midnight`.
    private static func parseTime(_ word: String) -> (hour: Int, minute: Int)? {
        switch word {
        case "noon": return (12, 0)
        case "midnight": return (0, 0)
        default: break
        }
        var clock = Substring(word), meridiem: Substring?
        if word.hasSuffix("am") || word.hasSuffix("pm") {
            meridiem = clock.suffix(2)
            clock = clock.dropLast(2)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (1...2).contains(parts[0].count), let hour = digits(parts[0]) else {
            return nil
        }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let minutes = digits(parts[1]), minutes < 60 else { return nil }
            minute = minutes
        }
        guard let meridiem else { return parts.count == 2 && hour < 24 ? (hour, minute) : nil }
        guard (1...12).contains(hour) else { return nil }
        return (hour % 12 + (meridiem == "pm" ? 12 : 0), minute)
    }

    /// The value of a non-empty run of ASCII digits.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    private func error(_ text: String) -> DueDateError {
        DueDateError(text: text, order: order)
    }
}
