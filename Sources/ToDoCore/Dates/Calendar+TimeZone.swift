import Foundation

extension Calendar {
    /// The Gregorian calendar in `timeZone`, which every due-date computation uses.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
