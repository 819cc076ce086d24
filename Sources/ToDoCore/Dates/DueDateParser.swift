import Foundation

/// Why a due date was not understood: the text, and the forms that are accepted.
public struct DueDateError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let order: DateOrder

    public init(text: String, order: DateOrder) {
        self.text = text
        self.order = order
    }

    public var description: String { "invalid date '\(text)'" }

    /// The accepted forms, for the line after the error.
    public var acceptedForms: String { DueDateParser.acceptedForms(order) }
}

/// Reads due dates as users type them, in a given time zone relative to a given now: numeric dates
/// (`01/10/22`, `01/10/2022`, `2022-01-10`), each with an optional `HH:mm`, and the words `today`,
/// `tomorrow`, weekday names (the next such day after today) and `+Nd` / `+Nw`. A date without a
/// time means that calendar day and is stored as its local midnight. Nothing else is guessed.
public struct DueDateParser: Sendable {
    public let now: Date
    public let timeZone: TimeZone
    public let order: DateOrder

    public init(now: Date, timeZone: TimeZone, order: DateOrder = .monthFirst) {
        self.now = now
        self.timeZone = timeZone
        self.order = order
    }

    /// The accepted forms, one line, for help and error messages.
    public static func acceptedForms(_ order: DateOrder) -> String {
        let numeric = order == .monthFirst ? "MM/dd/yy, MM/dd/yyyy" : "dd/MM/yy, dd/MM/yyyy"
        return "\(numeric), yyyy-MM-dd (each with an optional HH:mm), today, tomorrow,"
            + " a weekday name (the next one), +Nd, +Nw"
    }

    /// The due date `text` names, in seconds since 1970.
    public func parse(_ text: String) throws(DueDateError) -> Double {
        try span(text).lowerBound
    }

    /// The span of time `text` names, in seconds since 1970: a whole local day for a date without
    /// a time (from its midnight to the next), else the minute it names. Filters compare with it:
    /// "due before 01/10/22" is before that day begins, "due after" it is once it has ended.
    public func span(_ text: String) throws(DueDateError) -> Range<Double> {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard (1...2).contains(words.count) else { throw error(text) }
        var time: (hour: Int, minute: Int)?
        if words.count == 2 {
            guard let parsedTime = Self.parseTime(words[1]) else { throw error(text) }
            time = parsedTime
        }
        // ISO 8601's "2022-01-10T14:30" is one word.
        var dateWord = words[0]
        if time == nil, let separator = dateWord.firstIndex(of: "t"), dateWord.first?.isNumber == true {
            guard let parsedTime = Self.parseTime(String(dateWord[dateWord.index(after: separator)...])) else {
                throw error(text)
            }
            time = parsedTime
            dateWord = String(dateWord[..<separator])
        }
        guard let day = calendarDay(for: dateWord), let date = date(on: day, at: time) else { throw error(text) }
        let start = date.timeIntervalSince1970
        guard time == nil else { return start..<start + 60 }
        let end = calendar.date(byAdding: .day, value: 1, to: date)?.timeIntervalSince1970 ?? start + 86_400
        return start..<end
    }

    // MARK: Days

    private struct Day {
        var year: Int
        var month: Int
        var day: Int
    }

    private var calendar: Calendar { .gregorian(in: timeZone) }

    private func calendarDay(for word: String) -> Day? {
        if let day = numericDay(word) { return day }
        if let offset = relativeDays(word) { return today(plus: offset) }
        return nil
    }

    /// `MM/dd/yy`, `MM/dd/yyyy` (or day first) and `yyyy-MM-dd`, checked against the calendar.
    private func numericDay(_ word: String) -> Day? {
        let day: Day
        if word.contains("/") {
            let parts = word.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 2 || parts[2].count == 4,
                  let first = Self.digits(parts[0]), let second = Self.digits(parts[1]), var year = Self.digits(parts[2])
            else { return nil }
            // Two-digit years are this century's: 22 is 2022.
            if parts[2].count == 2 { year += 2000 }
            day = order == .monthFirst ? Day(year: year, month: first, day: second) : Day(year: year, month: second, day: first)
        } else if word.contains("-") {
            let parts = word.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2,
                  let year = Self.digits(parts[0]), let month = Self.digits(parts[1]), let dayOfMonth = Self.digits(parts[2])
            else { return nil }
            day = Day(year: year, month: month, day: dayOfMonth)
        } else {
            return nil
        }
        guard day.year >= 1, (1...12).contains(day.month), (1...Self.daysIn(month: day.month, year: day.year)).contains(day.day)
        else { return nil }
        return day
    }

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// How many days from today `word` means: `today`, `tomorrow`, a weekday, `+Nd`, `+Nw`.
    private func relativeDays(_ word: String) -> Int? {
        switch word {
        case "today": return 0
        case "tomorrow": return 1
        default: break
        }
        if let weekday = Self.weekdays.firstIndex(where: { $0 == word || (word.count == 3 && $0.hasPrefix(word)) }) {
            let todayWeekday = calendar.component(.weekday, from: now) - 1
            let ahead = (weekday - todayWeekday + 7) % 7
            return ahead == 0 ? 7 : ahead
        }
        guard word.hasPrefix("+"), word.count >= 3, let unit = word.last, unit == "d" || unit == "w",
              let count = Self.digits(word.dropFirst().dropLast()), count <= 100_000
        else { return nil }
        return unit == "w" ? count * 7 : count
    }

    private func today(plus days: Int) -> Day? {
        let calendar = self.calendar
        let start = calendar.startOfDay(for: now)
        // Noon cannot fall into a daylight-saving gap, so adding days to it always lands on the day.
        guard let noon = calendar.date(byAdding: .hour, value: 12, to: start),
              let target = calendar.date(byAdding: .day, value: days, to: noon)
        else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day], from: target)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return Day(year: year, month: month, day: day)
    }

    /// The moment `time` on `day` in the time zone, or the day's first moment without a time; `nil`
    /// when the calendar would have to move it to exist (a local time skipped by a clock change, a
    /// day skipped by the 1582 calendar reform), since nothing is guessed.
    private func date(on day: Day, at time: (hour: Int, minute: Int)?) -> Date? {
        let calendar = self.calendar
        var components = DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)
        guard let noon = calendar.date(from: components) else { return nil }
        var date = calendar.startOfDay(for: noon)
        if let time {
            components.hour = time.hour
            components.minute = time.minute
            guard let moment = calendar.date(from: components) else { return nil }
            date = moment
        }
        let result = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard result.year == day.year, result.month == day.month, result.day == day.day,
              time == nil || (result.hour == time?.hour && result.minute == time?.minute)
        else { return nil }
        return date
    }

    // MARK: Pieces

    /// `H:mm` or `HH:mm`, 00:00 to 23:59.
    private static func parseTime(_ word: String) -> (hour: Int, minute: Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = digits(parts[0]), let minute = digits(parts[1]), hour < 24, minute < 60
        else { return nil }
        return (hour, minute)
    }

    /// The value of a non-empty run of ASCII digits.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private func error(_ text: String) -> DueDateError {
        DueDateError(text: text, order: order)
    }
}
