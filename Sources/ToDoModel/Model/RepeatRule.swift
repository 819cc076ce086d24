/// How an item repeats: RFC 5545's RRULE (`FREQ=WEEKLY;INTERVAL=2`), read into its parts. An
/// item keeps the text it was given (`ToDoItem.repeatRule`), so that a rule travels to calendars
/// unchanged; this reads it to find the next occurrence (`nextOccurrence`) and to say it in words.
///
/// todo follows `FREQ` of `DAILY`, `WEEKLY`, `MONTHLY` or `YEARLY` with `INTERVAL`, `COUNT`, `UNTIL`,
/// `BYDAY`, `BYMONTHDAY`, `BYMONTH`, `BYSETPOS` and `WKST`: every rule a to-do app writes. Finer
/// rules (`FREQ=HOURLY`, `BYHOUR`, `BYWEEKNO`, `BYYEARDAY`, …) are read and kept, but todo cannot
/// say when such an item is next due (`canBeFollowed`).
public struct RepeatRule: Equatable, Sendable {
    public enum Frequency: String, Sendable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY"
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A weekday of `BYDAY`, with its place in the month or year (`2MO`: the second Monday, `-1FR`:
    /// the last Friday); `ordinal` 0 for every such day.
    public struct Weekday: Equatable, Sendable {
        public var ordinal: Int
        /// 1 for Sunday to 7 for Saturday, as `CalendarDay.weekday` counts.
        public var day: Int
    }

    /// When the series ends: after a day, or after a moment (UTC, or local time when floating).
    public enum Until: Equatable, Sendable {
        case day(Int)
        case moment(Double)
        case localTime(Int)
    }

    public private(set) var frequency: Frequency
    public private(set) var interval = 1
    /// How many occurrences are left, counting the current one.
    public private(set) var count: Int?
    public private(set) var until: Until?
    public private(set) var byDay: [Weekday] = []
    public private(set) var byMonthDay: [Int] = []
    public private(set) var byMonth: [Int] = []
    public private(set) var bySetPosition: [Int] = []
    /// The day weeks start on, 1 (Sunday) to 7; Monday unless `WKST` says.
    public private(set) var weekStart = 2
    /// Parts read and kept that todo does not follow (`BYHOUR=9`).
    public private(set) var unfollowedParts: [String] = []
    /// The parts in the order given, names and values in upper case.
    private var parts: [(name: String, value: String)]

    public static func == (lhs: RepeatRule, rhs: RepeatRule) -> Bool { lhs.text == rhs.text }

    /// The rule as RRULE text, parts in the order given.
    public var text: String { parts.map { "\($0.name)=\($0.value)" }.joined(separator: ";") }

    /// Whether todo can work out the next occurrence.
    public var canBeFollowed: Bool {
        unfollowedParts.isEmpty && [.daily, .weekly, .monthly, .yearly].contains(frequency)
    }

    private static let weekdayNames = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Reads RRULE text (an `RRULE:` before it is allowed), as RFC 5545 section 3.3.10 writes it.
    public init(_ text: String) throws(RepeatRuleError) {
        var body = Substring(Whitespace.trimmingSpaces(text))
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        guard !body.isEmpty else { throw RepeatRuleError(text: text, reason: "it is empty") }
        var parts: [(name: String, value: String)] = []
        for part in body.split(separator: ";", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
                throw RepeatRuleError(text: text, reason: "\"\(part)\" is not NAME=VALUE")
            }
            let name = pieces[0].uppercased()
            guard !parts.contains(where: { $0.name == name }) else {
                throw RepeatRuleError(text: text, reason: "\(name) is given twice")
            }
            parts.append((name, pieces[1].uppercased()))
        }
        guard let frequencyText = parts.first(where: { $0.name == "FREQ" })?.value else {
            throw RepeatRuleError(text: text, reason: "it has no FREQ")
        }
        guard let frequency = Frequency(rawValue: frequencyText) else {
            throw RepeatRuleError(text: text, reason: "FREQ=\(frequencyText) is not a frequency")
        }
        self.frequency = frequency
        self.parts = parts
        func numbers(
            _ value: String, _ name: String, in range: ClosedRange<Int>, signed: Bool
        ) throws(RepeatRuleError) -> [Int] {
            var list: [Int] = []
            for piece in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Int(piece.hasPrefix("+") ? piece.dropFirst() : piece),
                    range.contains(abs(number)), signed || number > 0
                else {
                    throw RepeatRuleError(
                        text: text,
                        reason:
                            "\(name)=\(value) is not a list of numbers \(signed ? "±" : "")\(range.lowerBound) to \(range.upperBound)"
                    )
                }
                list.append(number)
            }
            return list
        }
        for (name, value) in parts {
            switch name {
            case "FREQ": break
            case "INTERVAL":
                interval = try numbers(value, name, in: 1...99_999, signed: false).only(
                    or: RepeatRuleError(text: text, reason: "INTERVAL is one number"))
            case "COUNT":
                count = try numbers(value, name, in: 1...999_999, signed: false).only(
                    or: RepeatRuleError(text: text, reason: "COUNT is one number"))
            case "UNTIL":
                guard let parsed = CivilTime.parseBasic(Substring(value)) else {
                    throw RepeatRuleError(
                        text: text, reason: "UNTIL=\(value) is not a date (20301231) or time (20301231T235959Z)")
                }
                guard
                    let day = CalendarDay(year: parsed.fields.year, month: parsed.fields.month, day: parsed.fields.day)
                        .number
                else {
                    throw RepeatRuleError(text: text, reason: "UNTIL=\(value) is not a date that exists")
                }
                let seconds =
                    day * 86_400 + parsed.fields.hour * 3600 + parsed.fields.minute * 60 + parsed.fields.second
                until = !parsed.hasTime ? .day(day) : parsed.utc ? .moment(Double(seconds)) : .localTime(seconds)
            case "BYDAY":
                byDay = try value.split(separator: ",", omittingEmptySubsequences: false).map {
                    piece throws(RepeatRuleError) in
                    let name = String(piece.suffix(2)), ordinalText = piece.dropLast(2)
                    guard let day = Self.weekdayNames.firstIndex(of: name),
                        let ordinal = ordinalText.isEmpty
                            ? 0 : Int(ordinalText.hasPrefix("+") ? ordinalText.dropFirst() : ordinalText),
                        (1...53).contains(abs(ordinal)) || ordinalText.isEmpty
                    else {
                        throw RepeatRuleError(
                            text: text, reason: "BYDAY=\(value) is not a list of weekdays (MO, TU, 2MO, -1FR)")
                    }
                    return Weekday(ordinal: ordinal, day: day + 1)
                }
            case "BYMONTHDAY": byMonthDay = try numbers(value, name, in: 1...31, signed: true)
            case "BYMONTH": byMonth = try numbers(value, name, in: 1...12, signed: false)
            case "BYSETPOS": bySetPosition = try numbers(value, name, in: 1...366, signed: true)
            case "WKST":
                guard let day = Self.weekdayNames.firstIndex(of: value) else {
                    throw RepeatRuleError(text: text, reason: "WKST=\(value) is not a weekday (MO, TU, …)")
                }
                weekStart = day + 1
            case "BYSECOND", "BYMINUTE", "BYHOUR", "BYYEARDAY", "BYWEEKNO", "RSCALE", "SKIP":
                unfollowedParts.append("\(name)=\(value)")
            default:
                // RFC 5545 names every part; an X- part of a calendar's own is kept.
                guard name.hasPrefix("X-") else {
                    throw RepeatRuleError(text: text, reason: "\(name) is not a part of a repeat rule")
                }
            }
        }
        if count != nil, until != nil { throw RepeatRuleError(text: text, reason: "it has both COUNT and UNTIL") }
        if [.daily, .weekly].contains(frequency), byDay.contains(where: { $0.ordinal != 0 }) {
            throw RepeatRuleError(text: text, reason: "a numbered weekday (2MO) needs FREQ=MONTHLY or YEARLY")
        }
        if frequency == .weekly, !byMonthDay.isEmpty {
            throw RepeatRuleError(text: text, reason: "BYMONTHDAY cannot go with FREQ=WEEKLY")
        }
        if !bySetPosition.isEmpty, byDay.isEmpty, byMonthDay.isEmpty, byMonth.isEmpty {
            throw RepeatRuleError(text: text, reason: "BYSETPOS needs another BY part")
        }
    }

    // MARK: As people type it

    /// The rule `text` names as typed after `--repeat`: `daily`, `weekdays`, `weekly`, `monthly`,
    /// `yearly`, `every N days|weeks|months|years` (`every day`, `every 2 weeks`), or RRULE text.
    public static func typed(_ text: String) throws(RepeatRuleError) -> RepeatRule {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        func rule(_ cadence: Cadence) -> RepeatRule {
            // Made from parts known to be valid.
            try! RepeatRule(cadence.ruleText)
        }
        switch words.count {
        case 1:
            switch words[0] {
            case "daily": return rule(.every(1, .daily))
            case "weekdays": return rule(.weekdays)
            case "weekly": return rule(.every(1, .weekly))
            case "monthly": return rule(.every(1, .monthly))
            case "yearly", "annually": return rule(.every(1, .yearly))
            default: break
            }
        case 2...3 where words[0] == "every":
            let interval = words.count == 3 ? Int(words[1]) : 1
            let units: [Substring: Frequency] = ["day": .daily, "week": .weekly, "month": .monthly, "year": .yearly]
            // `every week`, `every 1 week`, `every 2 weeks`: the plural for more than one.
            let unit = words[words.count - 1]
            if let interval, (1...99_999).contains(interval),
                let frequency = interval == 1
                    ? units[unit] ?? (words.count == 3 && unit.hasSuffix("s") ? units[unit.dropLast()] : nil)
                    : unit.hasSuffix("s") ? units[unit.dropLast()] : nil
            {
                return rule(.every(interval, frequency))
            }
        default: break
        }
        if text.uppercased().containsText("FREQ=") { return try RepeatRule(text) }
        throw RepeatRuleError(text: text, reason: nil)
    }

    /// The forms `--repeat` takes, for help and errors.
    public static let typedForms =
        "daily, weekdays, weekly, monthly, yearly, every N days|weeks|months|years, or RRULE text (FREQ=MONTHLY;BYDAY=-1FR)"

    /// The rule in words where it is one of the typed forms (`every 2 weeks`), else its text;
    /// with how many times are left, or the day it ends, when it says.
    /// A monthly rule that keeps the month's end says so: `every month on its last day`, `every
    /// month on the 30th, or its last day`.
    public var summary: String {
        let units: [Frequency: String] = [.daily: "day", .weekly: "week", .monthly: "month", .yearly: "year"]
        var words: String
        switch cadence {
        case .weekdays?: words = "every weekday"
        case .every(let interval, let frequency)?:
            words = interval == 1 ? "every \(units[frequency]!)" : "every \(interval) \(units[frequency]!)s"
        case nil:
            guard case .every(let interval, _)? = cadenceKeepingMonthEnd, let day = byMonthDay.max() else {
                return text
            }
            words = interval == 1 ? "every month" : "every \(interval) months"
            return words + (day == -1 ? " on its last day" : " on the \(day)th, or its last day")
        }
        if let count { words += count == 1 ? ", this time the last" : ", \(count) times more" }
        if until != nil { words += " (\(text))" }
        return words
    }

    /// How often a rule repeats when it says it as `--repeat` types it: every N days, weeks,
    /// months or years, or every weekday (Monday to Friday).
    public enum Cadence: Equatable, Sendable {
        /// `interval` of a frequency from daily to yearly.
        case every(Int, Frequency)
        case weekdays

        /// The RRULE text of the cadence: `FREQ=WEEKLY;INTERVAL=2`, `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`.
        public var ruleText: String {
            switch self {
            case .weekdays: return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
            case .every(let interval, let frequency):
                return "FREQ=\(frequency.rawValue)" + (interval > 1 ? ";INTERVAL=\(interval)" : "")
            }
        }
    }

    /// The rule's cadence when it is one of the forms `--repeat` types, with or without `COUNT` or
    /// `UNTIL` (`every weekday` has no other part); `nil` for any other rule. What `summary` says
    /// in words, and what todo.txt's `rec:` and Taskwarrior's `recur` can say.
    public var cadence: Cadence? {
        if parts.count == 2, frequency == .weekly, byDay.map(\.day) == [2, 3, 4, 5, 6],
            byDay.allSatisfy({ $0.ordinal == 0 })
        {
            return .weekdays
        }
        guard [.daily, .weekly, .monthly, .yearly].contains(frequency),
            parts.allSatisfy({ ["FREQ", "INTERVAL", "COUNT", "UNTIL"].contains($0.name) })
        else { return nil }
        return .every(interval, frequency)
    }

    /// `text`, a repeat typed as a cadence (`monthly`, `every 3 months`), anchored on a due from
    /// the 29th to a month's end so that no month is skipped, as Taskwarrior repeats: from the
    /// month's last day it stays on the last day (`BYMONTHDAY=-1`); from the 29th or 30th, a month
    /// without that day gets its last day (`BYMONTHDAY=28,29,30;BYSETPOS=-1`). RFC 5545's plain
    /// `FREQ=MONTHLY` skips such months. Any other rule is returned as it is.
    public static func keepingMonthEnd(_ text: String, dueDay day: Int, month: Int, year: Int) -> String {
        guard day >= 29, let rule = try? RepeatRule(text), rule.count == nil, rule.until == nil,
            case .every(let interval, .monthly)? = rule.cadence
        else { return text }
        let base = "FREQ=MONTHLY" + (interval > 1 ? ";INTERVAL=\(interval)" : "")
        if day == CalendarDay.length(ofMonth: month, year: year) { return base + ";BYMONTHDAY=-1" }
        return base + ";BYMONTHDAY=" + (28...day).map(String.init).joined(separator: ",") + ";BYSETPOS=-1"
    }

    /// The cadence of a rule `keepingMonthEnd` made (`monthly` that keeps the month's end), for
    /// the formats that say only a cadence (Taskwarrior's `recur`, todo.txt's `rec:`, which keep a
    /// month's end themselves); else `cadence`.
    public var cadenceKeepingMonthEnd: Cadence? {
        if let cadence { return cadence }
        guard frequency == .monthly, count == nil, until == nil,
            parts.allSatisfy({ ["FREQ", "INTERVAL", "BYMONTHDAY", "BYSETPOS"].contains($0.name) })
        else { return nil }
        let keepsLastDay = byMonthDay == [-1] && bySetPosition.isEmpty
        // What `keepingMonthEnd` writes from the 29th or the 30th, and nothing else.
        let keepsDay = bySetPosition == [-1] && (byMonthDay == [28, 29] || byMonthDay == [28, 29, 30])
        return keepsLastDay || keepsDay ? .every(interval, .monthly) : nil
    }

    /// The day of a month of `length` days that a monthly rule keeping the month's end gives (the
    /// last, or the latest of its days the month has: the 30th, or the 28th of February); `nil`
    /// for any other rule. What moving such an item by months keeps (`postpone 1m` from 11/30
    /// lands on 12/31, a day the rule gives, not 12/30).
    public func monthEndDay(inMonthOf length: Int) -> Int? {
        guard cadence == nil, cadenceKeepingMonthEnd != nil else { return nil }
        return byMonthDay == [-1] ? length : byMonthDay.filter { $0 <= length }.max()
    }

    /// The cadence of the rule `text`, when it is one without a count or an end: what the formats
    /// that name only a cadence (Taskwarrior's `recur`, todo.txt's `rec:`) can say of it.
    public static func endlessCadence(of text: String) -> Cadence? {
        guard let rule = try? RepeatRule(text), rule.count == nil, rule.until == nil else { return nil }
        return rule.cadenceKeepingMonthEnd
    }

    /// `keepingMonthEnd` for a due that is an `ItemDate`, its day read in `local`.
    public static func keepingMonthEnd(_ text: String, due: ItemDate, rules: TimeZoneRules) -> String {
        let day = CalendarDay(number: due.day(local: CivilTime(rules: rules)).number)
        return keepingMonthEnd(text, dueDay: day.day, month: day.month, year: day.year)
    }

    // MARK: The next occurrence

    /// What follows an occurrence.
    public enum Next: Equatable, Sendable {
        /// The next occurrence still ahead, and the rule to keep with it (its `COUNT` lowered by
        /// the occurrences passed).
        case occurrence(Double, rule: RepeatRule)
        /// The series has no occurrence after this one.
        case ended
    }

    /// The occurrence after the one at `due` that is still ahead at `now`: a later day than the
    /// due's, and for a whole-day due (`allDay`) today or later, for a time later than `now`.
    /// Occurrences already past are passed over (a long-overdue weekly chore moves to the coming
    /// week, not one week on), each counted against `COUNT`. Occurrences keep the due's local time
    /// of day in `rules`; one a clock change skips is read with the offset before the change, as
    /// RFC 5545 says. `nil` when the rule cannot be followed (`canBeFollowed`).
    public func nextOccurrence(after due: Double, allDay: Bool, now: Double, rules: TimeZoneRules) -> Next? {
        guard canBeFollowed else { return nil }
        let local = CivilTime(rules: rules)
        let dueFields = local.fields(of: due)
        let dueDay = local.dayNumber(of: due), today = local.dayNumber(of: now)
        let timeOfDay = allDay ? 0 : dueFields.hour * 3600 + dueFields.minute * 60 + dueFields.second
        var found: Double?, passed = 0
        forEachOccurrenceDay(after: dueDay, timeOfDay: timeOfDay, moment: { moment($0, timeOfDay, allDay, local) }) {
            day in
            let moment = moment(day, timeOfDay, allDay, local)
            if allDay ? day >= today : moment > now {
                found = moment
                return false
            }
            passed += 1
            return true
        }
        guard let found else { return .ended }
        var rule = self
        if let count, let index = parts.firstIndex(where: { $0.name == "COUNT" }) {
            let left = count - 1 - passed
            rule.parts[index].value = String(left)
            rule.count = left
        }
        return .occurrence(found, rule: rule)
    }

    /// The occurrence after `date`, as `nextOccurrence(after:allDay:now:rules:)` finds it, of the
    /// same kind (a day for a day); `nil` when the series ended or cannot be followed.
    package func nextOccurrence(
        after date: ItemDate, now: Double, local: CivilTime
    ) -> (next: ItemDate, rule: RepeatRule)? {
        guard
            case .occurrence(let next, let rule)? = nextOccurrence(
                after: date.moment(local: local), allDay: date.isDay, now: now,
                rules: local.rules)
        else { return nil }
        return (date.withMoment(next, local: local), rule)
    }

    private func moment(_ day: Int, _ timeOfDay: Int, _ allDay: Bool, _ local: CivilTime) -> Double {
        if allDay { return Double(local.firstMoment(ofDay: day)) }
        return Double(local.moment(readingSkipped: day * 86_400 + timeOfDay))
    }

    /// Calls `body` with each day of the series after `first` (the day of its first occurrence,
    /// which `COUNT` counts) that `COUNT` and `UNTIL` leave, in order, until it returns `false`.
    /// `timeOfDay` is the occurrences' local time; `moment` gives a day's occurrence as a moment,
    /// for an `UNTIL` in UTC. Days after `lastDay` are not looked at, matching or not.
    package func forEachOccurrenceDay(
        after first: Int, through lastDay: Int = RepeatRule.lastDay, timeOfDay: Int, moment: (Int) -> Double,
        _ body: (Int) -> Bool
    ) {
        var left = count.map { $0 - 1 }
        forEachDay(from: CalendarDay(number: first), dueDay: first, through: lastDay) { day in
            switch until {
            case .day(let last)?: if day > last { return false }
            case .localTime(let last)?: if day * 86_400 + timeOfDay > last { return false }
            case .moment(let last)?: if moment(day) > last { return false }
            case nil: break
            }
            if let remaining = left {
                if remaining <= 0 { return false }
                left = remaining - 1
            }
            return body(day)
        }
    }

    /// The last day of the calendar todo reads: the end of year 9999.
    package static let lastDay = CalendarDay(year: 9999, month: 12, day: 31).number!

    /// Calls `body` with each day of the series after `dueDay`, in order, until it returns `false`
    /// or the days pass `lastDay`.
    private func forEachDay(from due: CalendarDay, dueDay: Int, through lastDay: Int, _ body: (Int) -> Bool) {
        // A rule that never matches (BYMONTHDAY=30;BYMONTH=2) ends with the calendar, or earlier.
        let lastYear = CalendarDay(number: lastDay).year
        var period = 0
        while true {
            let days: [Int]
            switch frequency {
            case .daily:
                let day = dueDay + period * interval
                guard day <= lastDay else { return }
                days = matches(day) ? [day] : []
            case .weekly:
                let weekStartDay =
                    dueDay - (CalendarDay.weekday(ofDayNumber: dueDay) - weekStart + 7) % 7 + 7 * period * interval
                guard weekStartDay <= lastDay else { return }
                let weekdays = byDay.isEmpty ? [CalendarDay.weekday(ofDayNumber: dueDay)] : byDay.map(\.day)
                days = (weekStartDay..<weekStartDay + 7).filter {
                    weekdays.contains(CalendarDay.weekday(ofDayNumber: $0)) && matches($0)
                }
            case .monthly:
                let monthIndex = due.year * 12 + due.month - 1 + period * interval
                guard monthIndex / 12 <= lastYear else { return }
                days = daysOfMonth(year: monthIndex / 12, month: monthIndex % 12 + 1, due: due)
            case .yearly:
                let year = due.year + period * interval
                guard year <= lastYear else { return }
                days = daysOfYear(year, due: due)
            default:
                return
            }
            for day in selected(days) where day > dueDay {
                guard day <= lastDay, body(day) else { return }
            }
            period += 1
        }
    }

    /// Whether a day of a daily or weekly series passes the `BYMONTH`, `BYMONTHDAY` and `BYDAY` limits.
    private func matches(_ dayNumber: Int) -> Bool {
        let day = CalendarDay(number: dayNumber)
        if !byMonth.isEmpty, !byMonth.contains(day.month) { return false }
        if !byMonthDay.isEmpty {
            let length = CalendarDay.length(ofMonth: day.month, year: day.year)
            if !byMonthDay.contains(where: { ($0 > 0 ? $0 : length + 1 + $0) == day.day }) { return false }
        }
        if frequency == .daily, !byDay.isEmpty,
            !byDay.contains(where: { $0.day == CalendarDay.weekday(ofDayNumber: dayNumber) })
        {
            return false
        }
        return true
    }

    /// The days of a month of a monthly series, or of a month a yearly one names.
    private func daysOfMonth(year: Int, month: Int, due: CalendarDay) -> [Int] {
        if !byMonth.isEmpty, !byMonth.contains(month) { return [] }
        guard let first = CalendarDay(year: year, month: month, day: 1).number else { return [] }
        let length = CalendarDay.length(ofMonth: month, year: year)
        let monthDays = byMonthDay.map { $0 > 0 ? $0 : length + 1 + $0 }.filter { (1...length).contains($0) }
        let weekdayDays = days(withWeekdays: byDay, from: first, count: length)
        switch (byMonthDay.isEmpty, byDay.isEmpty) {
        case (true, true): return due.day <= length ? [first + due.day - 1] : []
        case (false, true): return monthDays.map { first + $0 - 1 }
        case (true, false): return weekdayDays
        case (false, false): return weekdayDays.filter { monthDays.contains($0 - first + 1) }
        }
    }

    /// The days of a year of a yearly series: the due's date; or in the months `BYMONTH` names
    /// (every month for a `BYMONTHDAY` without it), the days the other parts name; or the weekdays
    /// `BYDAY` names across the year.
    private func daysOfYear(_ year: Int, due: CalendarDay) -> [Int] {
        if byMonth.isEmpty, byMonthDay.isEmpty, !byDay.isEmpty {
            guard let first = CalendarDay(year: year, month: 1, day: 1).number,
                let next = CalendarDay(year: year + 1, month: 1, day: 1).number
            else { return [] }
            return days(withWeekdays: byDay, from: first, count: next - first)
        }
        let months = !byMonth.isEmpty ? byMonth.sorted() : byMonthDay.isEmpty ? [due.month] : Array(1...12)
        return months.flatMap { daysOfMonth(year: year, month: $0, due: due) }
    }

    /// The days from `first` for `count` days that `weekdays` name: every such day, or the nth
    /// (from the end when negative).
    private func days(withWeekdays weekdays: [Weekday], from first: Int, count: Int) -> [Int] {
        var days: [Int] = []
        for weekday in weekdays {
            let all = (first..<first + count).filter { CalendarDay.weekday(ofDayNumber: $0) == weekday.day }
            if weekday.ordinal == 0 {
                days += all
            } else if let day = all.element(atPosition: weekday.ordinal) {
                days.append(day)
            }
        }
        return days
    }

    /// A period's days in order, once each, those `BYSETPOS` picks.
    private func selected(_ days: [Int]) -> [Int] {
        let sorted = Array(Set(days)).sorted()
        guard !bySetPosition.isEmpty else { return sorted }
        return Array(Set(bySetPosition.compactMap { sorted.element(atPosition: $0) })).sorted()
    }
}

/// Why a repeat rule was not understood.
public struct RepeatRuleError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    /// What is wrong with RRULE text; `nil` for text that is neither a typed form nor RRULE text.
    public let reason: String?

    public var description: String {
        guard let reason else { return "invalid repeat '\(text)': use \(RepeatRule.typedForms)" }
        return "invalid repeat rule '\(text)': \(reason)"
    }
}

extension Array {
    /// The element at a 1-based position, from the end when negative (RFC 5545's `BYSETPOS`).
    fileprivate func element(atPosition position: Int) -> Element? {
        let index = position > 0 ? position - 1 : count + position
        return indices.contains(index) ? self[index] : nil
    }

    /// The one element, else `error`.
    fileprivate func only<Failure: Error>(or error: Failure) throws(Failure) -> Element {
        guard count == 1 else { throw error }
        return self[0]
    }
}
