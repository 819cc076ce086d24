import Foundation
import ToDoCore

/// The settings `todo` reads from its environment, each checked: a bad value is a clear error
/// rather than a silent default.
struct Settings {
    /// The default for `TODO_LOCK_TIMEOUT`, in seconds.
    static let defaultLockTimeout = 10.0

    let timeZone: TimeZone
    let dateOrder: DateOrder
    let lockTimeout: Double
    /// The Nominatim-compatible search endpoint that `--address` is looked up on (`TODO_GEOCODER_URL`).
    let geocoderURL: URL?
    /// `TODO_HTTP_TIMEOUT`: seconds before a request is given up, when set.
    let httpTimeout: Double?
    /// `TODO_IMPORT_MAX_MB`: the largest source `todo import <url>` downloads, in bytes.
    let importMaximumBytes: Int

    /// The default for `TODO_IMPORT_MAX_MB`: a list of a million items is about 250 MB.
    static let defaultImportMaximumMegabytes = 256
    /// The most `TODO_IMPORT_MAX_MB` may be: the largest list todo reads.
    static let largestImportMaximumMegabytes = 1024

    /// `TZ` (unset: the system zone; empty: UTC, as POSIX says), `TODO_DATE_ORDER` (`mdy` or
    /// `dmy`), `TODO_LOCK_TIMEOUT` (seconds), `TODO_GEOCODER_URL`, `TODO_HTTP_TIMEOUT` and
    /// `TODO_IMPORT_MAX_MB`.
    init(environment: [String: String], systemTimeZone: () -> TimeZone) throws(UsageError) {
        timeZone = try Self.timeZone(environment["TZ"], system: systemTimeZone)

        let order = environment["TODO_DATE_ORDER"] ?? ""
        guard let dateOrder = order.isEmpty ? .monthFirst : DateOrder(rawValue: order.lowercased()) else {
            throw Self.error("TODO_DATE_ORDER is '\(order)'; use 'mdy' (01/10/22 is January 10) or 'dmy' (October 1)")
        }
        self.dateOrder = dateOrder

        let timeout = environment["TODO_LOCK_TIMEOUT"] ?? ""
        guard let lockTimeout = timeout.isEmpty ? Self.defaultLockTimeout : Double(timeout),
              lockTimeout.isFinite, lockTimeout >= 0, lockTimeout <= JSONFileStore.longestLockTimeout else {
            throw Self.error("TODO_LOCK_TIMEOUT is '\(timeout)'; use a number of seconds from 0 to 3600, as 10")
        }
        self.lockTimeout = lockTimeout

        let geocoder = environment["TODO_GEOCODER_URL"] ?? ""
        if geocoder.isEmpty {
            geocoderURL = nil
        } else {
            guard let url = URL(string: geocoder), url.isWebAddress else {
                throw Self.error("TODO_GEOCODER_URL is '\(geocoder)'; use an http:// or https:// address,"
                                 + " as https://nominatim.openstreetmap.org/search")
            }
            geocoderURL = url
        }

        let httpTimeout = environment["TODO_HTTP_TIMEOUT"] ?? ""
        if httpTimeout.isEmpty {
            self.httpTimeout = nil
        } else {
            guard let seconds = Double(httpTimeout), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw Self.error("TODO_HTTP_TIMEOUT is '\(httpTimeout)'; use a number of seconds above 0, as 5")
            }
            self.httpTimeout = seconds
        }

        let importMaximum = environment["TODO_IMPORT_MAX_MB"] ?? ""
        guard let megabytes = importMaximum.isEmpty ? Self.defaultImportMaximumMegabytes : Int(importMaximum),
              (1...Self.largestImportMaximumMegabytes).contains(megabytes) else {
            throw Self.error("TODO_IMPORT_MAX_MB is '\(importMaximum)'; use a whole number of megabytes from 1 to"
                             + " \(Self.largestImportMaximumMegabytes), as \(Self.defaultImportMaximumMegabytes)")
        }
        importMaximumBytes = megabytes << 20
    }

    private static func timeZone(_ value: String?, system: () -> TimeZone) throws(UsageError) -> TimeZone {
        guard var name = value else { return system() }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return TimeZone(identifier: "UTC")! }
        if let range = name.range(of: "zoneinfo/") { name = String(name[range.upperBound...]) }
        if let zone = TimeZone(identifier: name) ?? TimeZone(abbreviation: name) { return zone }
        throw error("TZ is '\(value!)', which is not a known time zone; use a name such as 'Europe/Berlin' or 'UTC'")
    }

    private static func error(_ message: String) -> UsageError {
        UsageError(message: message, showsUsage: false)
    }
}
