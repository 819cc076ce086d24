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
    /// Set for Taskwarrior's `someday` and `later` (its 9999-12-30): todo keeps no far-off stand-in
    /// date, which would sort and show as a real one; the message says what to do instead.
    public let someday: Bool

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

    public init(
        text: String, order: DateOrder, skipped: SkippedTime? = nil, outsideTheYears: Bool = false,
        someday: Bool = false
    ) {
        self.text = text
        self.order = order
        self.skipped = skipped
        self.outsideTheYears = outsideTheYears
        self.someday = someday
    }

    public var description: String {
        if outsideTheYears {
            return "invalid date '\(text)': that time is outside the years 1 to 9999 (in UTC), which todo keeps"
        }
        if someday {
            return
                "invalid date '\(text)': todo keeps no far-off stand-in date (Taskwarrior's is 9999-12-30); leave the"
                + " date out (an item without a due sorts after every dated one), or give the day it should wait until"
        }
        guard let skipped else { return "invalid date '\(text)'" }
        return
            "invalid date '\(text)': \(skipped.time) does not exist on \(skipped.day) in \(skipped.zone), where the clocks"
            + " go from \(skipped.from) to \(skipped.to); did you mean \(skipped.suggestion)?"
    }

    /// The accepted forms, for the line after the error; `nil` when the text has one of them.
    public var acceptedForms: String? {
        skipped == nil && !outsideTheYears && !someday ? DueDateParser.acceptedForms(order) : nil
    }
}

/// Reads due dates as users type them, in a given time zone relative to a given now: numeric dates
/// (`01/10/22`, `01/10/2022`, `2022-01-10`; `12/24` without a year is the next such day), a month's
/// name and a day (`dec 3`, `3 december`, `dec 3 2027`: the next such day without a year), the
/// words `today`, `tomorrow`, `yesterday`, weekday names (the next such day after today, `next
/// friday` alike), `next week` (its Monday), `next month` and `next year` (their first day), a
/// month alone (`jan`: its next first day) or a day of the month alone (`15th`: the next one),
/// durations from today as Taskwarrior writes them (`2d`, `+2wk`, `-1m`, `1q`, `3days`, `2 weeks`,
/// `in 3 days`: calendar months and years, where Taskwarrior counts 30 and 365 days), `eod`, `eow`,
/// `eom`, `eoq`, `eoy` (today, this week's Sunday, the month's, quarter's and year's last day) and
/// `sod`, `sow`, `som`, `soq`, `soy` (their first days); any of them followed by a time (`17:00`,
/// `5pm`, `5:30pm`, `noon`, `midnight`: the start of that day). A time alone is today's, or
/// tomorrow's once it has passed; `now` is this minute, `2h` or `in 90 minutes` a time from it; a
/// date moved by one more duration (`now+2h`, `tomorrow+17h`, `eow-1d`). A date without a time
/// means that calendar day (`ItemDate.day`). Nothing else is guessed; `someday` is refused with
/// what to do instead.
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
        return
            "\(numeric), yyyy-MM-dd, \(short), dec 3, jan, 15th, today, tomorrow, yesterday, a weekday name (the next"
            + " one; also next friday), next week|month|year, 2d, +2w, -1m, 1q, 1y, 2 weeks, in 3 days, eod, eow, eom, eoq,"
            + " eoy, sod, sow, som, soq, soy; each with an optional time (HH:mm, 5pm, 5:30pm, noon, midnight); a time"
            + " alone (the next one); now, 2h, in 90 minutes; any of them moved by one more (now+2h, tomorrow+17h, eow-1d);"
            + " yyyy-MM-ddTHH:mm[:ss][Z]"
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
    /// `eow-1d` ends at the end of that day too, as Taskwarrior reads it.
    public static func namesAnEnd(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        guard words.count == 1 else { return false }
        var word = words[0]
        if let (base, shift) = moved(words[0]), case .calendar = shift { word = base }
        return ["eod", "eow", "eom", "eoq", "eoy"].contains(word)
    }

    /// The span of time `text` names, in seconds since 1970: a whole local day for a date without
    /// a time (from its midnight to the next), else the minute it names. Filters compare with it:
    /// "due before 01/10/22" is before that day begins, "due after" it is once it has ended.
    public func span(_ text: String) throws(DueDateError) -> Range<Double> {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard (1...4).contains(words.count) else { throw error(text) }
        if words.count == 1, ["someday", "later"].contains(words[0]) {
            throw DueDateError(text: text, order: order, someday: true)
        }
        let named: Named?, isADuration: Bool
        // A date moved by a duration, in one word: `now+2h`, `tomorrow+17h`, `eow-1d`.
        if words.count == 1, let (baseWord, shift) = Self.moved(Substring(words[0])) {
            guard let base = try self.named([String(baseWord)], text: text) else { throw error(text) }
            (named, isADuration) = (try moved(base, by: shift, text: text), true)
        } else {
            (named, isADuration) = (try self.named(words, text: text), Self.shift(words) != nil)
        }
        // A form that was read, and named no day: one moved past the years todo keeps.
        let outsideTheYears = DueDateError(text: text, order: order, outsideTheYears: true)
        switch named {
        case .day(let number):
            guard (1...9999).contains(CalendarDay(number: number).year) else { throw outsideTheYears }
            return Double(local.firstMoment(ofDay: number))..<Double(local.firstMoment(ofDay: number + 1))
        case .moment(let moment):
            // A time is an instant: one past the years todo keeps would show as no year anywhere.
            guard ToDoItem.instantRange.contains(Double(moment)) else { throw outsideTheYears }
            return Double(moment)..<Double(moment + 60)
        case nil:
            throw isADuration ? outsideTheYears : error(text)
        }
    }

    /// What a form names: a local day (its number) or a moment (seconds since 1970, on a minute).
    private enum Named {
        case day(Int)
        case moment(Int)
    }

    /// The day or moment `words` name without a duration after a sign; `nil` for no form.
    private func named(_ words: [String], text: String) throws(DueDateError) -> Named? {
        var words = words
        if words == ["now"] { return .moment(thisMinute) }
        // A time alone is the next one: today's, or tomorrow's once it has passed.
        if words.count == 1, let time = Self.parseTime(words[0]) {
            for day in today...today + 1 {
                guard
                    case .moment(let moment) = local.resolve(local: day * 86_400 + time.hour * 3600 + time.minute * 60),
                    Double(moment) > now.timeIntervalSince1970
                else { continue }
                return .moment(moment)
            }
        }
        // A duration of hours or minutes is a time from now: `2h`, `90 minutes`, `in 2 hours`.
        if case .clock(let seconds)? = Self.shift(words) { return .moment(thisMinute + seconds) }
        var time: (hour: Int, minute: Int)?, utc = false
        if words.count > 1, let parsedTime = Self.parseTime(words.last!) {
            time = parsedTime
            words.removeLast()
        }
        // ISO 8601's "2022-01-10T14:30" is one word, with seconds (`14:30:00`, read to the minute)
        // or UTC's `Z` as Taskwarrior and calendars write it.
        if time == nil, words.count == 1, let separator = words[0].firstIndex(of: "t"),
            words[0].first?.isNumber == true,
            words[0][..<separator].contains("-")
        {
            var clock = words[0][words[0].index(after: separator)...]
            if clock.last == "z" {
                utc = true
                clock = clock.dropLast()
            }
            guard let parsedTime = Self.parseTime(String(clock)) else { throw error(text) }
            time = parsedTime
            words[0] = String(words[0][..<separator])
        }
        guard let dayNumber = self.dayNumber(for: words) else { return nil }
        guard let time else { return .day(dayNumber) }
        let localSeconds = dayNumber * 86_400 + time.hour * 3600 + time.minute * 60
        if utc { return .moment(localSeconds) }
        return try moment(atLocal: localSeconds, text: text)
    }

    /// The moment at `localSeconds` of local time, or the error that says the clocks skip it.
    private func moment(atLocal localSeconds: Int, text: String) throws(DueDateError) -> Named {
        switch local.resolve(local: localSeconds) {
        case .moment(let moment):
            return .moment(moment)
        case .skipped(let before, let after):
            let dayNumber = CalendarDay.floorDivide(localSeconds, 86_400), clock = localSeconds - dayNumber * 86_400
            throw skippedError(
                text, dayNumber: dayNumber, time: (clock / 3600, clock % 3600 / 60), offsetBefore: before,
                offsetAfter: after)
        }
    }

    /// `named` moved by `shift`: a day by calendar units stays a day; hours after a day are its
    /// local clock (`tomorrow+17h` is 17:00, clock changes or not); a time moves as postpone moves it.
    private func moved(_ named: Named, by shift: Shift, text: String) throws(DueDateError) -> Named? {
        switch (named, shift) {
        case (.day(let number), .calendar(let period)):
            return period.moved(dayNumber: number).map(Named.day)
        case (.day(let number), .clock(let seconds)):
            return try moment(atLocal: number * 86_400 + seconds, text: text)
        case (.moment(let moment), .calendar(let period)):
            guard case .time(let movedMoment)? = period.moving(.time(Double(moment)), rules: rules) else { return nil }
            return .moment(Int(movedMoment))
        case (.moment(let moment), .clock(let seconds)):
            return .moment(moment + seconds)
        }
    }

    /// The start of this minute, as `now` is read.
    private var thisMinute: Int {
        Int((now.timeIntervalSince1970 / 60).rounded(.down)) * 60
    }

    // MARK: Durations

    /// A duration as Taskwarrior writes one: calendar units (`2wk`, `-1m`, `+3days`, `1q`) move a
    /// day; clock units (`2h`, `90min`) a time.
    private enum Shift {
        case calendar(DatePeriod)
        case clock(seconds: Int)
    }

    private static let clockUnits: [Substring: Int] = [
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "min": 60, "mins": 60, "minute": 60, "minutes": 60
    ]

    /// `2wk`, `+3days`, `-1m`, `2h`, `-90min`: a count with an optional sign, and a unit.
    private static func shift(_ text: Substring) -> Shift? {
        var body = text, sign = 1
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        guard let (count, name) = DatePeriod.countAndUnit(body) else { return nil }
        if let unit = DatePeriod.units[name] { return .calendar(DatePeriod(count: sign * count, unit: unit)) }
        return clockUnits[name].map { .clock(seconds: sign * count * $0) }
    }

    /// One word of a date moved by a duration, split: `now+2h` as `now` and 2 hours. The sign is the
    /// last one not at the start (`2030-01-10` has none a duration follows); `nil` for a word
    /// without one.
    private static func moved(_ word: Substring) -> (base: Substring, shift: Shift)? {
        guard let sign = word.dropFirst().lastIndex(where: { $0 == "+" || $0 == "-" }),
            let shift = shift(word[sign...])
        else { return nil }
        return (word[..<sign], shift)
    }

    /// A duration in words: `2wk`, `2 weeks`, `in 2 weeks`, `in 2h` (from today, or now for hours).
    private static func shift(_ words: [String]) -> Shift? {
        switch words.count {
        case 1: return shift(Substring(words[0]))
        case 2 where words[0] == "in": return words[1].first?.isNumber == true ? shift(Substring(words[1])) : nil
        case 2: return shift(Substring(words[0] + words[1]))
        case 3 where words[0] == "in" && words[1].first?.isNumber == true: return shift(Substring(words[1] + words[2]))
        default: return nil
        }
    }

    // MARK: Days

    /// The day the words before any time name: one word, `next` and a weekday or period, a month
    /// and a day (and a year), or `in N units`.
    private func dayNumber(for words: [String]) -> Int? {
        if case .calendar(let period)? = Self.shift(words) { return period.moved(dayNumber: today) }
        switch words.count {
        case 1:
            if let day = numericDay(words[0]) { return day.number }
            if let number = endOfPeriod(words[0]) { return number }
            if let number = shortDay(words[0]) { return number }
            if let number = ordinalDay(words[0]) { return number }
            if let month = Self.monthIndex(words[0]) { return nextFirst(ofMonth: month + 1) }
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
            return monthAndDay(words)
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

    /// `15th`, `1st`, `22nd` alone: the next day after today that is that day of its month, as
    /// Taskwarrior reads them (`31st` is the next month that has one; Taskwarrior 2.6.2 gives the
    /// 1st of a month of 30 days).
    private func ordinalDay(_ word: String) -> Int? {
        guard let dayOfMonth = Self.digits(word.dropLast(2)), (1...31).contains(dayOfMonth) else { return nil }
        let suffix =
            (11...13).contains(dayOfMonth % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][dayOfMonth % 10, default: "th"]
        guard word.hasSuffix(suffix) else { return nil }
        var day = CalendarDay(number: today)
        for _ in 0..<3 {
            if let number = CalendarDay(year: day.year, month: day.month, day: dayOfMonth).number, number > today {
                return number
            }
            day = CalendarDay(year: day.year + day.month / 12, month: day.month % 12 + 1, day: 1)
        }
        return nil
    }

    /// A month's name alone (`jan`): its first day, the next one after today.
    private func nextFirst(ofMonth month: Int) -> Int? {
        let year = CalendarDay(number: today).year
        return [year, year + 1].lazy.compactMap { CalendarDay(year: $0, month: month, day: 1).number }.first {
            $0 > today
        }
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
        var parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        // Seconds (`17:00:00`, as ISO 8601 and Taskwarrior write them) are read to the minute.
        if parts.count == 3, meridiem == nil {
            guard parts[2].count == 2, let seconds = digits(parts[2]), seconds < 60 else { return nil }
            parts.removeLast()
        }
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
