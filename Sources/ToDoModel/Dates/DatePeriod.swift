/// A stretch of calendar time, as people postpone by: days, weeks, months or years (`2d`, `1w`,
/// `3m`, `1y`; `+2d`, `2days`, `1mo` alike). A month or year later keeps the day of the month, or
/// the month's last day when it has fewer; a time keeps its clock time where the zone allows.
public struct DatePeriod: Equatable, Sendable {
    public enum Unit: Equatable, Sendable { case day, week, month, year }

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
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let count = Int(digits), (1...Self.largestCount).contains(count)
        else { return nil }
        let units: [Substring: Unit] = [
            "d": .day, "day": .day, "days": .day, "w": .week, "wk": .week, "week": .week, "weeks": .week,
            "m": .month, "mo": .month, "month": .month, "months": .month,
            "y": .year, "yr": .year, "year": .year, "years": .year
        ]
        guard let unit = units[body.dropFirst(digits.count)] else { return nil }
        self.init(count: count, unit: unit)
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
        case .month, .year:
            let day = CalendarDay(number: dayNumber)
            let months = day.month - 1 + (unit == .month ? count : 12 * count)
            let year = day.year + months / 12, month = months % 12 + 1
            guard year <= 9999 else { return nil }
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
        case .year: name = "year"
        }
        return "\(count) \(name)\(count == 1 ? "" : "s")"
    }
}
