#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Dates and times of day in one time zone, converted to and from seconds since 1970: what the
/// due-date parser and formatter and the interchange formats (`2030-06-14`, `20300614T160000Z`)
/// all go through, so that every `TZ` means the same everywhere.
package struct CivilTime: Sendable {
    package struct Fields: Equatable {
        package var year, month, day: Int
        package var hour = 0, minute = 0, second = 0

        package var isMidnight: Bool { hour == 0 && minute == 0 && second == 0 }

        package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            (self.year, self.month, self.day) = (year, month, day)
            (self.hour, self.minute, self.second) = (hour, minute, second)
        }
    }

    package let rules: TimeZoneRules
    /// The offset when it never changes, so that no moment needs to ask the rules.
    private let fixedOffset: Int?

    /// The zone's offset is checked once for never changing (UTC, `JST-9`), so that such a zone's
    /// moments are worked out without asking it.
    package init(rules: TimeZoneRules) {
        self.rules = rules
        fixedOffset = rules.fixedOffset
    }

    package static let utc = CivilTime(rules: .utc)

    /// Seconds east of UTC at `timestamp`.
    package func offset(at timestamp: Int) -> Int {
        fixedOffset ?? rules.secondsFromGMT(at: Double(timestamp))
    }

    /// `timestamp` (whole seconds, a fraction dropped) as seconds of local time since 1970.
    package func localSeconds(_ timestamp: Double) -> Int {
        let whole = Int(timestamp.rounded(.down))
        return whole + offset(at: whole)
    }

    /// The calendar fields of `timestamp`, to the second (a fraction is dropped).
    package func fields(of timestamp: Double) -> Fields {
        let local = localSeconds(timestamp)
        let dayNumber = CalendarDay.floorDivide(local, 86_400)
        let seconds = local - dayNumber * 86_400
        let day = CalendarDay(number: dayNumber)
        return Fields(
            year: day.year, month: day.month, day: day.day,
            hour: seconds / 3600, minute: seconds % 3600 / 60, second: seconds % 60)
    }

    /// The number of the local day of `timestamp`, counting from 1 January 1970.
    package func dayNumber(of timestamp: Double) -> Int {
        CalendarDay.floorDivide(localSeconds(timestamp), 86_400)
    }

    /// What a local time is: one moment, the first of two (a clock set back repeats an hour), or
    /// none, when a clock set forward skips it.
    package enum Resolution: Equatable {
        case moment(Int)
        /// Skipped: the offsets before and after the change.
        case skipped(offsetBefore: Int, offsetAfter: Int)
    }

    /// The moment at `local` seconds of local time since 1970.
    package func resolve(local: Int) -> Resolution {
        if let fixedOffset { return .moment(local - fixedOffset) }
        // A change of offset within a day either side is the most a zone has near one moment.
        let before = offset(at: local - 86_400), after = offset(at: local + 86_400)
        let moments = [before, after].map { local - $0 }.filter { offset(at: $0) == local - $0 }
        guard let first = moments.min() else { return .skipped(offsetBefore: before, offsetAfter: after) }
        return .moment(first)
    }

    /// The moment at `local` seconds of local time, a time the clocks skip read with the offset
    /// before the change, as RFC 5545 3.3.5 says: as long after the change as it was typed after it.
    package func moment(readingSkipped local: Int) -> Int {
        switch resolve(local: local) {
        case .moment(let moment): moment
        case .skipped(let before, _): local - before
        }
    }

    /// Whether the local time `fields` name occurs twice here (the night the clocks go back).
    package func isAmbiguous(_ fields: Fields) -> Bool {
        guard fixedOffset == nil, let day = CalendarDay(year: fields.year, month: fields.month, day: fields.day).number
        else { return false }
        let local = day * 86_400 + fields.hour * 3600 + fields.minute * 60 + fields.second
        let before = offset(at: local - 86_400), after = offset(at: local + 86_400)
        guard before != after else { return false }
        return [before, after].allSatisfy { offset(at: local - $0) == $0 }
    }

    /// The moment `fields` name here; `nil` for a date that does not exist (30 February) or a
    /// local time a clock change skips.
    package func timestamp(of fields: Fields) -> Double? {
        guard case .moment(let moment)? = resolution(of: fields) else { return nil }
        return Double(moment)
    }

    /// What `fields` are here; `nil` for a date or time that does not exist in any zone.
    package func resolution(of fields: Fields) -> Resolution? {
        Self.localSeconds(of: fields).map(resolve(local:))
    }

    /// `fields` as seconds of local time since 1970; `nil` for a date or time that does not exist.
    package static func localSeconds(of fields: Fields) -> Int? {
        guard (1...9999).contains(fields.year), (0..<24).contains(fields.hour), (0..<60).contains(fields.minute),
            (0..<60).contains(fields.second),
            let day = CalendarDay(year: fields.year, month: fields.month, day: fields.day).number
        else { return nil }
        return day * 86_400 + fields.hour * 3600 + fields.minute * 60 + fields.second
    }

    /// The first moment of local day `dayNumber`: its midnight, or when a clock change skips
    /// midnight, the moment the day begins after it.
    package func firstMoment(ofDay dayNumber: Int) -> Int {
        let midnight = dayNumber * 86_400
        switch resolve(local: midnight) {
        case .moment(let moment):
            return moment
        case .skipped(let before, let after):
            return momentOfChange(skipping: midnight, from: before, to: after)
        }
    }

    /// The moment the clocks go from offset `before` to `after`, skipping the local time `local`:
    /// the first moment of the new offset, which lies between `local` read in either.
    package func momentOfChange(skipping local: Int, from before: Int, to after: Int) -> Int {
        var low = local - after, high = local - before
        while low < high {
            let middle = CalendarDay.floorDivide(low + high, 2)
            if offset(at: middle) == after { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// `2030-06-14`.
    package static func isoDate(_ fields: Fields) -> String {
        "\(digits(fields.year, 4))-\(digits(fields.month, 2))-\(digits(fields.day, 2))"
    }

    /// `2030-06-14`, with `T18:00` when the time is not midnight and `T18:00:30` when it has seconds:
    /// what `parseISO` reads.
    package static func isoDateTime(_ fields: Fields) -> String {
        guard !fields.isMidnight else { return isoDate(fields) }
        let seconds = fields.second == 0 ? "" : ":\(digits(fields.second, 2))"
        return isoDate(fields) + "T\(digits(fields.hour, 2)):\(digits(fields.minute, 2))" + seconds
    }

    /// `20300614`, and with `time`, `20300614T160000`.
    package static func basicDate(_ fields: Fields, time: Bool) -> String {
        let date = "\(digits(fields.year, 4))\(digits(fields.month, 2))\(digits(fields.day, 2))"
        return time ? date + "T\(digits(fields.hour, 2))\(digits(fields.minute, 2))\(digits(fields.second, 2))" : date
    }

    /// Reads `2030-06-14`, optionally followed by `Thh:mm` or `Thh:mm:ss`.
    package static func parseISO(_ text: Substring) -> Fields? {
        let bytes = Array(text.utf8)
        guard [10, 16, 19].contains(bytes.count), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10])
        else { return nil }
        var fields = Fields(year: year, month: month, day: day)
        if bytes.count >= 16 {
            guard bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16])
            else { return nil }
            fields.hour = hour
            fields.minute = minute
        }
        if bytes.count == 19 {
            guard bytes[16] == UInt8(ascii: ":"), let second = number(bytes[17..<19]) else { return nil }
            fields.second = second
        }
        return fields
    }

    /// Reads `20300614` or `20300614T160000`, with a `Z` after the time when `utc` is set.
    package static func parseBasic(_ text: Substring) -> (fields: Fields, hasTime: Bool, utc: Bool)? {
        var bytes = Array(text.utf8)
        var utc = false
        if bytes.last == UInt8(ascii: "Z") {
            utc = true
            bytes.removeLast()
        }
        guard bytes.count == 8 || bytes.count == 15, let year = number(bytes[0..<4]), let month = number(bytes[4..<6]),
            let day = number(bytes[6..<8])
        else { return nil }
        var fields = Fields(year: year, month: month, day: day)
        guard bytes.count == 15 else { return utc ? nil : (fields, false, false) }
        guard bytes[8] == UInt8(ascii: "T"), let hour = number(bytes[9..<11]), let minute = number(bytes[11..<13]),
            let second = number(bytes[13..<15])
        else { return nil }
        fields.hour = hour
        fields.minute = minute
        fields.second = second
        return (fields, true, utc)
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `value` in at least `count` digits, zeros before it: `digits(7, 2)` is `07`.
    package static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}

extension CivilTime {
    /// A date as todo's words read it back: `2030-06-14` for a whole day, else the local time
    /// (`T00:00` at midnight), with the offset when the clocks show that time twice that night.
    /// todo.txt's export and `todo ui`'s edit line write dates so.
    package func isoText(of date: ItemDate) -> String {
        guard case .time(let timestamp) = date else { return Self.isoDate(date.day(local: self).fields) }
        let fields = fields(of: timestamp)
        let text = fields.isMidnight ? Self.isoDate(fields) + "T00:00" : Self.isoDateTime(fields)
        guard isAmbiguous(fields) else { return text }
        let offset = offset(at: Int(timestamp.rounded(.down)))
        let minutes = abs(offset) / 60
        return text + (offset < 0 ? "-" : "+") + Self.digits(minutes / 60, 2) + ":" + Self.digits(minutes % 60, 2)
    }
}
