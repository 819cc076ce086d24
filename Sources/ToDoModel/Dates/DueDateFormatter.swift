#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Shows due dates as `MM/dd/yy` (or `dd/MM/yy`): a whole day as its date, the same in every zone;
/// a time in a given time zone, with `HH:mm` added. A year outside 2000–2099 is written whole (`01/10/1922`), so
/// that the echo meant to catch a misreading never shows another date.
public struct DueDateFormatter: Sendable {
    public let rules: TimeZoneRules
    public let order: DateOrder
    private var local: CivilTime

    public init(rules: TimeZoneRules, order: DateOrder = .monthFirst) {
        self.rules = rules
        self.order = order
        local = CivilTime(rules: rules)
    }

    /// `01/10/22`, or `01/10/22 14:30` for a time: `allDay` false, or `nil` and the moment is not
    /// a local midnight (`00:00` is shown only for a time said to be one).
    public func string(from timestamp: Double, allDay: Bool? = nil) -> String {
        let parts = local.fields(of: timestamp)
        return string(parts, showsTime: allDay == false || (allDay == nil && (parts.hour != 0 || parts.minute != 0)))
    }

    /// Whether `date` is a time at a local midnight: the start of its day (`tomorrow midnight`),
    /// which an echo says in words, since people mean the end of a day as often.
    public func isMidnight(_ date: ItemDate) -> Bool {
        guard case .time(let moment) = date else { return false }
        return local.fields(of: moment).isMidnight
    }

    /// `01/10/22` for a day, `01/10/22 14:30` for a time (`00:00` too).
    public func string(from date: ItemDate) -> String {
        let (parts, isTime) = fields(of: date)
        return string(parts, showsTime: isTime)
    }

    private func string(_ parts: CivilTime.Fields, showsTime: Bool) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(Self.longestText)
        write(parts, showsTime: showsTime, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The item's due as `string(from:)` shows it, `nil` for none.
    public func dueText(of item: ToDoItem) -> String? {
        item.due.map(string(from:))
    }

    /// Appends the bytes of `string(from: date)` to `text`, without making a `String`: a list
    /// shows thousands of dates.
    package func appendText(of date: ItemDate, to text: inout [UInt8]) {
        let (parts, isTime) = fields(of: date)
        write(parts, showsTime: isTime, to: &text)
    }

    /// The date's calendar fields (a time's in the zone), and whether it is a time.
    private func fields(of date: ItemDate) -> (CivilTime.Fields, isTime: Bool) {
        switch date {
        case .day(let day): return (day.fields, false)
        case .time(let time): return (local.fields(of: time), true)
        }
    }

    /// The longest text: `01/10/1922 14:30`. The list keeps this many bytes per row.
    public static let longestText = 16

    /// Appends the text of `parts` to `text`, digit by digit.
    private func write(_ parts: CivilTime.Fields, showsTime: Bool, to text: inout [UInt8]) {
        let first = order == .monthFirst ? parts.month : parts.day
        let second = order == .monthFirst ? parts.day : parts.month
        func put(_ value: Int) {
            text.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
            text.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        put(first)
        text.append(UInt8(ascii: "/"))
        put(second)
        text.append(UInt8(ascii: "/"))
        // Written whole outside 2000–2099, never modulo 10,000 (a time at the very end of year
        // 9999 in UTC is in 10000 east of it).
        if parts.year >= 10_000 {
            text += Array(String(parts.year / 100).utf8)
        } else if !(2000...2099).contains(parts.year) {
            put(parts.year / 100)
        }
        put(parts.year % 100)
        guard showsTime else { return }
        text.append(UInt8(ascii: " "))
        put(parts.hour)
        text.append(UInt8(ascii: ":"))
        put(parts.minute)
    }

    /// The English weekday name of the date, as "Monday".
    public func weekdayName(of timestamp: Double) -> String {
        Self.weekdayName(ofDayNumber: local.dayNumber(of: timestamp))
    }

    /// The English weekday name of the day, or of the time's day in the zone.
    public func weekdayName(of date: ItemDate) -> String {
        switch date {
        case .day(let day): Self.weekdayName(ofDayNumber: day.number)
        // The day the time falls on here, even past the last day todo keeps.
        case .time(let time): weekdayName(of: time)
        }
    }

    private static func weekdayName(ofDayNumber number: Int) -> String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][
            CalendarDay.weekday(ofDayNumber: number) - 1]
    }

    /// Days from the day of `now` to the day of `timestamp`: 0 today, negative when past.
    public func daysFrom(_ now: Date, to timestamp: Double) -> Int {
        local.dayNumber(of: timestamp) - local.dayNumber(of: now.timeIntervalSince1970)
    }

    /// Days from the day of `now` to the date's day: 0 today, negative when past.
    public func daysFrom(_ now: Date, to date: ItemDate) -> Int {
        date.day(local: local).number - dayNumber(of: now)
    }

    /// Where the date lies on the clock: a day's first moment in the zone, or the time.
    public func moment(of date: ItemDate) -> Double {
        date.moment(local: local)
    }

    /// Whether a due is past at `now`: a time once it has passed (a 01:00 due is overdue at 05:35
    /// the same day), a whole day once the day is over.
    public func isOverdue(_ due: ItemDate, now: Date) -> Bool {
        switch due {
        case .time(let time): time < now.timeIntervalSince1970
        case .day: daysFrom(now, to: due) < 0
        }
    }

    /// Where a due sorts among others: a time at its moment; a whole day, which means "by the end
    /// of the day", after every time of that day (at the next day's first moment, and before a
    /// time at that moment).
    public func sortKey(of due: ItemDate) -> DueSortKey {
        switch due {
        case .time(let time): DueSortKey(moment: time, isDay: false)
        case .day(let day): DueSortKey(moment: Double(local.firstMoment(ofDay: day.number + 1)), isDay: true)
        }
    }

    /// What an agenda needs of a due, worked out once: where it sorts (`sortKey(of:)`), how many
    /// days from the day of `now` (`daysFrom`) and whether it is overdue (`isOverdue`). `today` is
    /// the number of the day of `now` (`dayNumber(of:)`), the same for every due of one agenda.
    public func placement(of due: ItemDate, now: Date, today: Int) -> (key: DueSortKey, daysAhead: Int, isOverdue: Bool)
    {
        let ahead = due.day(local: local).number - today
        let isOverdue =
            switch due {
            case .time(let time): time < now.timeIntervalSince1970
            case .day: ahead < 0
            }
        return (sortKey(of: due), ahead, isOverdue)
    }

    /// The number of the local day of `now`, counting from 1 January 1970.
    public func dayNumber(of now: Date) -> Int {
        local.dayNumber(of: now.timeIntervalSince1970)
    }
}

/// The order of dues (`DueDateFormatter.sortKey(of:)`).
public struct DueSortKey: Comparable, Sendable {
    let moment: Double
    let isDay: Bool

    public static func < (lhs: DueSortKey, rhs: DueSortKey) -> Bool {
        (lhs.moment, lhs.isDay ? 0 : 1) < (rhs.moment, rhs.isDay ? 0 : 1)
    }

    /// The key as two unsigned words that order as the key does, the first word first, for
    /// sorting thousands as plain integers: the moment's bits made to order as unsigned
    /// (negatives reversed, below the positives), then 0 for a day (which comes first), 1 for a time.
    public var words: (moment: UInt64, kind: UInt64) {
        // -0 is 0.
        let bits = (moment + 0).bitPattern
        return (bits >> 63 == 1 ? ~bits : bits | 1 << 63, isDay ? 0 : 1)
    }
}
