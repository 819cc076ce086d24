import Foundation

/// Shows due dates as `MM/dd/yy` (or `dd/MM/yy`) in a given time zone, with `HH:mm` added when the
/// date is not a day's first moment.
public struct DueDateFormatter: Sendable {
    public let timeZone: TimeZone
    public let order: DateOrder

    /// The zone's offset when it is known never to change (`forManyDates()`): then no date needs
    /// to ask the zone, which goes through ICU and a lock each time.
    private var fixedOffset: Int?

    public init(timeZone: TimeZone, order: DateOrder = .monthFirst) {
        self.timeZone = timeZone
        self.order = order
    }

    /// The same formatter, for formatting many dates: when the zone's offset never changes (UTC,
    /// or a zone given as an offset), it is found once here instead of for every date. Finding
    /// whether it changes costs a look at the zone's transitions, which one date is not worth.
    public func forManyDates() -> DueDateFormatter {
        var formatter = self
        if timeZone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Self.gregorianStart)) == nil {
            formatter.fixedOffset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))
        }
        return formatter
    }

    /// `01/10/22`, or `01/10/22 14:30` when the date has a time of day.
    public func string(from timestamp: Double) -> String {
        // Fits in a String without an allocation.
        String(unsafeUninitializedCapacity: Self.longestText) { text in write(timestamp, to: text.baseAddress!) }
    }

    /// Calls `body` with the bytes of `string(from: timestamp)`, without making a `String`: a list
    /// shows thousands of dates.
    public func withText(of timestamp: Double, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestText) { text in
            body(UnsafeBufferPointer(start: text.baseAddress!, count: write(timestamp, to: text.baseAddress!)))
        }
    }

    private static let longestText = 14

    /// Writes the text of `timestamp` digit by digit at `text`, and returns its length.
    private func write(_ timestamp: Double, to text: UnsafeMutablePointer<UInt8>) -> Int {
        let parts = components(of: timestamp)
        let first = order == .monthFirst ? parts.month : parts.day
        let second = order == .monthFirst ? parts.day : parts.month
        func put(_ value: Int, at offset: Int) {
            text[offset] = UInt8(ascii: "0") + UInt8(value / 10 % 10)
            text[offset + 1] = UInt8(ascii: "0") + UInt8(value % 10)
        }
        put(first, at: 0)
        text[2] = UInt8(ascii: "/")
        put(second, at: 3)
        text[5] = UInt8(ascii: "/")
        put((parts.year % 100 + 100) % 100, at: 6)
        guard parts.hour != 0 || parts.minute != 0 else { return 8 }
        text[8] = UInt8(ascii: " ")
        put(parts.hour, at: 9)
        text[11] = UInt8(ascii: ":")
        put(parts.minute, at: 12)
        return 14
    }

    /// The English weekday name of the date, as "Monday".
    public func weekdayName(of timestamp: Double) -> String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][components(of: timestamp).weekday - 1]
    }

    /// Days from the day of `now` to the day of `timestamp`: 0 today, negative when past.
    public func daysFrom(_ now: Date, to timestamp: Double) -> Int {
        localDay(of: timestamp) - localDay(of: now.timeIntervalSince1970)
    }

    private var calendar: Calendar { .gregorian(in: timeZone) }

    /// The first moment of the Gregorian calendar (15 October 1582); Foundation's calendar is
    /// Julian before it, and dates there are left to it.
    private static let gregorianStart = -12_219_292_800.0

    /// The local date and time of `timestamp`. Computed directly (a list shows thousands of dates);
    /// only dates before the Gregorian calendar go through `Calendar`.
    private func components(of timestamp: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, weekday: Int) {
        guard timestamp >= Self.gregorianStart else {
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday],
                                                from: Date(timeIntervalSince1970: timestamp))
            return (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.weekday ?? 1)
        }
        let local = localSeconds(timestamp)
        let days = Self.floorDivide(local, 86_400)
        let seconds = local - days * 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        // 1 January 1970 was a Thursday, weekday 5 counting Sunday as 1.
        let weekday = (days % 7 + 7 + 4) % 7 + 1
        return (year, month, day, seconds / 3600, seconds % 3600 / 60, weekday)
    }

    /// The number of the local day of `timestamp`, counting from 1 January 1970.
    private func localDay(of timestamp: Double) -> Int {
        guard timestamp >= Self.gregorianStart else {
            let start = calendar.startOfDay(for: Date(timeIntervalSince1970: timestamp))
            return Self.floorDivide(localSeconds(start.timeIntervalSince1970), 86_400)
        }
        return Self.floorDivide(localSeconds(timestamp), 86_400)
    }

    /// `timestamp` as whole seconds of local time: UTC seconds plus the zone's offset then.
    private func localSeconds(_ timestamp: Double) -> Int {
        Int(timestamp.rounded(.down)) + (fixedOffset ?? timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: timestamp)))
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// The proleptic Gregorian year, month and day of a day number (Howard Hinnant's algorithm).
    private static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
