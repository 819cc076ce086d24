/// A day as a calendar names it, the same date in every time zone: a whole-day due or start
/// (`--due 2026-12-03`, iCalendar's `VALUE=DATE`, todo.txt's `due:2026-12-03`).
public struct Day: Hashable, Comparable, Sendable {
    /// Days since 1 January 1970, as `CalendarDay` counts them.
    public let number: Int

    /// The days an item may have: 1 January of year 1 to 31 December 9999, as `ToDoItem.timestampRange`.
    package static let numberRange =
        CalendarDay(year: 1, month: 1, day: 1).number!...CalendarDay(year: 9999, month: 12, day: 31).number!

    public init?(number: Int) {
        guard Self.numberRange.contains(number) else { return nil }
        self.number = number
    }

    /// The date, `nil` for one that does not exist or lies outside the years 1 to 9999.
    public init?(year: Int, month: Int, day: Int) {
        guard let number = CalendarDay(year: year, month: month, day: day).number else { return nil }
        self.init(number: number)
    }

    /// The day written `2026-12-03` (four-digit year), as the file keeps it. Read in place: a list
    /// reads one for each of thousands of items.
    @inlinable package init?<Bytes: RandomAccessCollection<UInt8>>(iso bytes: Bytes) where Bytes.Index == Int {
        guard let number = Self.parts(ofISO: bytes)?.number else { return nil }
        self.init(number: number)
    }

    /// Whether `bytes` are a day written as `Day(iso:)` reads one, checked without working out
    /// which day: a list checks every item's.
    @inlinable package static func isISO<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool
    where Bytes.Index == Int {
        parts(ofISO: bytes)?.exists == true
    }

    /// The year, month and day written `2026-12-03`, in the years 1 to 9999 (four digits); whether
    /// that date exists is the caller's to tell.
    @inlinable package static func parts<Bytes: RandomAccessCollection<UInt8>>(ofISO bytes: Bytes) -> CalendarDay?
    where Bytes.Index == Int {
        let base = bytes.startIndex
        guard bytes.count == 10, bytes[base + 4] == UInt8(ascii: "-"), bytes[base + 7] == UInt8(ascii: "-") else {
            return nil
        }
        // Inlined: a call for each of the three numbers cost more than reading them.
        @inline(__always)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for offset in range {
                let digit = bytes[base + offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1 else {
            return nil
        }
        return CalendarDay(year: year, month: month, day: day)
    }

    /// The day `timestamp` falls on in `rules`.
    public init(of timestamp: Double, in rules: TimeZoneRules) {
        self.init(of: timestamp, local: CivilTime(rules: rules))
    }

    /// The day `timestamp` falls on in `local`; an instant at the edge of the years todo keeps
    /// may fall on a day outside them in some zone, and such a day is the first or last it keeps
    /// (a day is never written with a year of 0 or 10000).
    package init(of timestamp: Double, local: CivilTime) {
        number = min(max(local.dayNumber(of: timestamp), Self.numberRange.lowerBound), Self.numberRange.upperBound)
    }

    package var calendarDay: CalendarDay { CalendarDay(number: number) }

    /// The day's calendar fields, at midnight.
    package var fields: CivilTime.Fields {
        let day = calendarDay
        return CivilTime.Fields(year: day.year, month: day.month, day: day.day)
    }

    /// `2026-12-03`.
    public var isoText: String { CivilTime.isoDate(fields) }

    /// The day's first moment in `local` (its midnight, or the first moment after a clock set
    /// forward skipped it).
    package func firstMoment(local: CivilTime) -> Double {
        Double(local.firstMoment(ofDay: number))
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.number < rhs.number }
}

/// When an item is due or starts: a whole day, the same date in every zone, or a time, an instant.
public enum ItemDate: Hashable, Sendable {
    case day(Day)
    /// Seconds since 1970.
    case time(Double)

    public var isDay: Bool {
        if case .day = self { true } else { false }
    }

    /// The instant, for a time.
    public var time: Double? {
        if case .time(let time) = self { time } else { nil }
    }

    /// The day's first moment in `rules`, or the time: where the date lies on a clock, to compare,
    /// sort and count days with.
    public func moment(in rules: TimeZoneRules) -> Double {
        moment(local: CivilTime(rules: rules))
    }

    package func moment(local: CivilTime) -> Double {
        switch self {
        case .day(let day): day.firstMoment(local: local)
        case .time(let time): time
        }
    }

    /// The day, or the day the time falls on in `rules`.
    public func day(in rules: TimeZoneRules) -> Day {
        day(local: CivilTime(rules: rules))
    }

    package func day(local: CivilTime) -> Day {
        switch self {
        case .day(let day): day
        case .time(let time): Day(of: time, local: local)
        }
    }

    /// The date `fields` name, in `local` for a time: a day without `hasTime`. `nil` for one that
    /// does not exist or lies outside the years 1 to 9999.
    package init?(_ fields: CivilTime.Fields, hasTime: Bool, local: CivilTime) {
        if !hasTime {
            guard let day = Day(year: fields.year, month: fields.month, day: fields.day) else { return nil }
            self = .day(day)
            return
        }
        guard let time = local.timestamp(of: fields), ToDoItem.timestampRange.contains(time) else { return nil }
        self = .time(time)
    }

    /// The same kind of date moved to where `moment` is in `rules`: a day stays a day.
    package func withMoment(_ moment: Double, local: CivilTime) -> ItemDate {
        isDay ? .day(Day(of: moment, local: local)) : .time(moment)
    }
}
