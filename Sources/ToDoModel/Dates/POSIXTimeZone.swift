/// A time zone written as POSIX `TZ` rules: `std offset [dst [offset] [,start[/time],end[/time]]]`,
/// as `EST5EDT,M3.2.0,M11.1.0`, `JST-9`, `<+03>-3` or `UTC+3`. Offsets count hours *west* of UTC, as
/// POSIX (and `date`) read them: `UTC+3` is three hours behind UTC. Rules are `Mm.w.d` (day d of
/// week w of month m, week 5 the last), `Jn` (day n of 1 to 365, never counting 29 February) and
/// `n` (day n of 0 to 365); a change happens at 02:00 local time unless a time is given.
public struct POSIXTimeZone: Equatable, Sendable {
    /// Standard time's name (as `EST`) and its offset east of UTC, in seconds.
    public let standard: (name: String, offset: Int)
    /// Daylight time's name, offset and when it starts and ends, if the zone has one.
    public let daylight: Daylight?

    public struct Daylight: Equatable, Sendable {
        public let name: String
        /// Seconds east of UTC.
        public let offset: Int
        public let start: Rule
        public let end: Rule
    }

    /// A day of the year and a local time on it.
    public struct Rule: Equatable, Sendable {
        public enum Day: Equatable, Sendable {
            /// `Jn`: 1 to 365, 29 February never counted.
            case julian(Int)
            /// `n`: 0 to 365, 29 February counted.
            case zeroBased(Int)
            /// `Mm.w.d`: month, week (1 to 5, 5 the last) and weekday (0 Sunday to 6).
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        public let day: Day
        /// Seconds after local midnight (may be negative or past a day, as glibc allows).
        public let time: Int
    }

    public static func == (lhs: POSIXTimeZone, rhs: POSIXTimeZone) -> Bool {
        lhs.standard == rhs.standard && lhs.daylight == rhs.daylight
    }

    /// Reads a `TZ` value; `nil` when it is not in the POSIX form.
    public init?(_ text: String) {
        var reader = Reader(Array(text.utf8))
        guard let standardName = reader.name(), let standardWest = reader.offset(hoursUpTo: 24) else { return nil }
        standard = (standardName, -standardWest)
        guard !reader.isAtEnd else {
            daylight = nil
            return
        }
        guard let daylightName = reader.name() else { return nil }
        var daylightOffset = standard.offset + 3600
        if let west = reader.offset(hoursUpTo: 24) { daylightOffset = -west }
        var start = Self.defaultStart, end = Self.defaultEnd
        if !reader.isAtEnd {
            guard reader.take(","), let first = reader.rule(), reader.take(","), let second = reader.rule(),
                reader.isAtEnd
            else { return nil }
            (start, end) = (first, second)
        }
        daylight = Daylight(name: daylightName, offset: daylightOffset, start: start, end: end)
    }

    /// glibc's rules for a daylight name without any (its `posixrules`, America/New_York's since 2007).
    package static let defaultStart = Rule(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    package static let defaultEnd = Rule(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)

    /// Seconds east of UTC at `timestamp`, and whether daylight time is in effect then.
    public func offset(at timestamp: Int) -> (seconds: Int, isDaylight: Bool) {
        guard let daylight else { return (standard.offset, false) }
        // The year of the moment in UTC, whose changes are compared with it, as glibc does.
        let year = CalendarDay(number: CalendarDay.floorDivide(timestamp, 86_400)).year
        // Start is given in standard time, end in daylight time.
        let start = Self.dayNumber(of: daylight.start.day, in: year) * 86_400 + daylight.start.time - standard.offset
        let end = Self.dayNumber(of: daylight.end.day, in: year) * 86_400 + daylight.end.time - daylight.offset
        let inDaylight =
            start < end ? (start <= timestamp && timestamp < end) : !(end <= timestamp && timestamp < start)
        return inDaylight ? (daylight.offset, true) : (standard.offset, false)
    }

    /// The number of the day a rule names in `year` (proleptic Gregorian, as POSIX counts).
    package static func dayNumber(of day: Rule.Day, in year: Int) -> Int {
        let isLeap = CalendarDay.isLeap(year, gregorian: true)
        let january1 = CalendarDay.dayNumber(year: year, month: 1, day: 1, gregorian: true)
        switch day {
        case .julian(let n):
            return january1 + n - 1 + (isLeap && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CalendarDay.dayNumber(year: year, month: month, day: 1, gregorian: true)
            let firstWeekday = CalendarDay.weekday(ofDayNumber: first) - 1
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = CalendarDay.length(ofMonth: month, year: year, gregorian: true)
            while dayOfMonth > length { dayOfMonth -= 7 }
            return first + dayOfMonth - 1
        }
    }

    /// Reads the parts of a `TZ` value from its bytes.
    private struct Reader {
        package let bytes: [UInt8]
        package var index = 0

        package init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        package var isAtEnd: Bool { index == bytes.count }

        package mutating func take(_ character: Character) -> Bool {
            guard !isAtEnd, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }

        /// Three or more letters, or `<…>` of letters, digits, `+` and `-`.
        package mutating func name() -> String? {
            if take("<") {
                let start = index
                while !isAtEnd, bytes[index] != UInt8(ascii: ">") {
                    let byte = bytes[index]
                    guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    else { return nil }
                    index += 1
                }
                let name = String(decoding: bytes[start..<index], as: UTF8.self)
                guard take(">"), name.utf8.count >= 3 else { return nil }
                return name
            }
            let start = index
            while !isAtEnd, isLetter(bytes[index]) { index += 1 }
            guard index - start >= 3 else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// `[+|-]hh[:mm[:ss]]` in seconds, hours up to `hoursUpTo`; `nil` (reading nothing) when absent.
        package mutating func offset(hoursUpTo limit: Int) -> Int? {
            let start = index
            var sign = 1
            if take("-") { sign = -1 } else { _ = take("+") }
            guard let hours = number(maximumDigits: 3), hours <= limit else {
                index = start
                return nil
            }
            var seconds = hours * 3600
            for unit in [60, 1] {
                let before = index
                guard take(":") else { break }
                guard let value = number(maximumDigits: 2), value < 60 else {
                    index = before
                    return nil
                }
                seconds += value * unit
            }
            return sign * seconds
        }

        package mutating func rule() -> Rule? {
            let day: Rule.Day
            if take("J") {
                guard let n = number(maximumDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if take("M") {
                guard let month = number(maximumDigits: 2), (1...12).contains(month), take("."),
                    let week = number(maximumDigits: 1), (1...5).contains(week), take("."),
                    let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let n = number(maximumDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if take("/") {
                guard let seconds = offset(hoursUpTo: 167) else { return nil }
                time = seconds
            }
            return Rule(day: day, time: time)
        }

        private mutating func number(maximumDigits: Int) -> Int? {
            let start = index
            var value = 0
            while !isAtEnd, isDigit(bytes[index]), index - start < maximumDigits {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        private func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
