import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

/// The built `todo` binary run as a separate process, as users and scripts run it: each command,
/// each date form, each exit code, standard input, and where the file goes.
final class EndToEndTests: BinaryTestCase {
    override var timeZone: String { "America/New_York" }

    @discardableResult
    func run(_ arguments: String..., input: String? = nil) throws -> Outcome {
        try todo.run(arguments, input: input.map { Data($0.utf8) })
    }

    // MARK: Every command

    func test_everyCommand_throughTheBinary() throws {
        XCTAssertEqual(try run("--version"), Outcome(status: 0, stdout: "todo 0.1.0\n", stderr: ""))
        XCTAssertEqual(
            try run("add", "Call Mom", "--due", "01/10/22"),
            Outcome(status: 0, stdout: "Added 1: Call Mom (due Monday 01/10/22)\n", stderr: ""))
        XCTAssertEqual(
            try run("add", "-", input: "Buy milk\nPay rent\n"),
            Outcome(status: 0, stdout: "Added 2: Buy milk\nAdded 3: Pay rent\n", stderr: ""))
        XCTAssertEqual(
            try run("check", "1", "3").stdout, "Checked 1: Call Mom (due Monday 01/10/22)\nChecked 3: Pay rent\n")
        XCTAssertEqual(try run("uncheck", "3").stdout, "Unchecked 3: Pay rent\n")
        XCTAssertEqual(
            try run("edit", "2", "--title", "Buy oat milk", "--location", "Shop").stdout,
            "Edited 2: Buy oat milk (at Shop)\n")
        XCTAssertEqual(
            try run("list"),
            Outcome(
                status: 0,
                stdout: """
                    2 [ ] Buy oat milk            @Shop
                    3 [ ] Pay rent

                    Done
                    1 [x] Call Mom      01/10/22

                    """, stderr: ""))
        XCTAssertTrue(try run("show", "2").stdout.hasPrefix("Title:       Buy oat milk\nDue:         -\n"))
        XCTAssertEqual(try run("remove", "3").stdout, "Removed 3: Pay rent\n")
        XCTAssertEqual(try run("clear", "--done", "--yes").stdout, "Removed 1 done item.\n")
        XCTAssertEqual(try run("list", "--json").status, 0)
        XCTAssertTrue(try run("help").stdout.hasPrefix("OVERVIEW: A to-do list for the command line."))
        XCTAssertTrue(try run("help", "edit").stdout.hasPrefix("OVERVIEW: Change items' fields."))
        XCTAssertEqual(try run("clear", "--yes").stdout, "Removed 1 item.\n")
        XCTAssertEqual(try run(), Outcome(status: 0, stdout: "", stderr: ""))
    }

    // MARK: Every date form

    func test_everyDateForm_isStoredAsTheDayItNames() throws {
        let zone = TimeZone(identifier: "America/New_York")!
        let formatter = DueDateFormatter(timeZone: zone)
        let fixed: [(String, String)] = [
            ("01/10/22", "01/10/22"), ("1/10/2022", "01/10/22"), ("2022-01-10", "01/10/22"),
            ("2022-01-10 14:30", "01/10/22 14:30"), ("2022-01-10T09:05", "01/10/22 09:05"),
            ("01/10/22 9:05", "01/10/22 09:05")
        ]
        let relative = ["today", "tomorrow", "friday", "Mon", "+3d", "+2w", "tomorrow 08:00"]
        for (index, text) in (fixed.map(\.0) + relative).enumerated() {
            let before = Date()
            let outcome = try run("add", "Item \(index)", "--due", text, "--json")
            XCTAssertEqual(outcome.status, 0, "\(text): \(outcome)")
            guard let due = try ToDoItem(json: JSONValue(parsing: Array(outcome.stdout.utf8)), path: "").due
            else { return XCTFail("\(text): \(outcome)") }
            let expected: [String]
            if index < fixed.count {
                expected = [fixed[index].1]
            } else {
                // Computed with the real clock before and after the run, in case midnight passed.
                expected = [before, Date()].map { now in
                    formatter.string(from: try! DueDateParser(now: now, timeZone: zone).date(text))
                }
            }
            XCTAssertTrue(expected.contains(formatter.string(from: due)), "\(text): \(formatter.string(from: due))")
            XCTAssertEqual(due.isDay, !text.contains(":"), text)
        }
    }

    func test_dayFirstSetting_throughTheBinary() throws {
        todo.environment["TODO_DATE_ORDER"] = "dmy"

        XCTAssertEqual(try run("add", "A", "--due", "01/10/22").stdout, "Added 1: A (due Saturday 01/10/22)\n")
        todo.environment["TODO_DATE_ORDER"] = nil
        XCTAssertEqual(try run("list").stdout, "1 [ ] A  10/01/22\n")
    }

    func test_TZ_isHonoured() throws {
        try run("add", "A", "--due", "01/10/22 00:00")

        todo.environment["TZ"] = "Europe/Berlin"
        XCTAssertEqual(try run("list").stdout, "1 [ ] A  01/10/22 06:00\n")
    }

    /// A whole day is a date: added in New York it is the same day in Los Angeles, and added in
    /// Tokyo the same day in New York; a time stays the instant it is (fails on the release that
    /// kept a day as the moment of a local midnight: 12/02/26 in Los Angeles).
    func test_aWholeDay_isTheSameDayInEveryZone_aTimeTheSameInstant() throws {
        todo.environment["TZ"] = "America/New_York"
        try run("add", "Pay rent", "--due", "12/03/26", "--start", "12/01/26")
        try run("add", "Call", "--due", "12/03/26 17:00")
        todo.environment["TZ"] = "Asia/Tokyo"
        try run("add", "Ship", "--due", "12/04/26")
        for zone in ["America/Los_Angeles", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
        {
            todo.environment["TZ"] = zone
            let shown = try run("list", "--all").stdout.split(separator: "\n").map {
                $0.split(separator: " ").last.map(String.init) ?? ""
            }
            XCTAssertEqual(shown[0], "12/03/26", zone)
            XCTAssertEqual(shown[2], "12/04/26", zone)
            XCTAssertTrue(try run("show", "1").stdout.contains("Starts:      12/01/26 (Tuesday)"), zone)
        }
        todo.environment["TZ"] = "America/Los_Angeles"
        XCTAssertEqual(try run("list", "--all").stdout.split(separator: "\n")[1].suffix(14), "12/03/26 14:00")
        // A title-only edit far away leaves the day as it was.
        try run("edit", "1", "--title", "Pay the rent")
        let item = try ToDoItem(json: JSONValue(parsing: Array(try run("show", "1", "--json").stdout.utf8)), path: "")
        XCTAssertEqual(item.due, .day(2026, 12, 3))
        XCTAssertEqual(item.start, .day(2026, 12, 1))
        let ical = try run("export", "--format", "ical").stdout
        XCTAssertTrue(ical.contains("DUE;VALUE=DATE:20261203\r\n"), ical)
        XCTAssertTrue(ical.contains("DUE;VALUE=DATE:20261204\r\n"), ical)
        XCTAssertTrue(ical.contains("DUE:20261203T220000Z\r\n"), ical)
    }

    /// `--url` takes one line: a line break is a usage error that changes nothing.
    func test_aLinkWithALineBreak_isAUsageError() throws {
        try run("add", "A", "--url", "https://a.example")
        let before = try Data(contentsOf: fileURL)
        let outcome = try run("edit", "1", "--url", "https://b.example\nX-EVIL:1")
        XCTAssertEqual(outcome.status, 64, outcome.stderr)
        XCTAssertEqual(
            outcome.stderr,
            "Error: the url must be one line without control characters: \"https://b.example\\nX-EVIL:1\"\n")
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
    }

    /// A list of the first form (whole days as the moments of local midnights) reads as the days
    /// it shows where it is read, and its first change writes it as dates, said in the history.
    func test_aFileOfTheFirstForm_migratesOnItsFirstChange_andTheHistorySaysSo() throws {
        let first = """
            {
              "version": 1,
              "nextNumber": 5,
              "revision": 1,
              "items": [
                {"id":"11111111-1111-4111-8111-111111111111","number":1,"title":"Day","timestamp":1796274000,"allDay":true,"done":false},
                {"id":"22222222-2222-4222-8222-222222222222","number":2,"title":"Time","timestamp":1796274000,"allDay":false,"done":false},
                {"id":"33333333-3333-4333-8333-333333333333","number":3,"title":"Unsaid","timestamp":1796274000,"start":1796101200,"done":false},
                {"id":"44444444-4444-4444-8444-444444444444","number":4,"title":"Imported","done":false,"project":"home","taskwarrior:start":"20200102T120000Z"}
              ]
            }

            """
        try Data(first.utf8).write(to: fileURL)
        todo.environment["TZ"] = "America/New_York"
        // (A hint that item 3 waits for its start follows while that day is ahead.)
        XCTAssertTrue(
            try run("list", "--all").stdout.hasPrefix(
                "1 [ ] Day                    12/03/26\n2 [ ] Time                   12/03/26 00:00\n3 [ ] Unsaid                 12/03/26\n4 [>] Imported project:home\n"
            ))
        XCTAssertEqual(String(decoding: try Data(contentsOf: fileURL), as: UTF8.self), first, "reading changes nothing")
        try run("add", "New")
        let file = String(decoding: try Data(contentsOf: fileURL), as: UTF8.self)
        XCTAssertTrue(file.hasPrefix("{\n  \"version\": 2,"), file)
        XCTAssertTrue(file.contains(#""title":"Day","dueDate":"2026-12-03","done":false}"#), file)
        XCTAssertTrue(file.contains(#""title":"Time","timestamp":1796274000,"done":false}"#), file)
        XCTAssertTrue(
            file.contains(#""title":"Unsaid","dueDate":"2026-12-03","startDate":"2026-12-01","done":false}"#), file)
        // Other programs' members move apart: Taskwarrior's start (begun there: in progress); what
        // an import kept without saying whose is todo's field now, as a project.
        XCTAssertTrue(
            file.contains(
                #""title":"Imported","done":false,"inProgress":true,"project":"home","from":{"taskwarrior":{"start":"20200102T120000Z"}}}"#
            ), file)
        let task = try run("export", "--format", "taskwarrior").stdout
        XCTAssertTrue(
            task.contains(#""description":"Imported","status":"pending","start":"20200102T120000Z","project":"home"}"#),
            task)
        XCTAssertEqual(try run("list", "project:home").stdout, "4 [>] Imported project:home\n")
        XCTAssertTrue(
            try run("history").stdout.contains(
                "  Moved the file from version 1 to 2: 2 whole-day dues kept as the days they showed in America/New_York\n"
            ))
        todo.environment["TZ"] = "America/Los_Angeles"
        XCTAssertTrue(
            try run("list", "--all").stdout.hasPrefix(
                "1 [ ] Day                    12/03/26\n2 [ ] Time                   12/02/26 21:00\n3 [ ] Unsaid                 12/03/26\n4 [>] Imported project:home\n5 [ ] New\n"
            ))
    }

    /// Whole days of the first form at the very edges of the years todo keeps, first changed in a
    /// zone where their day lies outside them (issue 50: 0001-01-01 written in New York, read in
    /// Los Angeles, became "0000-12-31"; a first day of 10000 was written "0000-01-01"; every
    /// command then exited 4): they stay the instants they were, and the list stays readable.
    func test_aFirstFormDayAtTheEdgeOfTheYears_staysTheInstantItWas_andTheListStaysReadable() throws {
        try Data(
            """
            {"version": 1, "nextNumber": 3, "revision": 1, "items": [
              {"id":"11111111-1111-4111-8111-111111111111","number":1,"title":"First day","timestamp":-62135751838,"allDay":true,"done":false},
              {"id":"22222222-2222-4222-8222-222222222222","number":2,"title":"Last day","timestamp":253402329600,"allDay":true,"done":false}
            ]}

            """.utf8
        ).write(to: fileURL)
        todo.environment["TZ"] = "America/Los_Angeles"
        XCTAssertEqual(try run("add", "New").status, 0)
        let file = String(decoding: try Data(contentsOf: fileURL), as: UTF8.self)
        XCTAssertTrue(file.contains(#""title":"First day","timestamp":-62135751838,"done":false}"#), file)
        XCTAssertTrue(file.contains(#""title":"Last day","timestamp":253402329600,"done":false}"#), file)
        for arguments in [["list", "--all"], ["export"], ["show", "2"], ["check", "3"]] {
            let outcome = try todo.run(arguments)
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.stderr)")
        }
        // A year is never shown modulo 10,000.
        let shown = try run("show", "2").stdout
        XCTAssertTrue(shown.contains("Due:         01/01/10000 00:00 (Saturday)\n"), shown)
    }

    /// A local time whose instant lies past the years todo keeps is refused, not kept to show
    /// as year 0 elsewhere (issue 50).
    func test_aTimeTypedPastTheYears_isRefused() throws {
        todo.environment["TZ"] = "Etc/GMT+12"
        let outcome = try run("add", "p", "--due", "9999-12-31 23:59")
        XCTAssertEqual(outcome.status, 64)
        XCTAssertTrue(
            outcome.stderr.hasPrefix(
                "Error: invalid date '9999-12-31 23:59': that time is outside the years 1 to 9999 (in UTC), which todo keeps\n"
            ),
            outcome.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path))
        XCTAssertEqual(try run("add", "p", "--due", "9999-12-31 11:59").status, 0)
    }

    // MARK: Every exit code

    func test_everyExitCode() throws {
        try run("add", "A")
        XCTAssertEqual(try run("list").status, 0)
        XCTAssertEqual(try run("frobnicate").status, 64)
        XCTAssertEqual(try run("add", "B", "--due", "banana").status, 64)
        XCTAssertEqual(try run("show", "42").status, 2)
        XCTAssertEqual(
            try run("add", "A"),
            Outcome(
                status: 3, stdout: "", stderr: "Error: an open item with the same content already exists: 1 \"A\"\n"))

        let lockPath = directory.file("items.json.lock").path
        let descriptor = open(lockPath, O_RDWR)
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        todo.environment["TODO_LOCK_TIMEOUT"] = "0.2"
        XCTAssertEqual(try run("add", "B").status, 1)
        close(descriptor)
        XCTAssertEqual(try run("add", "B").status, 0, "the lock is free once its holder lets go")

        let before = try Data(contentsOf: directory.file("items.json"))
        try Data("[{\"id\": 1}]".utf8).write(to: directory.file("items.json"))
        XCTAssertEqual(
            try run("list"),
            Outcome(
                status: 4, stdout: "",
                stderr: """
                    Error: cannot read \(directory.file("items.json").path): [0].id: expected a string, found a number; the file was left unchanged

                    """))
        XCTAssertEqual(try Data(contentsOf: directory.file("items.json")), Data("[{\"id\": 1}]".utf8))
        XCTAssertNotEqual(before.count, 0)
    }

    // MARK: Scripts

    func test_anArgumentThatIsNotUTF8_isRefused_asOnStandardInput() throws {
        XCTAssertEqual(
            try todo.shell("todo add \"$(printf 'Caf\\351')\""),
            Outcome(
                status: 64, stdout: "",
                stderr: "Error: argument 2 ('Caf\u{FFFD}') is not valid UTF-8; nothing was changed\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path))
        XCTAssertEqual(try todo.shell("todo add \"$(printf 'Caf\\303\\251')\"").stdout, "Added 1: Café\n")
    }

    func test_clear_withStandardInputClosed_refusesInsteadOfWaiting() throws {
        try run("add", "A")

        XCTAssertEqual(try run("clear").status, 64)
        XCTAssertEqual(try run("list").stdout, "1 [ ] A\n")
    }

    func test_badArguments_neverCrash() throws {
        let hostile: [[String]] = [
            ["add", ""], ["add", "\u{0}"], ["check", "-1"], ["check", "99999999999999999999999"], ["show", "----"],
            ["edit", "1", "--coordinate", "nan,nan"], ["edit", "1", "--coordinate", "1e400,0"], ["--file"], ["--color"],
            ["add", "x", "--due", String(repeating: "9", count: 5000)], ["=", "--="], ["list", "--open=", "-"],
            ["add", "--", "--"], [String(repeating: "a", count: 100_000)]
        ]
        try run("add", "A")
        for arguments in hostile {
            let outcome = try todo.run(arguments)
            XCTAssertTrue([0, 2, 64].contains(outcome.status), "\(arguments.map { $0.prefix(20) }): \(outcome)")
            XCTAssertTrue(
                outcome.status == 0 || outcome.stderr.hasPrefix("Error: "), "\(arguments.map { $0.prefix(20) })")
        }
    }

    // MARK: Where the list lives

    func test_withoutTODO_FILE_theListIsInTheHomeDirectoryWithPrivateModes() throws {
        todo.environment["TODO_FILE"] = nil

        try run("add", "A")

        let file = directory.file(".local/share/todo/items.json").path
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        let todoDirectory = try FileManager.default.attributesOfItem(atPath: directory.file(".local/share/todo").path)
        XCTAssertEqual(todoDirectory[.posixPermissions] as? Int, 0o700)
    }
}
