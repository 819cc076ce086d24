import ToDoCore
import ToDoModel

import enum ToDoStorage.ZoneInfo

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings `todo` reads from its environment, each checked: a bad value is a clear error
/// rather than a silent default. The time zone and the date order are checked for every command
/// that works on the list, since every one shows or reads dates; the others only by the commands
/// that use them (a bad `TODO_GEOCODER_URL` does not stop `todo list`).
struct Settings {
    /// The default for `TODO_LOCK_TIMEOUT`, in seconds.
    static let defaultLockTimeout = 10.0

    let timeZone: TimeZoneRules
    let dateOrder: DateOrder
    /// `TODO_LOCK_TIMEOUT`: how long a change waits for another's lock, in seconds.
    var lockTimeout: Double { get throws(CommandError) { try checkedLockTimeout.get() } }
    /// The Nominatim-compatible search endpoint that `--address` is looked up on (`TODO_GEOCODER_URL`).
    var geocoderURL: WebAddress? { get throws(CommandError) { try checkedGeocoderURL.get() } }
    /// `TODO_HTTP_TIMEOUT`: seconds before a request is given up, when set.
    var httpTimeout: Double? { get throws(CommandError) { try checkedHTTPTimeout.get() } }
    /// `TODO_IMPORT_MAX_MB`: the largest source `todo import` reads (a download, a file, a folder, standard input), in bytes.
    var importMaximumBytes: Int { get throws(CommandError) { try checkedImportMaximumBytes.get() } }

    private let checkedLockTimeout: Result<Double, CommandError>
    private let checkedGeocoderURL: Result<WebAddress?, CommandError>
    private let checkedHTTPTimeout: Result<Double?, CommandError>
    private let checkedImportMaximumBytes: Result<Int, CommandError>

    /// The default for `TODO_IMPORT_MAX_MB`: a list of a million items is about 250 MB.
    static let defaultImportMaximumMegabytes = 256
    /// The most `TODO_IMPORT_MAX_MB` may be: the largest list todo reads.
    static let largestImportMaximumMegabytes = 1024

    /// `TZ` (unset: the system zone; empty: UTC, as POSIX says), `TODO_DATE_ORDER` (`mdy` or
    /// `dmy`), checked now; `TODO_LOCK_TIMEOUT` (seconds), `TODO_GEOCODER_URL`, `TODO_HTTP_TIMEOUT`
    /// and `TODO_IMPORT_MAX_MB`, checked when asked for.
    init(environment: [String: String], systemTimeZone: () -> TimeZoneRules) throws(CommandError) {
        timeZone = try Self.timeZone(environment["TZ"], system: systemTimeZone)

        let order = environment["TODO_DATE_ORDER"] ?? ""
        guard let dateOrder = order.isEmpty ? .monthFirst : DateOrder(rawValue: order.lowercased()) else {
            throw Self.error("TODO_DATE_ORDER is '\(order)'; use 'mdy' (01/10/22 is January 10) or 'dmy' (October 1)")
        }
        self.dateOrder = dateOrder

        checkedLockTimeout = Result { () throws(CommandError) in
            let timeout = environment["TODO_LOCK_TIMEOUT"] ?? ""
            guard let lockTimeout = timeout.isEmpty ? Self.defaultLockTimeout : Double(timeout),
                lockTimeout.isFinite, lockTimeout >= 0, lockTimeout <= JSONFileStore.longestLockTimeout
            else {
                throw Self.error("TODO_LOCK_TIMEOUT is '\(timeout)'; use a number of seconds from 0 to 3600, as 10")
            }
            return lockTimeout
        }

        checkedGeocoderURL = Result { () throws(CommandError) in
            let geocoder = environment["TODO_GEOCODER_URL"] ?? ""
            guard !geocoder.isEmpty else { return nil }
            guard let url = WebAddress(string: geocoder), url.isWebAddress else {
                throw Self.error(
                    "TODO_GEOCODER_URL is '\(geocoder)'; use an http:// or https:// address,"
                        + " as https://nominatim.openstreetmap.org/search")
            }
            return url
        }

        checkedHTTPTimeout = Result { () throws(CommandError) in
            let httpTimeout = environment["TODO_HTTP_TIMEOUT"] ?? ""
            guard !httpTimeout.isEmpty else { return nil }
            guard let seconds = Double(httpTimeout), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw Self.error("TODO_HTTP_TIMEOUT is '\(httpTimeout)'; use a number of seconds above 0, as 5")
            }
            return seconds
        }

        checkedImportMaximumBytes = Result { () throws(CommandError) in
            let importMaximum = environment["TODO_IMPORT_MAX_MB"] ?? ""
            guard let megabytes = importMaximum.isEmpty ? Self.defaultImportMaximumMegabytes : Int(importMaximum),
                (1...Self.largestImportMaximumMegabytes).contains(megabytes)
            else {
                throw Self.error(
                    "TODO_IMPORT_MAX_MB is '\(importMaximum)'; use a whole number of megabytes from 1 to"
                        + " \(Self.largestImportMaximumMegabytes), as \(Self.defaultImportMaximumMegabytes)")
            }
            return megabytes << 20
        }
    }

    /// `TZ` read as the C library reads it, so that todo's times are `date`'s: unset is the system's
    /// zone and empty is UTC; `:` before a value means a zoneinfo file (`:/etc/localtime`) or name
    /// (`:Europe/Berlin`); otherwise a zoneinfo file of that name comes first (`Europe/Berlin`,
    /// `EST5EDT`), then POSIX rules (`UTC0`, `JST-9`, `<+03>-3`, `CET-1CEST,M3.5.0,M10.5.0/3`,
    /// `UTC+3`, which is three hours *behind* UTC), then an abbreviation Foundation knew (`PST`) or an offset as it read one (`GMT+0100`, east).
    private static func timeZone(_ value: String?, system: () -> TimeZoneRules) throws(CommandError) -> TimeZoneRules {
        guard var name = value else { return system() }
        let namesAFile = name.hasPrefix(":")
        if namesAFile { name.removeFirst() }
        if name.isEmpty { return .utc }
        let zoneinfo =
            name.hasPrefix("/")
            ? name.split(separator: "/").contains("..") ? nil : ZoneInfo.zone(atPath: name, name: name)
            : ZoneInfo.zone(named: name)
        if let zoneinfo { return zoneinfo }
        // A system without a configured zone has no /etc/localtime; the C library then uses UTC.
        if name == "/etc/localtime", access(name, F_OK) != 0 { return .utc }
        if !namesAFile, let posix = POSIXTimeZone(name) { return TimeZoneRules(posix, name: name) }
        if let zone = ZoneInfo.zone(abbreviation: name) ?? ZoneInfo.zone(gmtOffset: name) { return zone }
        throw error("TZ is '\(value!)', which is not a known time zone; use a name such as 'Europe/Berlin' or 'UTC'")
    }

    private static func error(_ message: String) -> CommandError {
        CommandError(message: message, showsUsage: false)
    }
}
