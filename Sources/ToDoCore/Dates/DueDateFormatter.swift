import Foundation

/// Shows due dates as `MM/dd/yy` (or `dd/MM/yy`) in a given time zone, with `HH:mm` added when the
/// date is not a day's first moment.
public struct DueDateFormatter: Sendable {
    public let timeZone: TimeZone
    public let order: DateOrder

    public init(timeZone: TimeZone, order: DateOrder = .monthFirst) {
        self.timeZone = timeZone
        self.order = order
    }

    /// `01/10/22`, or `01/10/22 14:30` when the date has a time of day.
    public func string(from timestamp: Double) -> String {
        let parts = components(of: timestamp)
        let first = order == .monthFirst ? parts.month : parts.day
        let second = order == .monthFirst ? parts.day : parts.month
        var text = "\(Self.twoDigits(first))/\(Self.twoDigits(second))/\(Self.twoDigits(parts.year % 100))"
        if parts.hour != 0 || parts.minute != 0 {
            text += " \(Self.twoDigits(parts.hour)):\(Self.twoDigits(parts.minute))"
        }
        return text
    }

    /// The English weekday name of the date, as "Monday".
    public func weekdayName(of timestamp: Double) -> String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][components(of: timestamp).weekday - 1]
    }

    /// Days from the day of `now` to the day of `timestamp`: 0 today, negative when past.
    public func daysFrom(_ now: Date, to timestamp: Double) -> Int {
        let calendar = self.calendar
        let start = calendar.startOfDay(for: now)
        let target = calendar.startOfDay(for: Date(timeIntervalSince1970: timestamp))
        return calendar.dateComponents([.day], from: start, to: target).day ?? 0
    }

    private var calendar: Calendar { .gregorian(in: timeZone) }

    private func components(of timestamp: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, weekday: Int) {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday],
                                            from: Date(timeIntervalSince1970: timestamp))
        return (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.weekday ?? 1)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
