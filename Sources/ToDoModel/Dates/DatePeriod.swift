/// A stretch of calendar time, as people postpone by: days, weeks, months, quarters or years
/// (`2d`, `1w`, `3m`, `1q`, `1y`; `+2d`, `2days`, `1mo`, `2wks` alike, the names Taskwarrior reads).
/// A month or year later keeps the day of the month, or the month's last day when it has fewer;
/// a time keeps its clock time where the zone allows. (Taskwarrior's month is 30 days and its
/// year 365: todo's are the calendar's, so that the 15th stays the 15th.)
public struct DatePeriod: Equatable, Sendable {
    public enum Unit: Equatable, Sendable { case day, week, month, quarter, year }

    public let count: Int
    public let unit: Unit

    /// The longest period read: 100,000 units, as the due-date parser's `+Nd`.
    static let largestCount = 100_000

    public init(count: Int, unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// `2d`, `+1w`, `3m`, `1mo`, `1y`, `2days`, `1week`…; `nil` for anything else (a count of 0 too).
    public init?(_ text: String) {
        var body = Substring(text.lowercased())
        if body.first == "+" { body = body.dropFirst() }
        guard let (count, unitName) = Self.countAndUnit(body), count >= 1, let unit = Self.units[unitName] else {
            return nil
        }
        self.init(count: count, unit: unit)
    }

    /// The names of the units, as Taskwarrior spells them.
    package static let units: [Substring: Unit] = [
        "d": .day, "day": .day, "days": .day, "w": .week, "wk": .week, "wks": .week, "week": .week, "weeks": .week,
        "m": .month, "mo": .month, "mos": .month, "month": .month, "months": .month,
        "q": .quarter, "qtr": .quarter, "qtrs": .quarter, "quarter": .quarter, "quarters": .quarter,
        "y": .year, "yr": .year, "yrs": .year, "year": .year, "years": .year
    ]

    /// `3wk` as 3 and `wk`: a count of up to `largestCount` and the letters after it (not checked).
    package static func countAndUnit(_ text: Substring) -> (count: Int, unit: Substring)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let count = Int(digits), count <= largestCount else { return nil }
        return (count, text.dropFirst(digits.count))
    }

    /// `date` moved this far later: a day by days, a time by local days at the same clock time
    /// (the next moment that exists, when a clock change skips it); `nil` past the year 9999.
    public func moving(_ date: ItemDate, rules: TimeZoneRules) -> ItemDate? {
        switch date {
        case .day(let day):
            return moved(dayNumber: day.number).flatMap(Day.init(number:)).map(ItemDate.day)
        case .time(let moment):
            let local = CivilTime(rules: rules)
            let seconds = local.localSeconds(moment)
            let dayNumber = CalendarDay.floorDivide(seconds, 86_400)
            guard let movedDay = moved(dayNumber: dayNumber) else { return nil }
            let result = Double(local.moment(readingSkipped: seconds + (movedDay - dayNumber) * 86_400))
            guard ToDoItem.timestampRange.contains(result) else { return nil }
            return .time(result)
        }
    }

    /// The number of the day this far after the day numbered `dayNumber`; `nil` past the year 9999.
    package func moved(dayNumber: Int) -> Int? {
        switch unit {
        case .day: return dayNumber + count
        case .week: return dayNumber + 7 * count
        case .month, .quarter, .year:
            let day = CalendarDay(number: dayNumber)
            let months = 12 * day.year + day.month - 1 + count * (unit == .month ? 1 : unit == .quarter ? 3 : 12)
            // Counted from the year 0, so that a period back (`-1m`) divides as one forward does.
            let year = CalendarDay.floorDivide(months, 12), month = months - 12 * year + 1
            guard (1...9999).contains(year) else { return nil }
            return CalendarDay(
                year: year, month: month, day: min(day.day, CalendarDay.length(ofMonth: month, year: year))
            ).number
        }
    }

    /// `2 days`, `1 week`, as an echo says it.
    public var text: String {
        let name: String
        switch unit {
        case .day: name = "day"
        case .week: name = "week"
        case .month: name = "month"
        case .quarter: name = "quarter"
        case .year: name = "year"
        }
        return "\(count) \(name)\(count == 1 ? "" : "s")"
    }
}
