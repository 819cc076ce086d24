import Foundation
import TestSupport
import ToDoCore
import XCTest

/// Under every `TZ` the C library accepts, a time typed and a time shown mean what `date` means:
/// the binary is compared with GNU `date` itself.
final class TimeZoneTests: BinaryTestCase {
    static let zones = [
        ":/etc/localtime", "UTC0", "EST5", "JST-9", "<+03>-3", "CET-1CEST,M3.5.0,M10.5.0/3",
        "EST5EDT,M3.2.0,M11.1.0", "UTC+3", "GMT+3", "GMT-2", "UTC-5:30", "Europe/Berlin", ":America/Chicago",
        "AEST-10AEDT,M10.1.0,M4.1.0/3", "", "EST5EDT"
    ]

    /// What `date` prints under `tz`.
    private func date(_ tz: String, _ arguments: [String]) throws -> String {
        var runner = todo!
        runner.environment["TZ"] = tz
        let outcome = try runner.run(program: "/bin/date", arguments)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        return outcome.stdout.trimmingCharacters(in: .newlines)
    }

    private func requireGNUDate() throws {
        let version = try todo.run(program: "/bin/date", ["--version"])
        try XCTSkipUnless(version.status == 0 && version.stdout.contains("GNU"), "these tests compare with GNU date")
    }

    func test_aTimeTyped_isStoredAsTheMomentDateMeans() throws {
        try requireGNUDate()
        for tz in Self.zones {
            for typed in ["2027-01-15 12:00", "2027-07-15 09:30"] {
                try? FileManager.default.removeItem(at: fileURL)
                var runner = todo!
                runner.environment["TZ"] = tz
                XCTAssertEqual(try runner.run(["add", "x", "--due", typed]).status, 0, tz)
                let stored = try XCTUnwrap(try JSONFileStore(fileURL: fileURL).load().allItems.first?.timestamp)
                XCTAssertEqual(String(Int(stored)), try date(tz, ["-d", typed, "+%s"]), "TZ=\(tz) --due '\(typed)'")
            }
        }
    }

    func test_aMomentShown_isTheTimeDateShows() throws {
        try requireGNUDate()
        // Moments in winter and summer, on both sides of the changes of 2027.
        let moments = [1_800_000_000, 1_815_000_000, 1_805_000_000, 1_825_000_000, 1_806_300_000, 1_826_700_000]
        for moment in moments {
            try? FileManager.default.removeItem(at: fileURL)
            var utc = todo!
            utc.environment["TZ"] = "UTC"
            let typed = try date("UTC", ["-d", "@\(moment)", "+%Y-%m-%d %H:%M"])
            XCTAssertEqual(try utc.run(["add", "x", "--due", typed]).status, 0)
            for tz in Self.zones {
                var runner = todo!
                runner.environment["TZ"] = tz
                let shown = try runner.run(["show", "1"]).stdout
                let expected = try date(tz, ["-d", "@\(moment)", "+%m/%d/%y %H:%M"])
                XCTAssertTrue(shown.contains(expected), "TZ=\(tz) at \(moment): expected \(expected) in\n\(shown)")
            }
        }
    }

    func test_aCopiedZoneinfoFile_isReadItself() throws {
        try requireGNUDate()
        let source = "/usr/share/zoneinfo/America/New_York"
        guard FileManager.default.fileExists(atPath: source) else { throw XCTSkip("no zoneinfo file \(source)") }
        let copy = directory.file("localtime")
        try FileManager.default.copyItem(atPath: source, toPath: copy.path)
        let tz = ":" + copy.path
        var runner = todo!
        runner.environment["TZ"] = tz
        for typed in ["2027-01-15 12:00", "2027-07-15 09:30", "1950-07-15 09:30", "2090-07-15 09:30"] {
            try? FileManager.default.removeItem(at: fileURL)
            XCTAssertEqual(try runner.run(["add", "x", "--due", typed]).status, 0)
            let stored = try XCTUnwrap(try JSONFileStore(fileURL: fileURL).load().allItems.first?.timestamp)
            XCTAssertEqual(String(Int(stored)), try date(tz, ["-d", typed, "+%s"]), typed)
        }
    }

    func test_UTCPlus3_isThreeHoursBehind_asDateSays() throws {
        var runner = todo!
        runner.environment["TZ"] = "UTC+3"
        XCTAssertEqual(
            try runner.run(["add", "Call", "--due", "2027-01-15 12:00"]),
            Outcome(status: 0, stdout: "Added 1: Call (due Friday 01/15/27 12:00)\n", stderr: ""))
        XCTAssertEqual(try JSONFileStore(fileURL: fileURL).load().allItems.first?.timestamp, 1_800_025_200, "15:00 UTC")
        runner.environment["TZ"] = "UTC"
        XCTAssertEqual(try runner.run(["list"]).stdout, "1 [ ] Call  01/15/27 15:00\n")
    }

    /// Without `TZ`, the system's zone: `/etc/localtime`, as `date` reads it.
    func test_withoutTZ_theSystemZone_isTheOneDateUses() throws {
        try requireGNUDate()
        var runner = todo!
        runner.environment["TZ"] = nil
        XCTAssertEqual(try runner.run(["add", "x", "--due", "2027-07-15 09:30"]).status, 0)
        let stored = try XCTUnwrap(try JSONFileStore(fileURL: fileURL).load().allItems.first?.timestamp)
        let outcome = try runner.run(program: "/bin/date", ["-d", "2027-07-15 09:30", "+%s"])
        XCTAssertEqual(String(Int(stored)), outcome.stdout.trimmingCharacters(in: .newlines))
    }

    /// An abbreviation Foundation knew (`PST`) still names its zone, and UTC's names need no file.
    func test_anAbbreviation_namesTheZoneFoundationGaveIt() throws {
        var runner = todo!
        runner.environment["TZ"] = "PST"
        XCTAssertEqual(try runner.run(["add", "Call", "--due", "2027-07-15 12:00"]).status, 0)
        XCTAssertEqual(
            try JSONFileStore(fileURL: fileURL).load().allItems.first?.timestamp, 1_815_678_000,
            "19:00 UTC: Los Angeles in summer")
        for tz in ["UTC", "Etc/UTC", "GMT", ":UTC"] {
            runner.environment["TZ"] = tz
            XCTAssertEqual(try runner.run(["list"]).stdout, "1 [ ] Call  07/15/27 19:00\n", tz)
        }
        // Four digits after GMT are Foundation's offset east of UTC; POSIX rules take no such hour.
        runner.environment["TZ"] = "GMT+0130"
        XCTAssertEqual(try runner.run(["list"]).stdout, "1 [ ] Call  07/15/27 20:30\n")
        runner.environment["TZ"] = "GMT-0500"
        XCTAssertEqual(try runner.run(["list"]).stdout, "1 [ ] Call  07/15/27 14:00\n")
    }

    #if os(Linux)
    /// todo links FoundationEssentials alone: not Foundation, FoundationNetworking or ICU (37 MB of
    /// the release binary once), and of it only `Date` and `UUID`. The debug build names the
    /// libraries and the symbols it needs.
    func test_theBinaryLinksFoundationEssentials_andNoICU() throws {
        let readelf = try todo.run(program: "/usr/bin/env", ["readelf", "--dynamic", BinaryRunner.besideTheTests.path])
        try XCTSkipIf(readelf.status == 127, "readelf (binutils) is not installed")
        let needed = readelf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map {
            $0.split(separator: "[").last ?? ""
        }
        XCTAssertTrue(needed.contains("libFoundationEssentials.so]"), "a debug build links it as a library: \(needed)")
        for library in [
            "libFoundation.so]", "libFoundationNetworking.so]", "libFoundationInternationalization.so]",
            "lib_FoundationICU.so]"
        ] {
            XCTAssertFalse(needed.contains(Substring(library)), library)
        }
        // Of FoundationEssentials only `Date` and `UUID`, which the static library gives alone: any
        // other part of it (`URL`, `Data`, `FileManager`) brings all of it, 12 MB, into a release build.
        // Nor the standard library's `_StringProcessing`, which brings its regex engine.
        let symbols = try todo.run(
            program: "/usr/bin/env", ["nm", "--dynamic", "--undefined-only", BinaryRunner.besideTheTests.path])
        XCTAssertEqual(symbols.status, 0, symbols.stderr)
        let names = symbols.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last }
        let essentials = names.filter { $0.contains("20FoundationEssentials") }
        XCTAssertFalse(essentials.isEmpty, "a debug build imports Date and UUID from the library")
        for name in essentials {
            let after = name[name.range(of: "20FoundationEssentials")!.upperBound...]
            XCTAssertTrue(
                after.hasPrefix("4Date") || after.hasPrefix("4UUID"), "todo uses \(name) of FoundationEssentials")
        }
        XCTAssertEqual(names.filter { $0.contains("17_StringProcessing") || $0.contains("12_RegexParser") }, [])
    }
    #endif

    func test_notATimeZone_isStillRefused() throws {
        for tz in ["Mars/Olympus_Mons", "EST5EDT,M3.2.0", "banana"] {
            var runner = todo!
            runner.environment["TZ"] = tz
            XCTAssertEqual(
                try runner.run(["list"]),
                Outcome(
                    status: 64, stdout: "",
                    stderr: """
                        Error: TZ is '\(tz)', which is not a known time zone; use a name such as 'Europe/Berlin' or 'UTC'

                        """), tz)
        }
    }

    func test_aSkippedTime_isExplained_withTheTimeAfterTheChange() throws {
        var runner = todo!
        runner.environment["TZ"] = "America/New_York"
        XCTAssertEqual(
            try runner.run(["add", "s", "--due", "2026-03-08 02:30"]),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid date '2026-03-08 02:30': 02:30 does not exist on Sunday 03/08/26 in America/New_York, where the clocks go from 02:00 to 03:00; did you mean 03:30?
                    Usage: todo add <title> ... [options]
                      See 'todo add --help' for more information.

                    """))
        runner.environment["TZ"] = "CET-1CEST,M3.5.0,M10.5.0/3"
        XCTAssertTrue(
            try runner.run(["add", "s", "--due", "2027-03-28 02:15"]).stderr.hasPrefix(
                """
                Error: invalid date '2027-03-28 02:15': 02:15 does not exist on Sunday 03/28/27 in CET-1CEST,M3.5.0,M10.5.0/3, \
                where the clocks go from 02:00 to 03:00; did you mean 03:15?
                """))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path))
    }

    func test_yearsOutsideThisCentury_areShownWhole_inEveryEcho() throws {
        XCTAssertEqual(
            try todo.run(["add", "far", "--due", "2126-03-01"]).stdout, "Added 1: far (due Friday 03/01/2126)\n")
        XCTAssertEqual(
            try todo.run(["add", "old", "--due", "1/10/1922"]).stdout, "Added 2: old (due Tuesday 01/10/1922)\n")
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] far  03/01/2126\n2 [ ] old  01/10/1922\n")
        XCTAssertTrue(try todo.run(["show", "1"]).stdout.contains("03/01/2126"))
        XCTAssertTrue(try todo.run(["history"]).stdout.contains("Added 2: old (due Tuesday 01/10/1922)"))
        var dayFirst = todo!
        dayFirst.environment["TODO_DATE_ORDER"] = "dmy"
        XCTAssertEqual(try dayFirst.run(["list"]).stdout, "1 [ ] far  01/03/2126\n2 [ ] old  10/01/1922\n")
        // The longest date text there is, whole in the list's column.
        XCTAssertEqual(try todo.run(["add", "longest", "--due", "1922-01-10 09:30"]).status, 0)
        XCTAssertEqual(
            try todo.run(["list"]).stdout,
            "1 [ ] far      03/01/2126\n2 [ ] old      01/10/1922\n3 [ ] longest  01/10/1922 09:30\n")
    }
}
