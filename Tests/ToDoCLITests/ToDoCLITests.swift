import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// The entry point: help, version, how errors reach the user, settings, and the exit codes that do
/// not belong to one command.
final class ToDoCLITests: HarnessTestCase {
    // MARK: Help and version

    func test_version() {
        XCTAssertOutcome(todo.run("--version"), Outcome(status: 0, stdout: "todo 0.1.0\n", stderr: ""))
    }

    func test_commandHelp_isOnStandardOutputWithExitCode0() {
        XCTAssertOutcome(
            todo.run("help", "show"),
            Outcome(
                status: 0,
                stdout: """
                    OVERVIEW: Show every field of items.

                    USAGE: todo show <ref> ... [--json]

                    ALIASES: info

                    ARGUMENTS:
                      <ref>             An item's number, its id, or a unique prefix of its id (4
                                        characters or more); 1-3 for a range of numbers, 4,6 for
                                        several.

                    OPTIONS:
                      --json            Print the items as JSON in the store's item schema instead
                                        of text.
                      --file <path>     Use the list in this file (overrides TODO_FILE).
                      --color <when>    Colour the output: auto (on a terminal without NO_COLOR),
                                        always or never.
                      -h, --help        Show help information.

                    """, stderr: ""))
        XCTAssertEqual(todo.run("show", "--help"), todo.run("help", "show"))
        XCTAssertEqual(todo.run("show", "-h"), todo.run("help", "show"))
    }

    func test_everyCommandHasHelpListingEachOfItsOptions() {
        for command in CommandRegistry.all {
            let outcome = todo.run(command.name, "--help")
            XCTAssertEqual(outcome.status, 0, command.name)
            XCTAssertTrue(
                outcome.stdout.hasPrefix("OVERVIEW: \(command.summary)\n\nUSAGE: \(command.usage)\n"), command.name)
            for option in command.options {
                XCTAssertTrue(outcome.stdout.contains("  \(option.synopsis)  "), "\(command.name) \(option.flag)")
            }
        }
    }

    func test_overview_listsCommandsTopicsAndExitCodes() {
        let outcome = todo.run("--help")

        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome, todo.run("help"))
        XCTAssertTrue(
            outcome.stdout.hasPrefix("OVERVIEW: A to-do list for the command line.\n\nUSAGE: todo [--file <path>]"))
        for command in CommandRegistry.all {
            XCTAssertTrue(
                outcome.stdout.contains(
                    "\n  \(command.name)" + String(repeating: " ", count: 18 - command.name.count)
                        + command.summary + "\n"), command.name)
        }
        for topic in HelpTopics.all {
            XCTAssertTrue(
                outcome.stdout.contains(
                    "\n  \(topic.name)" + String(repeating: " ", count: 18 - topic.name.count)
                        + topic.summary + "\n"), topic.name)
        }
        XCTAssertTrue(
            outcome.stdout.contains(
                """
                EXIT CODES:
                  0                 success
                  1                 any other failure (reading or writing a file, standard
                                    output, lock timeout, a sync server unreachable, refusing
                                    the password or answering wrongly)
                  2                 no item matches a ref, or an id prefix matches several
                  3                 a rule of the list refused the change (an open twin, open
                                    subtasks left behind, a repeat todo cannot follow, a sync
                                    deleting too much)
                  4                 the data file cannot be read or is from a newer todo, or a
                                    file of the list is not one todo uses (a FIFO or device,
                                    over 1 GiB, another user's, a planted link), or another
                                    program cut it short while todo read it
                  5                 undo or redo refused: nothing to take back, or a later
                                    change depends on it
                  64                usage error: unknown command or option, bad argument,
                                    invalid date or setting
                  65                the source of an import is malformed (nothing was imported)
                """))
    }

    func test_helpStillWorksWithABadSetting() {
        todo.environment["TZ"] = "Mars/Olympus_Mons"

        XCTAssertEqual(todo.run("help").status, 0)
        XCTAssertEqual(todo.run("add", "--help").status, 0)
    }

    // MARK: Usage errors

    func test_unknownCommand_showsTheTopUsageAndASuggestion() {
        XCTAssertOutcome(
            todo.run("lst"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: unknown command 'lst'. Did you mean 'list'?
                    Usage: todo [--file <path>] [--color <when>] <command> [<arguments>]
                      See 'todo --help' for more information.

                    """))
    }

    func test_invalidDate_listsTheFormsAndTheCommandUsage() {
        for text in ["13/45/22", "2022-02-30", "banana", "13/45", "feb 30"] {
            XCTAssertOutcome(
                todo.run("add", "x", "--due", text),
                Outcome(
                    status: 64, stdout: "",
                    stderr: """
                        Error: invalid date '\(text)'
                        Accepted forms: \(DueDateParser.acceptedForms(.monthFirst))
                        Usage: todo add <title> ... [options]
                          See 'todo add --help' for more information.

                        """))
        }
        XCTAssertNil(todo.fileContents)
    }

    // MARK: Settings

    func test_dayFirstOrder_readsAndShowsDayFirst() {
        todo.environment["TODO_DATE_ORDER"] = "dmy"

        XCTAssertEqual(todo.succeed("add", "A", "--due", "01/10/22"), "Added 1: A (due Saturday 01/10/22)\n")
        todo.environment["TODO_DATE_ORDER"] = nil
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A  10/01/22\n")
    }

    func test_timeZone_decidesWhichDayADateIs() {
        todo.succeed("add", "A", "--due", "01/10/22 00:00")
        // A whole day stays a whole day where a time moves with the zone.
        todo.succeed("add", "B", "--due", "01/10/22")

        todo.environment["TZ"] = "Asia/Tokyo"
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A  01/10/22 14:00\n2 [ ] B  01/10/22\n")
        todo.environment["TZ"] = ""
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A  01/10/22 05:00\n2 [ ] B  01/10/22\n")
        todo.environment["TZ"] = ":UTC"
        XCTAssertEqual(todo.succeed("list"), "1 [ ] A  01/10/22 05:00\n2 [ ] B  01/10/22\n")
    }

    func test_badSettings_areErrorsWithExitCode64_forTheCommandsThatUseThem() {
        todo.succeed("add", "A")
        // The setting, its bad value, the error, a command that uses it, and one that does not.
        let cases: [(String, String, String, [String], [String]?)] = [
            (
                "TZ", "Mars/Olympus_Mons",
                "TZ is 'Mars/Olympus_Mons', which is not a known time zone; use a name such as 'Europe/Berlin' or 'UTC'",
                ["list"], nil
            ),
            (
                "TODO_DATE_ORDER", "ymd",
                "TODO_DATE_ORDER is 'ymd'; use 'mdy' (01/10/22 is January 10) or 'dmy' (October 1)",
                ["show", "1"], nil
            ),
            (
                "TODO_LOCK_TIMEOUT", "soon",
                "TODO_LOCK_TIMEOUT is 'soon'; use a number of seconds from 0 to 3600, as 10",
                ["check", "1"], ["list"]
            ),
            (
                "TODO_LOCK_TIMEOUT", "-1", "TODO_LOCK_TIMEOUT is '-1'; use a number of seconds from 0 to 3600, as 10",
                ["add", "B"], ["export"]
            ),
            (
                "TODO_IMPORT_MAX_MB", "0",
                "TODO_IMPORT_MAX_MB is '0'; use a whole number of megabytes from 1 to 1024, as 256",
                ["import", "https://example.test/list.json"], ["add", "B"]
            ),
            (
                "TODO_IMPORT_MAX_MB", "2048",
                "TODO_IMPORT_MAX_MB is '2048'; use a whole number of megabytes from 1 to 1024, as 256",
                ["import", "http://example.test/list.json"], ["list"]
            ),
            (
                "TODO_IMPORT_MAX_MB", "1.5",
                "TODO_IMPORT_MAX_MB is '1.5'; use a whole number of megabytes from 1 to 1024, as 256",
                ["import", "http://example.test/list.json"], ["show", "1"]
            ),
            (
                "TODO_HTTP_TIMEOUT", "x", "TODO_HTTP_TIMEOUT is 'x'; use a number of seconds above 0, as 5",
                ["import", "http://example.test/list.json"], ["list"]
            ),
            (
                "TODO_GEOCODER_URL", "nominatim.org",
                "TODO_GEOCODER_URL is 'nominatim.org'; use an http:// or https:// address, as https://nominatim.openstreetmap.org/search",
                ["edit", "1", "--location", "Home", "--address", "1 Main St"], ["list"]
            )
        ]
        for (name, value, message, using, notUsing) in cases {
            todo.environment[name] = value
            let before = todo.fileContents
            XCTAssertOutcome(todo.run(using, input: []), Outcome(status: 64, stdout: "", stderr: "Error: \(message)\n"))
            XCTAssertEqual(todo.fileContents, before)
            if let notUsing {
                XCTAssertEqual(todo.run(notUsing, input: []).status, 0, "\(name)=\(value) todo \(notUsing)")
            }
            todo.environment[name] = nil
        }
    }

    func test_fileOption_overridesTODO_FILE() throws {
        todo.succeed("--file", "other.json", "add", "A")

        XCTAssertNil(todo.fileContents)
        XCTAssertEqual(
            todo.succeed("list", "--file", todo.directory.appendingPathComponent("other.json").path), "1 [ ] A\n")
    }

    func test_withoutTODO_FILE_theListLivesUnderXDGDataHome() {
        todo.environment["TODO_FILE"] = nil
        todo.environment["XDG_DATA_HOME"] = todo.directory.appendingPathComponent("data").path

        todo.succeed("add", "A")

        XCTAssertTrue(
            FileManager.default.fileExists(atPath: todo.directory.appendingPathComponent("data/todo/items.json").path))
    }

    // MARK: Store failures

    func test_unreadableStore_exitsWith4AndLeavesTheFileAsItWas() throws {
        let corrupt = Data("{\"version\": 1, \"items\": [".utf8)
        try corrupt.write(to: todo.fileURL)

        for arguments in [["list"], ["add", "A"], ["check", "1"], ["clear", "--yes"]] {
            XCTAssertOutcome(
                todo.run(arguments, input: []),
                Outcome(
                    status: 4, stdout: "",
                    stderr: """
                        Error: cannot read \(todo.fileURL.path): unexpected end of file, expected a value at line 1, column 26 (byte 25); the file was left unchanged

                        """))
        }
        XCTAssertEqual(todo.fileContents, corrupt)
    }

    func test_newerStoreVersion_exitsWith4() throws {
        try Data(#"{"version": 4, "items": []}"#.utf8).write(to: todo.fileURL)

        XCTAssertEqual(todo.run("add", "A").status, 4)
    }

    func test_lockHeldTooLong_exitsWith1AndChangesNothing() throws {
        todo.succeed("add", "A")
        let before = todo.fileContents
        let lockPath = todo.fileURL.path + ".lock"
        let descriptor = open(lockPath, O_RDWR)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        todo.environment["TODO_LOCK_TIMEOUT"] = "0.1"

        XCTAssertOutcome(
            todo.run("add", "B"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: another todo process is changing the list (it has held \(lockPath) for more than 0.1 seconds); nothing was changed, try again

                    """))
        XCTAssertEqual(todo.fileContents, before)
    }

    func test_fileSystemFailure_exitsWith1() throws {
        try Data().write(to: todo.directory.appendingPathComponent("plain"))
        todo.environment["TODO_FILE"] = todo.directory.appendingPathComponent("plain/items.json").path

        XCTAssertOutcome(
            todo.run("add", "A"),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot create directory \(todo.directory.appendingPathComponent("plain").path): Not a directory

                    """))
    }

    func test_exitCodes_areDistinct() {
        XCTAssertEqual(Set(ExitCode.allCases.map(\.rawValue)).count, ExitCode.allCases.count)
    }
}
