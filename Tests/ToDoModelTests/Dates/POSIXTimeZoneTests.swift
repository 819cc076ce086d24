import Foundation
import TestSupport
import XCTest

@testable import ToDoModel

/// The POSIX `TZ` reader and a zoneinfo file's table give the C library's answers: for a spread of
/// strings and moments, `localtime_r` under `setenv("TZ")` has the same offset, daylight flag and
/// abbreviation.
final class POSIXTimeZoneTests: XCTestCase {
    /// What the C library says of `timestamp` under `tz`.
    private func cLibrary(_ tz: String, at timestamp: Int) -> (offset: Int, isDaylight: Bool, abbreviation: String) {
        var time = time_t(timestamp)
        var parts = tm()
        localtime_r(&time, &parts)
        return (Int(parts.tm_gmtoff), parts.tm_isdst > 0, String(cString: parts.tm_zone))
    }

    private func withTZ(_ tz: String, _ body: () -> Void) {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", tz, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        body()
    }

    /// Moments from 1970 to 2100 at random, and every hour around each change of offset in a few years.
    private func moments(_ random: inout SeededGenerator, around zone: POSIXTimeZone) -> [Int] {
        var moments = (0..<2_000).map { _ in Int.random(in: 0...4_102_444_800, using: &random) }
        for year in [1999, 2026, 2038, 2077] {
            let start = CalendarDay(year: year, month: 1, day: 1).number! * 86_400
            var previous = zone.offset(at: start).seconds
            for hour in stride(from: start, to: start + 366 * 86_400, by: 3600)
            where zone.offset(at: hour).seconds != previous {
                previous = zone.offset(at: hour).seconds
                moments += (-3...3).map { hour + $0 * 1800 - 1 } + (-3...3).map { hour + $0 * 1800 }
            }
        }
        return moments
    }

    func test_agreesWithTheCLibrary_forFixedAndDaylightRules() throws {
        let strings = [
            "UTC0", "EST5", "JST-9", "<+03>-3", "<-0330>3:30", "UTC+3", "GMT+3", "GMT-2", "UTC-5:30", "ABC-5:45:30",
            "CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0,M11.1.0", "AEST-10AEDT,M10.1.0,M4.1.0/3",
            "NZST-12NZDT,M9.5.0,M4.1.0/3", "IST-1GMT0,M10.5.0,M3.5.0/1", "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",
            "XXX3YYY,J60/1,J300/2", "XXX3YYY,59,299", "AAA4BBB3,M4.1.0/0,M10.5.6/23:59:59", "WET0WEST,M3.5.0/1,M10.5.0",
            "HST10HDT,M3.2.0,M11.1.0", "<+0530>-5:30<+0630>-6:30,J1/0,J365/24"
        ]
        var random = SeededGenerator(seed: 21)
        for string in strings {
            let zone = try XCTUnwrap(POSIXTimeZone(string), string)
            withTZ(string) {
                for moment in moments(&random, around: zone) {
                    let expected = cLibrary(string, at: moment)
                    let offset = zone.offset(at: moment)
                    XCTAssertEqual(offset.seconds, expected.offset, "\(string) at \(moment)")
                    XCTAssertEqual(offset.isDaylight, expected.isDaylight, "\(string) at \(moment)")
                    let name = offset.isDaylight ? zone.daylight!.name : zone.standard.name
                    XCTAssertEqual(name, expected.abbreviation, "\(string) at \(moment)")
                }
            }
        }
    }

    func test_aDaylightNameWithoutRules_usesGlibcsDefaultRules() throws {
        let zone = try XCTUnwrap(POSIXTimeZone("ABC5DEF"))
        XCTAssertEqual(zone, POSIXTimeZone("ABC5DEF,M3.2.0,M11.1.0"))
        XCTAssertEqual(zone.daylight?.offset, -4 * 3600, "an hour ahead of standard time")
    }

    func test_whatIsNotPOSIX_isRefused() {
        for string in [
            "", "UTC", "Europe/Berlin", "AB5", "ABC", "ABC+25", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0",
            "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,J0,J100", "EST5EDT,366,1", "<AB>5", "<ABC5", "EST5 ", "EST5:60",
            "EST5EDT,M3.2.0/168,M11.1.0", "Mars/Olympus_Mons"
        ] {
            XCTAssertNil(POSIXTimeZone(string), string)
        }
    }

    func test_aZoneinfoFile_agreesWithTheCLibrary_acrossItsHistoryAndFooter() throws {
        for name in ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kolkata"] {
            let path = "/usr/share/zoneinfo/\(name)"
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw XCTSkip("no zoneinfo file \(path)")
            }
            let rules = try XCTUnwrap(TimeZoneRules(zoneinfo: Array(bytes), name: path))
            var random = SeededGenerator(seed: 22)
            withTZ(":" + path) {
                for _ in 0..<3_000 {
                    // 1850 to 2100: before the first change, the table, and past it the footer's rules.
                    let moment = Int.random(in: -3_786_825_600...4_102_444_800, using: &random)
                    XCTAssertEqual(
                        rules.secondsFromGMT(at: Double(moment)), cLibrary(path, at: moment).offset,
                        "\(name) at \(moment)")
                }
            }
        }
        XCTAssertNil(TimeZoneRules(zoneinfo: Array("TZif but not really".utf8), name: "x"))
        XCTAssertNil(TimeZoneRules(zoneinfo: [], name: "x"))
    }
}
