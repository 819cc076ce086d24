import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// `todo export` and `todo import` in-process, with a scripted transport for URLs.
final class InterchangeCommandTests: HarnessTestCase {
    private func write(_ text: String, to name: String) throws -> String {
        let url = todo.directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A vdir as todoman and vdirsyncer keep one: one iCalendar file per item, named by its UID,
    /// beside the collection's `displayname` and `color`, and a sync tool's hidden temporary file.
    private func makeVdir() throws -> URL {
        let folder = todo.directory.appendingPathComponent("calendars/personal", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ lines: [String]) throws {
            try Data(lines.joined(separator: "\r\n").appending("\r\n").utf8).write(
                to: folder.appendingPathComponent(name))
        }
        try write(
            "3f4c5e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a.ics",
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todoman//ical//EN", "BEGIN:VTODO",
                "UID:3f4c5e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a", "SUMMARY:Water the plants", "DUE;VALUE=DATE:20261130",
                "STATUS:NEEDS-ACTION", "DTSTAMP:20261120T100000Z", "END:VTODO", "END:VCALENDAR"
            ])
        try write(
            "pay-rent@example.com.ics",
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todoman//ical//EN", "BEGIN:VTODO",
                "UID:pay-rent@example.com",
                "SUMMARY:Pay rent", "STATUS:COMPLETED", "COMPLETED:20261101T090000Z", "END:VTODO", "END:VCALENDAR"
            ])
        try Data("Personal\n".utf8).write(to: folder.appendingPathComponent("displayname"))
        try Data("#ff0000\n".utf8).write(to: folder.appendingPathComponent("color"))
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n".utf8).write(
            to: folder.appendingPathComponent(".pay-rent.ics.tmp"))
        return folder
    }

    func test_import_aVdirFolder_importsItsICalendarFilesAsOneSource() throws {
        _ = try makeVdir()
        XCTAssertOutcome(
            todo.run("import", "calendars/personal"),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Water the plants (due Monday 11/30/26)
                    Added 2: Pay rent
                    Imported 2 items from calendars/personal (ical).

                    """, stderr: ""))
        XCTAssertEqual(todo.succeed("list", "--done"), "2 [x] Pay rent\n")
        XCTAssertOutcome(
            todo.run("import", "--dry-run", "calendars/personal"),
            Outcome(
                status: 0,
                stdout: """
                    Skipped 3f4c5e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a.ics line 4 "Water the plants": its id is already in the list, as 1 "Water the plants"
                    Skipped pay-rent@example.com.ics line 4 "Pay rent": its id is already in the list, as 2 "Pay rent"
                    Would import 0 items from calendars/personal (ical); skipped 2; nothing was changed.

                    """, stderr: ""))
    }

    func test_import_aFolderThatIsNotAVdir_orABrokenFile_changesNothing() throws {
        let folder = try makeVdir()
        todo.succeed("add", "Mine")
        let before = todo.fileContents
        try FileManager.default.createDirectory(
            at: todo.directory.appendingPathComponent("notes/drafts"), withIntermediateDirectories: true)
        XCTAssertOutcome(
            todo.run("import", "notes"),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import notes: the folder has no .ics files; a vdir (todoman's, vdirsyncer's) has one per item; nothing was imported

                    """))
        XCTAssertEqual(todo.run("import", "--format", "todotxt", "calendars/personal").status, 64)
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\n".utf8).write(
            to: folder.appendingPathComponent("zz.ics"))
        XCTAssertOutcome(
            todo.run("import", "calendars/personal"),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import calendars/personal: zz.ics line 2: BEGIN:VTODO is never ended; nothing was imported

                    """))
        XCTAssertEqual(todo.fileContents, before)
    }

    /// Import sources that hung, ran out of memory or leaked another file (issue 50): a FIFO
    /// named `b.ics` in a vdir, a link to `/dev/zero`, `/dev/zero` itself, a `displayname` that
    /// is a link to a file outside the folder, and standard input past the import's cap. Each is
    /// refused at once, saying why; nothing is imported.
    func test_import_aFIFO_aDevice_aLinkOutOfTheFolder_andTooMuchInput_areRefused() throws {
        let folder = try makeVdir()
        todo.succeed("add", "Mine")
        let fifo = folder.appendingPathComponent("b.ics")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertOutcome(
            todo.run("import", "calendars/personal"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read calendars/personal: \(fifo.path) is not a regular file (a FIFO, a device or a socket), which todo does not read; nothing was imported

                    """))
        try FileManager.default.removeItem(at: fifo)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("b.ics").path, withDestinationPath: "/dev/zero")
        XCTAssertEqual(todo.run("import", "calendars/personal").status, 1)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("b.ics"))
        XCTAssertOutcome(
            todo.run("import", "/dev/zero"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read /dev/zero: /dev/zero is not a regular file (a FIFO, a device or a socket), which todo does not read; nothing was imported

                    """))
        // A calendar's name that is a link to another file would make that file's first line a list name.
        let secret = todo.directory.appendingPathComponent("secret")
        try Data("https://alice:hunter2@example.com\n".utf8).write(to: secret)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("displayname"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("displayname").path, withDestinationPath: secret.path)
        let account = todo.run("import", "calendars")
        XCTAssertFalse(account.stdout.contains("hunter2") || todo.succeed("lists").contains("hunter2"), "\(account)")
        todo.succeed("undo")
        // A link out of the folder is not read as one of its files either.
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("c.ics").path, withDestinationPath: secret.path)
        XCTAssertEqual(todo.run("import", "calendars/personal").status, 1)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("c.ics"))
        todo.environment["TODO_IMPORT_MAX_MB"] = "1"
        XCTAssertOutcome(
            todo.run(
                ["import", "-", "--format", "todotxt"], input: Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1)
            ),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read standard input: it is larger than 1 MB, the most todo imports (TODO_IMPORT_MAX_MB); nothing was imported

                    """))
        XCTAssertEqual(todo.succeed("list", "--all"), "1 [ ] Mine\n")
    }

    func test_export_writesEachFormatToStandardOutputOrAFile() throws {
        todo.succeed("add", "Call Mom", "--due", "01/10/22")
        todo.succeed("check", "1")
        todo.succeed("add", "Buy milk")
        let json = todo.run("export")
        XCTAssertEqual(json.status, 0)
        // The data file's own format, without the file's revision (which numbers its history).
        let file = String(decoding: try XCTUnwrap(todo.fileContents), as: UTF8.self)
            .replacingOccurrences(of: "  \"revision\": 3,\n", with: "")
        XCTAssertEqual(json.stdout, file)
        let todotxt = todo.succeed("export", "--format", "todotxt")
        let ids = todo.run("list", "--json").stdout.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #""id":""#) else { return nil }
            return String(line[range.upperBound...].prefix(36))
        }
        // By number, as todo.txt keeps its lines: a done line stays where it came.
        XCTAssertEqual(
            todotxt, "x 2026-11-22 2026-11-22 Call Mom due:2022-01-10 id:\(ids[1])\n2026-11-22 Buy milk id:\(ids[0])\n")
        XCTAssertTrue(
            todo.succeed("export", "--format", "ical").hasPrefix(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todo//todo \(HelpRenderer.version)//EN\r\n"))

        XCTAssertOutcome(
            todo.run("export", "--format", "todotxt", "--output", "out.txt"),
            Outcome(status: 0, stdout: "", stderr: "Exported 2 items to out.txt.\n"))
        XCTAssertEqual(
            try String(contentsOf: todo.directory.appendingPathComponent("out.txt"), encoding: .utf8), todotxt)
        // An export of the private list is private too, whatever the umask, and replaces the old file whole.
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: todo.directory.appendingPathComponent("out.txt").path)[
                .posixPermissions] as? Int,
            0o600)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: todo.directory.path).filter { $0.contains("out.txt") },
            ["out.txt"])
    }

    func test_export_errors() {
        XCTAssertOutcome(
            todo.run("export", "--format", "csv"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid value 'csv' for '--format'; use json, todotxt, ical or taskwarrior
                      --format <format>  json (the data file's format; the default), todotxt, ical or taskwarrior (what task import reads).
                      See 'todo export --help' for more information.

                    """))
        XCTAssertOutcome(
            todo.run("export", "--output", "no/such/dir/out.json"),
            Outcome(
                status: 1, stdout: "", stderr: "Error: cannot write no/such/dir/out.json: No such file or directory\n"))
    }

    func test_export_overTheListOrItsFiles_isRefused_andWritesNothing() throws {
        todo.succeed("add", "Call Mom")
        todo.succeed("add", "Buy milk")
        let path = todo.fileURL.path
        XCTAssertEqual(symlink(path + ".history", todo.directory.appendingPathComponent("linked").path), 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: todo.directory.path).filter {
            $0.contains("items.json")
        }
        let before = try files.map { try Data(contentsOf: todo.directory.appendingPathComponent($0)) }
        for output in [path, "items.json", "./items.json.history", "items.json.lock", ".items.json.spare", "linked"] {
            XCTAssertOutcome(
                todo.run("export", "--format", "todotxt", "--output", output),
                Outcome(
                    status: 64, stdout: "",
                    stderr: """
                        Error: '--output \(output)' is a file of the list itself; nothing was written, choose another file
                          --output <file>  Write to this file (replaced whole) instead of standard output.
                          See 'todo export --help' for more information.

                        """))
        }
        XCTAssertEqual(try files.map { try Data(contentsOf: todo.directory.appendingPathComponent($0)) }, before)
        XCTAssertEqual(todo.run("undo").status, 0, "the list and its history still work")
    }

    func test_export_toATerminal_showsControlCharacters_whileAPipeGetsTheExactBytes() {
        todo.succeed("add", "Bell\u{7} and \u{1B}[31mred\u{1B}[0m \u{9B}2J")
        XCTAssertEqual(
            todo.run(["export", "--format", "todotxt"], input: [], outputIsTerminal: true).stdout,
            "2026-11-22 Bell^G and ^[[31mred^[[0m \u{FFFD}2J id:\(todo.run("list", "--json").stdout.split(separator: "\"")[3])\n"
        )
        XCTAssertTrue(
            todo.run("export", "--format", "todotxt").stdout.hasPrefix(
                "2026-11-22 Bell\u{7} and \u{1B}[31mred\u{1B}[0m \u{9B}2J id:"))
    }

    /// `reminders show-all --format json` (keith/reminders-cli), written from its documented fields:
    /// what EKReminder+Encodable.swift encodes, with `ISO8601Format()` dates.
    static let remindersExport = """
        [
          {
            "externalId" : "5C2B8A52-1F3D-4C8E-9E4B-2D1F0A9B7C61",
            "title" : "Call Mom",
            "isCompleted" : false,
            "priority" : 1,
            "list" : "Family",
            "listId" : "8F0C7E2A-7D55-4E38-A8C4-2E3A4B5C6D7E",
            "notes" : "About Sunday",
            "dueDate" : "2026-11-24T17:00:00Z",
            "lastModified" : "2026-11-20T08:00:00Z",
            "creationDate" : "2026-11-19T08:00:00Z",
            "locationTitle" : "Home",
            "location" : "52.52, 13.405"
          },
          {
            "externalId" : "x-apple-reminderkit://REMCDReminder/9A7B",
            "title" : "Buy milk",
            "isCompleted" : true,
            "priority" : 0,
            "list" : "Groceries",
            "listId" : "1D2E3F40-5A6B-4C7D-8E9F-0A1B2C3D4E5F",
            "completionDate" : "2026-11-21T10:15:00Z",
            "creationDate" : "2026-11-18T09:00:00.250+01:00"
          }
        ]
        """

    func test_import_aRemindersCLIExport_keepsDuesNotesPlacesAndCompletion() throws {
        let warning =
            "Warning: 2 items of standard input had keys todo has no field for: lastModified, listId, priority;"
            + " they are kept with the items\n"
        XCTAssertOutcome(
            todo.run("import", "-", input: Self.remindersExport),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Call Mom (due Tuesday 11/24/26 12:00, at Home, priority high, list Family)
                    Added 2: Buy milk (list Groceries)
                    Imported 2 items from standard input (reminders).

                    """, stderr: warning))
        let manager = try JSONFileStore(fileURL: todo.fileURL).load()
        let call = try XCTUnwrap(manager.item(withNumber: 1)), milk = try XCTUnwrap(manager.item(withNumber: 2))
        XCTAssertEqual(call.id.uuidString, "5C2B8A52-1F3D-4C8E-9E4B-2D1F0A9B7C61")
        XCTAssertEqual(call.itemDescription, "About Sunday")
        XCTAssertEqual(call.timestamp, 1_795_539_600, "17:00 UTC")
        XCTAssertEqual(
            call.location, Location(name: "Home", coordinate: Coordinate(latitude: 52.52, longitude: 13.405)))
        XCTAssertEqual(call.createdAt, 1_795_075_200)
        XCTAssertFalse(call.done)
        XCTAssertTrue(milk.done, "a completed reminder arrives done")
        XCTAssertEqual(milk.completedAt, 1_795_256_100)
        XCTAssertEqual(milk.createdAt, 1_794_988_800.25, "08:00:00.25 UTC")
        // What todo has no field for stays with the item, the original id included.
        let json = todo.succeed("list", "--done", "--json")
        XCTAssertTrue(
            json.contains(
                #""from":{"reminders":{"externalId":"x-apple-reminderkit://REMCDReminder/9A7B","priority":0,"listId":"#),
            json)
        // A reminder's list is the item's list.
        XCTAssertEqual([call.list, milk.list], ["Family", "Groceries"])
        XCTAssertEqual(
            todo.run("import", "-", input: Self.remindersExport).stdout.components(separatedBy: "\n").last(where: {
                !$0.isEmpty
            }),
            "Imported 0 items from standard input (reminders); skipped 2.", "importing again adds nothing")
    }

    func test_import_JSONWithKeysTodoDoesNotKnow_warnsOnce_andKeepsThem() throws {
        let source = #"[{"title": "A", "priority": "H", "tags": ["x"]}, {"title": "B"}, {"title": "C", "tags": []}]"#
        XCTAssertOutcome(
            todo.run("import", "-", input: source),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: A (+x)
                    Added 2: B
                    Added 3: C
                    Imported 3 items from standard input (json).

                    """,
                stderr:
                    "Warning: 1 item of standard input had keys todo has no field for: priority; they are kept with the items\n"
            ))
        // A priority of another kind than todo's 1 to 9 is kept as it was, apart from todo's own fields
        // (the book's bare array is of the first form: what todo does not know is another program's).
        let json = todo.succeed("list", "--json")
        XCTAssertTrue(
            json.contains(#""title":"A","tags":["x"],"done":false,"#)
                && json.contains(#","from":{"import":{"priority":"H"}}}"#), json)
        todo.succeed("edit", "1", "--priority", "low")
        XCTAssertTrue(
            todo.succeed("list", "--json").contains(
                #""title":"A","priority":9,"tags":["x"],"done":false,"modifiedAt":1795361400,"from":{"import":{"priority":"H"}}}"#
            ),
            "todo's own priority beside the other, which stays as it came")
        XCTAssertEqual(
            todo.run("import", "-", input: #"[{"title": "D", "done": false}]"#).stderr, "",
            "known keys only: no warning")
    }

    /// A value of one reminder todo cannot read is a problem of that reminder: a warning, the
    /// value kept as it was; `--strict` refuses the source.
    func test_import_remindersWithDatesThatAreNotISO_warnsNamingTheField_andStrictRefuses() {
        let source =
            #"[{"externalId": "1", "title": "T", "isCompleted": false, "dueDate": "Monday, November 23, 2026 at 6:00 PM"}, "#
            + #"{"externalId": "2", "isCompleted": false}]"#
        XCTAssertOutcome(
            todo.run("import", "--strict", "-", input: source),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import standard input: reminder 1, dueDate: 'Monday, November 23, 2026 at 6:00 PM' is not an ISO 8601 date and time, as 2026-11-23T18:00:00Z; kept as it was (--strict refuses any problem); nothing was imported

                    """))
        XCTAssertNil(todo.fileContents)
        XCTAssertOutcome(
            todo.run("import", "-", input: source),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: T
                    Skipped reminder 2: the reminder has no title
                    Imported 1 item from standard input (reminders); skipped 1.

                    """,
                stderr: """
                    Warning: standard input reminder 1, dueDate: 'Monday, November 23, 2026 at 6:00 PM' is not an ISO 8601 date and time, as 2026-11-23T18:00:00Z; kept as it was
                    Warning: 1 item of standard input had keys todo has no field for: dueDate; they are kept with the items

                    """))
        // Kept apart from todo's own dueDate, and never read as it.
        XCTAssertTrue(
            todo.succeed("list", "--json").contains(
                #""from":{"reminders":{"dueDate":"Monday, November 23, 2026 at 6:00 PM""#))
    }

    func test_import_addsNewItems_skipsTheRest_andSaysWhy() throws {
        todo.succeed("add", "Buy milk")
        let path = try write(
            "Buy milk\n(A) Call Mom due:2022-01-10\nx 2022-01-09 Pay rent\nCall Mom again due:2022-01-10 +family @phone\n",
            to: "todo.txt")
        XCTAssertOutcome(
            todo.run("import", path),
            Outcome(
                status: 0,
                stdout: """
                    Added 2: Call Mom (due Monday 01/10/22, priority high)
                    Added 3: Pay rent
                    Added 4: Call Mom again +family @phone (due Monday 01/10/22)
                    Skipped line 1 "Buy milk": an open item has the same content: 1 "Buy milk"
                    Imported 3 items from \(path) (todotxt); skipped 1.

                    """, stderr: ""))
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ]   Buy milk
            2 [ ] H Call Mom                       01/10/22
            4 [ ]   Call Mom again +family @phone  01/10/22

            Done
            3 [x]   Pay rent

            """)
        let exported = todo.succeed("export", "--format", "todotxt")
        XCTAssertTrue(
            exported.contains("\n(A) Call Mom due:2022-01-10 id:"),
            "the priority first, no creation date made up: \(exported)")
        XCTAssertTrue(exported.contains("\nx 2022-01-09 Pay rent id:"), exported)
        XCTAssertTrue(
            exported.contains("\nCall Mom again due:2022-01-10 +family @phone id:"),
            "a project and a context come back as they came: \(exported)")
        XCTAssertEqual(
            todo.succeed("list", "@phone"), "4 [ ] Call Mom again +family @phone  01/10/22\n", "a context is a tag")
        XCTAssertEqual(todo.succeed("list", "--tag", "family"), "4 [ ] Call Mom again +family @phone  01/10/22\n")
    }

    func test_import_aProblemOfOneLine_isAWarning_andTheRestImports() throws {
        todo.succeed("add", "Buy milk")
        XCTAssertOutcome(
            todo.run(
                "import", "-",
                input: "Water\nFeed cat due:someday +pets\nx 2022-01-10 due:2022-01-11\nBuy milk\nBuy milk\n"),
            Outcome(
                status: 0,
                stdout: """
                    Added 2: Water
                    Added 3: Feed cat due:someday +pets
                    Skipped line 3: the line has no title
                    Skipped line 4 "Buy milk": an open item has the same content: 1 "Buy milk"
                    Skipped line 5 "Buy milk": an open item has the same content: 1 "Buy milk"
                    Imported 2 items from standard input (todotxt); skipped 3.

                    """,
                stderr: """
                    Warning: standard input line 2: 'due:someday' is not a date or time (expected YYYY-MM-DD or YYYY-MM-DDThh:mm); kept in the title

                    """))
    }

    func test_import_dryRun_changesNothing() throws {
        todo.succeed("add", "Buy milk")
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("import", "--dry-run", "-", input: "Buy milk\nWater\n"),
            Outcome(
                status: 0,
                stdout: """
                    Would add 2: Water
                    Skipped line 1 "Buy milk": an open item has the same content: 1 "Buy milk"
                    Would import 1 item from standard input (todotxt); skipped 1; nothing was changed.

                    """, stderr: ""))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_import_aMalformedSource_changesNothingAndNamesTheLine() throws {
        todo.succeed("add", "Buy milk")
        let before = todo.fileContents
        XCTAssertOutcome(
            todo.run("import", "--strict", "-", input: "Water\nFeed cat due:someday\n"),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import standard input: line 2: 'due:someday' is not a date or time (expected YYYY-MM-DD or YYYY-MM-DDThh:mm); kept in the title (--strict refuses any problem); nothing was imported

                    """))
        XCTAssertOutcome(
            todo.run("import", "--format", "json", "-", input: "[{\"title\": \"a\"},\n{\"title\": ]"),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import standard input: not JSON: unexpected ']', expected a value at line 2, column 11 (byte 27); nothing was imported

                    """))
        XCTAssertOutcome(
            todo.run("import", "--strict", "-", input: "[{\"title\": \"ok\"}, {\"title\": \"\"}]"),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import standard input: [1]: the title is empty; nothing was imported

                    """))
        XCTAssertOutcome(
            todo.run("import", "missing.json"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read missing.json: No such file or directory; nothing was imported

                    """))
        XCTAssertOutcome(
            todo.run("import", "."),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import .: the folder has no .ics files; a vdir (todoman's, vdirsyncer's) has one per item; nothing was imported

                    """))
        XCTAssertEqual(todo.fileContents, before)
        // Without --strict, an item that breaks a rule is skipped, said, and the rest imported.
        XCTAssertOutcome(
            todo.run("import", "-", input: "[{\"title\": \"ok\"}, {\"title\": \"\"}, {\"title\": \"also ok\"}]"),
            Outcome(
                status: 0,
                stdout: """
                    Added 2: ok
                    Added 3: also ok
                    Skipped [1]: the title is empty
                    Imported 2 items from standard input (json); skipped 1.

                    """, stderr: ""))
    }

    func test_import_fromAURL_usesTheTransportAndChecksTheStatus() throws {
        let transport = ScriptedTransport { request throws(HTTPError) in
            switch request.url.path {
            case "/items":
                return HTTPResponse(status: 200, body: Array(#"[{"title": "From the server", "done": false}]"#.utf8))
            case "/slow": throw .timedOut(seconds: 30)
            default: return HTTPResponse(status: 500, body: [])
            }
        }
        todo.transport = transport
        XCTAssertOutcome(
            todo.run("import", "https://api.example/items"),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: From the server
                    Imported 1 item from https://api.example/items (json).

                    """, stderr: ""))
        XCTAssertEqual(transport.requests.first?.timeout, 30)
        XCTAssertEqual(transport.requests.first?.headers["User-Agent"], "todo/\(HelpRenderer.version)")
        XCTAssertOutcome(
            todo.run("import", "https://api.example/broken"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read https://api.example/broken: the server answered HTTP 500; nothing was imported

                    """))
        XCTAssertOutcome(
            todo.run("import", "https://api.example/slow"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read https://api.example/slow: no answer within 30 seconds; nothing was imported

                    """))
        XCTAssertEqual(todo.run("import", "https://").status, 64)
    }

    /// Taskwarrior's own keys that are todo's too (`start`: begun; `parent`: the template of a
    /// recurring instance), and a user-defined attribute named like any of todo's, are kept apart
    /// from todo's fields: the list stays readable by every command, and each goes back to
    /// Taskwarrior under its own name. (The list used to be written with Taskwarrior's `start`
    /// where todo reads a number, and every later command exited 4.)
    func test_import_taskwarriorKeysNamedLikeTodos_keepTheListReadable_andGoBackOnExport() throws {
        let path = try write(
            """
            [{"uuid":"11111111-2222-3333-4444-555555555556","description":"A","status":"pending","entry":"20200101T120000Z","start":"20200102T120000Z"},
             {"uuid":"11111111-2222-3333-4444-555555555557","description":"B","status":"pending","entry":"20200101T120000Z","due":"20200105T120000Z",
              "parent":"11111111-2222-3333-4444-555555555558","imask":1,"recur":"weekly","location":"Office","number":7,"done":"no","allDay":"sure",
              "timestamp":"x","title":"T","uid":3}]
            """, to: "t.json")
        XCTAssertEqual(todo.run("import", path).status, 0)
        XCTAssertEqual(todo.run("list").stdout, "1 [>] A\n2 [ ] B  01/05/20 07:00 ↻\n")
        XCTAssertEqual(todo.run("add", "C").status, 0)
        XCTAssertEqual(todo.run("undo").status, 0)
        XCTAssertEqual(todo.run("show", "2").status, 0)
        let exported = todo.run("export", "--format", "taskwarrior").stdout
        guard case .array(let tasks)? = try? JSONValue(parsing: Array(exported.utf8)), tasks.count == 2,
            case .object(let first) = tasks[0], case .object(let second) = tasks[1]
        else { return XCTFail(exported) }
        XCTAssertEqual(first["start"], .string("20200102T120000Z"))
        // An instance without its template in the source is the series (`task import` makes a
        // template of it again): its recur is the repeat, and the template it named is gone.
        XCTAssertNil(second["parent"])
        XCTAssertEqual(second["recur"], .string("weekly"))
        for (key, value) in [
            ("location", JSONValue.string("Office")), ("done", .string("no")), ("allDay", .string("sure")),
            ("timestamp", .string("x")), ("title", .string("T"))
        ] {
            XCTAssertEqual(second[key], value, key)
        }
        XCTAssertEqual(second["number"], .number(7))
        XCTAssertEqual(second["uid"], .number(3))
        XCTAssertNil(first.keys.first { $0.contains(":") }, "no name of todo's own goes to Taskwarrior")
    }
}

/// `list` and `export` with filters, sorting and a limit.
final class ListQueryCommandTests: HarnessTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        todo.succeed("add", "Call Mom", "--due", "01/10/22")
        todo.succeed("add", "buy milk", "--description", "oat")
        todo.succeed("add", "Water", "--due", "2030-06-14 18:00", "--location", "Garden")
        todo.succeed("add", "Apples", "--due", "2030-06-14")
        todo.succeed("check", "2")
    }

    func test_list_filtersSortsAndLimits() {
        XCTAssertEqual(todo.succeed("list", "--overdue"), "1 [ ] Call Mom  01/10/22\n")
        // A whole day (Apples) sorts after that day's times (Water at 18:00): reversed, before them.
        XCTAssertEqual(
            todo.succeed("list", "--sort", "due", "--reverse"),
            """
            4 [ ] Apples    06/14/30
            3 [ ] Water     06/14/30 18:00  @Garden
            1 [ ] Call Mom  01/10/22

            Done
            2 [x] buy milk

            """)
        XCTAssertEqual(
            todo.succeed("list", "--due-after", "2030-06-14 17:00"), "3 [ ] Water  06/14/30 18:00  @Garden\n")
        XCTAssertEqual(
            todo.succeed("list", "--due-before", "06/14/30", "--due-after", "01/09/22"), "1 [ ] Call Mom  01/10/22\n")
        XCTAssertEqual(
            todo.succeed("list", "--sort", "title", "--limit", "2", "--open"),
            "4 [ ] Apples    06/14/30\n1 [ ] Call Mom  01/10/22\n")
        XCTAssertTrue(todo.succeed("list", "--search", "OAT", "--json").contains(#""title":"buy milk""#))
        XCTAssertEqual(todo.succeed("export", "--format", "todotxt", "--no-due").prefix(2), "x ")
    }

    func test_list_badQueries_areUsageErrors() {
        // The error, and the one line of help it is about: the option's, else the short usage.
        let more = "  See 'todo list --help' for more information.\n"
        XCTAssertOutcome(
            todo.run("list", "--sort", "size"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid value 'size' for '--sort'; use number, due, title, created, priority or project
                      --sort <key>  Sort open and done items each by number, due, title, created, priority (high first) or project.

                    """ + more))
        XCTAssertOutcome(
            todo.run("list", "--limit", "-1"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid value '-1' for '--limit'; use a number of items, as 10
                      --limit <n>  Show at most n items, open ones first.

                    """ + more))
        XCTAssertEqual(todo.run("list", "--due-before", "soon").stderr.prefix(32), "Error: invalid date 'soon'\nAccep")
        XCTAssertOutcome(
            todo.run("list", "--no-due", "--overdue"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: '--no-due' and '--overdue' cannot be used together
                      --overdue  Only open items whose due has passed: a time earlier than now, or a day before today.

                    """ + more))
        XCTAssertOutcome(
            todo.run("list", "--priority", "urgent"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: invalid priority 'urgent' for '--priority'; use high, medium, low (or H, M, L), 1 (highest) to 9 (lowest), a todo.txt letter A to Z, or none
                      --priority <level>  \(QueryOptions.priority.help)

                    """ + more))
        XCTAssertOutcome(
            todo.run("list", "--tag", ""),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: the value of '--tag' is empty; a tag is one word, as home
                      --tag <tag>...  \(QueryOptions.tag.help)

                    """ + more))
        XCTAssertOutcome(
            todo.run("list", "pri:urgent"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: cannot read 'pri:urgent': use H, M or L (high, medium, low), 1 (highest) to 9 (lowest), a todo.txt letter A to Z, or none
                    Usage: todo list [<filter> ...] [options]

                    """ + more))
    }
}
