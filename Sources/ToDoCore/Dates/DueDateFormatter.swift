import Foundation

/// Shows due dates as `MM/dd/yy` (or `dd/MM/yy`) in a given time zone, with `HH:mm` added for a
/// time (`ToDoItem.dueIsAllDay` false, or unsaid and not a day's first moment). A year outside 2000–2099 is written whole (`01/10/1922`), so
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

    public init(timeZone: TimeZone, order: DateOrder = .monthFirst) {
        self.init(rules: TimeZoneRules(timeZone), order: order)
    }

    /// The same formatter, for formatting many dates: when the zone's offset never changes (UTC,
    /// or a zone given as an offset), it is found once here instead of for every date.
    public func forManyDates() -> DueDateFormatter {
        var formatter = self
        formatter.local = CivilTime(rules: rules, forManyMoments: true)
        return formatter
    }

    /// `01/10/22`, or `01/10/22 14:30` for a time: `allDay` false, or `nil` and the moment is not
    /// a local midnight (`00:00` is shown only for a time said to be one).
    public func string(from timestamp: Double, allDay: Bool? = nil) -> String {
        // Fits in a String without an allocation.
        String(unsafeUninitializedCapacity: Self.longestText) { text in write(timestamp, allDay: allDay, to: text.baseAddress!) }
    }

    /// The item's due as `string(from:allDay:)` shows it, `nil` for none.
    public func dueText(of item: ToDoItem) -> String? {
        item.timestamp.map { string(from: $0, allDay: item.dueIsAllDay) }
    }

    /// Calls `body` with the bytes of `string(from: timestamp, allDay:)`, without making a
    /// `String`: a list shows thousands of dates.
    package func withText(of timestamp: Double, allDay: Bool?, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestText) { text in
            body(UnsafeBufferPointer(start: text.baseAddress!, count: write(timestamp, allDay: allDay, to: text.baseAddress!)))
        }
    }

    /// The longest text: `01/10/1922 14:30`. The list keeps this many bytes per row.
    public static let longestText = 16

    /// Writes the text of `timestamp` digit by digit at `text`, and returns its length.
    private func write(_ timestamp: Double, allDay: Bool?, to text: UnsafeMutablePointer<UInt8>) -> Int {
        let parts = local.fields(of: timestamp)
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
        var length = 8
        if (2000...2099).contains(parts.year) {
            put(parts.year % 100, at: 6)
        } else {
            put(parts.year / 100, at: 6)
            put(parts.year % 100, at: 8)
            length = 10
        }
        guard allDay == false || (allDay == nil && (parts.hour != 0 || parts.minute != 0)) else { return length }
        text[length] = UInt8(ascii: " ")
        put(parts.hour, at: length + 1)
        text[length + 3] = UInt8(ascii: ":")
        put(parts.minute, at: length + 4)
        return length + 6
    }

    /// The English weekday name of the date, as "Monday".
    public func weekdayName(of timestamp: Double) -> String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][
            CalendarDay.weekday(ofDayNumber: local.dayNumber(of: timestamp)) - 1]
    }

    /// The first moment of the local day `timestamp` falls on.
    public func startOfDay(of timestamp: Double) -> Double {
        Double(local.firstMoment(ofDay: local.dayNumber(of: timestamp)))
    }

    /// The local day `timestamp` falls on, as `2026-11-23`.
    public func isoDay(of timestamp: Double) -> String {
        let day = CalendarDay(number: local.dayNumber(of: timestamp))
        let year = String(day.year), month = day.month < 10 ? "0\(day.month)" : "\(day.month)", date = day.day < 10 ? "0\(day.day)" : "\(day.day)"
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(month)-\(date)"
    }

    /// Days from the day of `now` to the day of `timestamp`: 0 today, negative when past.
    public func daysFrom(_ now: Date, to timestamp: Double) -> Int {
        local.dayNumber(of: timestamp) - local.dayNumber(of: now.timeIntervalSince1970)
    }
}
