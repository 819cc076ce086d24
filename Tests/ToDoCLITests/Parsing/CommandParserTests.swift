import Foundation
@testable import ToDoCLI
import ToDoCore
import TestSupport
import XCTest

final class CommandParserTests: XCTestCase {
    let newYork = TimeZone(identifier: "America/New_York")!
    /// Sunday 22 November 2026, 10:30 in New York.
    let now = Date(timeIntervalSince1970: 1_795_361_400)

    var parser: CommandParser {
        let now = self.now, zone = newYork
        return CommandParser { DueDateParser(now: now, timeZone: zone) }
    }

    func midnight(_ text: String) throws -> Double {
        try DueDateParser(now: now, timeZone: newYork).parse(text)
    }

    // MARK: Commands

    func test_add_withEveryOption() throws {
        let invocation = try parser.parse(["add", "Call Mom", "--due", "01/10/22", "--description", "Sunday",
                                           "--location", "Home", "--address", "Main St 1", "--coordinate", "52.52,-13.405", "--json"])

        XCTAssertEqual(invocation.command, .add(AddRequest(
            titles: .argument("Call Mom"), itemDescription: "Sunday", timestamp: try midnight("01/10/22"),
            location: Location(name: "Home", address: "Main St 1", coordinate: Coordinate(latitude: 52.52, longitude: -13.405)),
            json: true)))
    }

    func test_add_joinsWordsAndTrimsTheTitle() throws {
        XCTAssertEqual(try parser.parse(["add", " Buy", "milk "]).command, .add(AddRequest(titles: .argument("Buy milk"))))
    }

    func test_add_dash_readsStandardInput() throws {
        XCTAssertEqual(try parser.parse(["add", "-", "--due=+1d"]).command,
                       .add(AddRequest(titles: .standardInput, timestamp: try midnight("tomorrow"))))
    }

    func test_doubleDash_endsOptions() throws {
        XCTAssertEqual(try parser.parse(["add", "--", "-5 push-ups", "--json"]).command,
                       .add(AddRequest(titles: .argument("-5 push-ups --json"))))
    }

    func test_optionsMayFollowOrPrecedePositionals() throws {
        XCTAssertEqual(try parser.parse(["add", "--due", "today", "Call", "Mom"]).command,
                       try parser.parse(["add", "Call", "Mom", "--due=today"]).command)
    }

    func test_globalOptions_standBeforeOrAfterTheCommand() throws {
        let before = try parser.parse(["--file", "a.json", "--color=never", "list"])
        let after = try parser.parse(["list", "--color", "never", "--file=a.json"])

        XCTAssertEqual(before, Invocation(command: .list(.all, json: false), fileOption: "a.json", color: .never, commandLine: ["list"]))
        XCTAssertEqual(after, before)
        XCTAssertEqual(try parser.parse(["add", "--file", "a.json", "--", "--file", "x"]).commandLine, ["add", "--", "--file", "x"],
                       "the history records the command without the global options")
    }

    func test_list_sections() throws {
        XCTAssertEqual(try parser.parse(["list"]).command, .list(.all, json: false))
        XCTAssertEqual(try parser.parse(["list", "--open"]).command, .list(.open, json: false))
        XCTAssertEqual(try parser.parse(["list", "--done", "--json"]).command, .list(.done, json: true))
        XCTAssertEqual(try parser.parse([]).command, .list(.all, json: false))
    }

    func test_references() throws {
        let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!

        XCTAssertEqual(try parser.parse(["show", "3"]).command, .show(.number(3), json: false))
        XCTAssertEqual(try parser.parse(["check", "1", "9f3c", id.uuidString.lowercased()]).command,
                       .check([.number(1), .idPrefix("9f3c"), .id(id)], json: false))
        XCTAssertEqual(try parser.parse(["uncheck", "2", "--json"]).command, .uncheck([.number(2)], json: true))
        XCTAssertEqual(try parser.parse(["remove", "4", "5"]).command, .remove([.number(4), .number(5)], json: false))
    }

    func test_edit_changes() throws {
        XCTAssertEqual(try parser.parse(["edit", "2", "--title", "New", "--no-due", "--description", "D"]).command,
                       .edit(EditRequest(reference: .number(2), title: "New", timestamp: .remove, itemDescription: .set("D"))))
        XCTAssertEqual(try parser.parse(["edit", "2", "--location", "Work", "--address", "A"]).command,
                       .edit(EditRequest(reference: .number(2), location: .set(Location(name: "Work", address: "A")))))
        XCTAssertEqual(try parser.parse(["edit", "2", "--no-address", "--coordinate", "1,2"]).command,
                       .edit(EditRequest(reference: .number(2), address: .remove,
                                         coordinate: .set(Coordinate(latitude: 1, longitude: 2)))))
        XCTAssertEqual(try parser.parse(["edit", "2", "--no-location", "--no-description"]).command,
                       .edit(EditRequest(reference: .number(2), itemDescription: .remove, location: .remove)))
    }

    func test_clear_helpAndVersion() throws {
        XCTAssertEqual(try parser.parse(["clear"]).command, .clear(doneOnly: false, confirmed: false))
        XCTAssertEqual(try parser.parse(["clear", "--done", "--yes"]).command, .clear(doneOnly: true, confirmed: true))
        XCTAssertEqual(try parser.parse(["--help"]).command, .help(nil))
        XCTAssertEqual(try parser.parse(["-h"]).command, .help(nil))
        XCTAssertEqual(try parser.parse(["help"]).command, .help(nil))
        XCTAssertEqual(try parser.parse(["help", "edit"]).command, .help(CommandTable.edit))
        XCTAssertEqual(try parser.parse(["edit", "--help"]).command, .help(CommandTable.edit))
        XCTAssertEqual(try parser.parse(["add", "--due", "banana", "-h"]).command, .help(CommandTable.add))
        XCTAssertEqual(try parser.parse(["--version"]).command, .version)
    }

    // MARK: Usage errors

    func test_usageErrors() {
        let cases: [([String], String, CommandSpec?)] = [
            (["lst"], "unknown command 'lst'. Did you mean 'list'?", nil),
            (["frobnicate"], "unknown command 'frobnicate'", nil),
            (["add", "x", "--dew", "1"], "unknown option '--dew'. Did you mean '--due'?", CommandTable.add),
            (["add", "-5 push-ups"], "unknown option '-5 push-ups' (a title or text that starts with '-' goes after '--')", CommandTable.add),
            (["list", "--jsn"], "unknown option '--jsn'. Did you mean '--json'?", CommandTable.list),
            (["--verbose"], "unknown option '--verbose'", nil),
            (["add"], "missing '<title>'", CommandTable.add),
            (["add", "  "], "the title is empty", CommandTable.add),
            (["add", "a\nb"], "the title must be a single line: 'a\nb'", CommandTable.add),
            (["add", "x", "--due"], "missing value for '--due <date>'", CommandTable.add),
            (["add", "x", "--due", "--json"], "missing value for '--due <date>'", CommandTable.add),
            (["add", "x", "--due", "1/1/22", "--due", "2/2/22"], "'--due' was given more than once", CommandTable.add),
            (["list", "--json=yes"], "'--json' takes no value", CommandTable.list),
            (["list", "--open", "--done"], "'--open' and '--done' cannot be used together", CommandTable.list),
            (["list", "extra"], "unexpected argument 'extra'", CommandTable.list),
            (["show"], "missing '<ref>'", CommandTable.show),
            (["show", "1", "2"], "unexpected argument '2'", CommandTable.show),
            (["check", "abc"], "\"abc\" is not an item number, id, or id prefix of at least 4 characters", CommandTable.check),
            (["add", "x", "--location", "Home", "--coordinate", "91,0"],
             "invalid coordinate '91,0'; latitude must be within -90...90 and longitude within -180...180", CommandTable.add),
            (["add", "x", "--location", "Home", "--coordinate", "52.5"],
             "invalid coordinate '52.5'; expected <latitude>,<longitude> in degrees, as 52.52,13.405", CommandTable.add),
            (["add", "x", "--address", "Main St"], "'--address' needs '--location <name>'", CommandTable.add),
            (["add", "x", "--location", " "], "the location name is empty", CommandTable.add),
            (["edit", "1"], "nothing to change; give at least one option, as --title or --due", CommandTable.edit),
            (["edit", "1", "--due", "today", "--no-due"], "'--due' and '--no-due' cannot be used together", CommandTable.edit),
            (["edit", "1", "--no-location", "--address", "x"], "'--address' and '--no-location' cannot be used together",
             CommandTable.edit),
            (["help", "lisst"], "unknown command or topic 'lisst'. Did you mean 'list'?", CommandTable.help),
            (["--color", "sometimes", "list"], "invalid value 'sometimes' for '--color'; use auto, always or never", CommandTable.list),
        ]
        for (arguments, message, command) in cases {
            XCTAssertThrowsError(try parser.parse(arguments), "\(arguments)") { error in
                let error = error as? UsageError
                XCTAssertEqual(error?.message, message, "\(arguments)")
                XCTAssertEqual(error?.command?.name, command?.name, "\(arguments)")
            }
        }
    }

    func test_invalidDate_listsTheAcceptedForms() {
        XCTAssertThrowsError(try parser.parse(["add", "x", "--due", "13/45/22"]),
                             UsageError(message: "invalid date '13/45/22'", command: CommandTable.add,
                                        detail: "Accepted forms: " + DueDateParser.acceptedForms(.monthFirst)))
    }

    func test_theDateParserIsOnlyMadeWhenADateIsGiven() throws {
        let failing = CommandParser { () throws(UsageError) in throw UsageError(message: "bad TZ", showsUsage: false) }

        XCTAssertEqual(try failing.parse(["add", "x"]).command, .add(AddRequest(titles: .argument("x"))))
        XCTAssertThrowsError(try failing.parse(["add", "x", "--due", "today"]), UsageError(message: "bad TZ", showsUsage: false))
    }
}
