import Foundation

/// Dates and times of day in one time zone, as the interchange formats write them
/// (`2030-06-14`, `20300614T160000Z`), converted to and from seconds since 1970.
struct CivilTime {
    struct Fields: Equatable {
        var year, month, day: Int
        var hour = 0, minute = 0, second = 0

        var isMidnight: Bool { hour == 0 && minute == 0 && second == 0 }
    }

    let calendar: Calendar

    init(timeZone: TimeZone) {
        calendar = .gregorian(in: timeZone)
    }

    static let utc = CivilTime(timeZone: TimeZone(identifier: "UTC")!)

    /// The calendar fields of `timestamp`, to the second (a fraction is dropped).
    func fields(of timestamp: Double) -> Fields {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: timestamp.rounded(.down)))
        return Fields(year: parts.year ?? 1, month: parts.month ?? 1, day: parts.day ?? 1,
                      hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
    }

    /// The moment `fields` name here; `nil` for a date that does not exist (30 February) or a
    /// local time a clock change skips.
    func timestamp(of fields: Fields) -> Double? {
        guard (1...9999).contains(fields.year) else { return nil }
        let parts = DateComponents(year: fields.year, month: fields.month, day: fields.day,
                                   hour: fields.hour, minute: fields.minute, second: fields.second)
        guard let date = calendar.date(from: parts) else { return nil }
        let timestamp = date.timeIntervalSince1970
        return self.fields(of: timestamp) == fields ? timestamp : nil
    }

    /// `2030-06-14`.
    static func isoDate(_ fields: Fields) -> String {
        "\(digits(fields.year, 4))-\(digits(fields.month, 2))-\(digits(fields.day, 2))"
    }

    /// `2030-06-14`, with `T18:00` when the time is not midnight and `T18:00:30` when it has seconds:
    /// what `parseISO` reads.
    static func isoDateTime(_ fields: Fields) -> String {
        guard !fields.isMidnight else { return isoDate(fields) }
        let seconds = fields.second == 0 ? "" : ":\(digits(fields.second, 2))"
        return isoDate(fields) + "T\(digits(fields.hour, 2)):\(digits(fields.minute, 2))" + seconds
    }

    /// `20300614`, and with `time`, `20300614T160000`.
    static func basicDate(_ fields: Fields, time: Bool) -> String {
        let date = "\(digits(fields.year, 4))\(digits(fields.month, 2))\(digits(fields.day, 2))"
        return time ? date + "T\(digits(fields.hour, 2))\(digits(fields.minute, 2))\(digits(fields.second, 2))" : date
    }

    /// Reads `2030-06-14`, optionally followed by `Thh:mm` or `Thh:mm:ss`.
    static func parseISO(_ text: Substring) -> Fields? {
        let bytes = Array(text.utf8)
        guard [10, 16, 19].contains(bytes.count), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]) else { return nil }
        var fields = Fields(year: year, month: month, day: day)
        if bytes.count >= 16 {
            guard bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                  let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]) else { return nil }
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
    static func parseBasic(_ text: Substring) -> (fields: Fields, hasTime: Bool, utc: Bool)? {
        var bytes = Array(text.utf8)
        var utc = false
        if bytes.last == UInt8(ascii: "Z") {
            utc = true
            bytes.removeLast()
        }
        guard bytes.count == 8 || bytes.count == 15, let year = number(bytes[0..<4]), let month = number(bytes[4..<6]),
              let day = number(bytes[6..<8]) else { return nil }
        var fields = Fields(year: year, month: month, day: day)
        guard bytes.count == 15 else { return utc ? nil : (fields, false, false) }
        guard bytes[8] == UInt8(ascii: "T"), let hour = number(bytes[9..<11]), let minute = number(bytes[11..<13]),
              let second = number(bytes[13..<15]) else { return nil }
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

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
