/// Days as the calendar names them, counted from 1 January 1970: the Gregorian calendar from 15
/// October 1582 and the Julian before it, as Foundation's Gregorian calendar has them (so that
/// dates before the reform mean what they always meant here); 5 to 14 October 1582 do not exist.
/// Computed directly rather than through `Calendar`, which cannot take the rules of a POSIX `TZ`.
@usableFromInline package struct CalendarDay: Equatable {
    package var year: Int
    package var month: Int
    package var day: Int

    /// The day number of 15 October 1582, the first Gregorian day.
    package static let gregorianStart = -141_427

    /// The day's number, counting from 1 January 1970; `nil` for a date that does not exist (30
    /// February, 5 October 1582).
    @usableFromInline package var number: Int? {
        guard exists else { return nil }
        return Self.dayNumber(year: year, month: month, day: day, gregorian: (year, month, day) >= (1582, 10, 15))
    }

    /// Whether the date exists: a month's day, and not one the Gregorian reform skipped (5 to 14
    /// October 1582). Told without working out its number.
    @usableFromInline package var exists: Bool {
        (1...12).contains(month) && (1...Self.length(ofMonth: month, year: year)).contains(day)
            && ((year, month, day) >= (1582, 10, 15) || (year, month, day) <= (1582, 10, 4))
    }

    /// The number of a day of the proleptic Gregorian calendar (`gregorian`), as POSIX time-zone
    /// rules count every year, or of the Julian; unchecked. From the Julian day number (Fliegel and
    /// Van Flandern).
    package static func dayNumber(year: Int, month: Int, day: Int, gregorian: Bool) -> Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        let common = day + (153 * m + 2) / 5 + 365 * y + floorDivide(y, 4)
        let julianDay = gregorian ? common - floorDivide(y, 100) + floorDivide(y, 400) - 32_045 : common - 32_083
        return julianDay - 2_440_588
    }

    /// The day numbered `number`, counting from 1 January 1970.
    package init(number: Int) {
        if number >= Self.gregorianStart {
            // Howard Hinnant's civil_from_days.
            let z = number + 719_468
            let era = Self.floorDivide(z, 146_097)
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
            month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        } else {
            let c = number + 2_440_588 + 32_082
            let d = Self.floorDivide(4 * c + 3, 1461)
            let e = c - Self.floorDivide(1461 * d, 4)
            let m = (5 * e + 2) / 153
            day = e - (153 * m + 2) / 5 + 1
            month = m + 3 - 12 * (m / 10)
            year = d - 4800 + m / 10
        }
    }

    @usableFromInline package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// 1 for Sunday to 7 for Saturday, as `Calendar` counts them.
    package static func weekday(ofDayNumber number: Int) -> Int {
        // 1 January 1970 was a Thursday.
        (number % 7 + 7 + 4) % 7 + 1
    }

    /// Days in `month` of `year`, in the calendar of that year (Julian before 1583), or in the
    /// proleptic Gregorian with `gregorian`.
    package static func length(ofMonth month: Int, year: Int, gregorian: Bool? = nil) -> Int {
        switch month {
        case 2: return isLeap(year, gregorian: gregorian ?? (year >= 1583)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Every fourth year is a leap year in the Julian calendar; the Gregorian skips three in 400.
    package static func isLeap(_ year: Int, gregorian: Bool) -> Bool {
        year % 4 == 0 && (!gregorian || year % 100 != 0 || year % 400 == 0)
    }

    package static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
