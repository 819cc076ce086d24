import Foundation
import ToDoCore
import ToDoModel
import ToDoStorage

// Foundation's values as the tests make them (time zones, URLs), taken as todo takes them: todo
// itself uses no Foundation `TimeZone` or `URL` (see docs/library.md).

/// A Foundation time zone as todo takes a zone: by its name from the zoneinfo files, or a zone given
/// as an offset (`TimeZone(secondsFromGMT:)`) as that offset.
extension TimeZoneRules {
    public init(_ zone: TimeZone) {
        if let named = ZoneInfo.zone(named: zone.identifier) {
            self = named
        } else {
            precondition(
                zone.nextDaylightSavingTimeTransition == nil,
                "\(zone.identifier) is neither a zoneinfo name nor an offset")
            self.init(transitions: [], offsets: [], initialOffset: zone.secondsFromGMT(), name: zone.identifier)
        }
    }
}

extension DueDateFormatter {
    public init(timeZone: TimeZone, order: DateOrder = .monthFirst) {
        self.init(rules: TimeZoneRules(timeZone), order: order)
    }
}

extension DueDateParser {
    public init(now: Date, timeZone: TimeZone, order: DateOrder = .monthFirst) {
        self.init(now: now, rules: TimeZoneRules(timeZone), order: order)
    }
}

extension CivilTime {
    package init(timeZone: TimeZone) {
        self.init(rules: TimeZoneRules(timeZone))
    }
}

/// Foundation's `URL`, as tests make addresses and paths, taken as todo takes them.
extension WebAddress {
    public init(_ url: URL) {
        self.init(string: url.absoluteString)!
    }
}

extension JSONFileStore {
    public init(
        fileURL: URL, lockTimeout: Double = 10, sizeLimit: Int = OwnFiles.sizeLimit, now: (@Sendable () -> Date)? = nil,
        timeZone: TimeZoneRules = .utc, newID: (@Sendable () -> UUID)? = nil,
        journalFromBytes: Int = JSONFileStore.journalFromBytes,
        notice: (@Sendable (StoreNotice) -> Void)? = nil
    ) {
        self.init(
            path: fileURL.path, lockTimeout: lockTimeout, sizeLimit: sizeLimit, now: now, timeZone: timeZone,
            newID: newID,
            journalFromBytes: journalFromBytes, notice: notice)
    }

    public var fileURL: URL { URL(fileURLWithPath: path) }
}
