import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

final class CommandParserTests: XCTestCase {
    let newYork = TimeZone(identifier: "America/New_York")!
    /// Sunday 22 November 2026, 10:30 in New York.
    let now = Date(timeIntervalSince1970: 1_795_361_400)

    var parser: CommandParser {
        let now = self.now, zone = newYork
        return CommandParser { DueDateParser(now: now, timeZone: zone) }
    }

    /// The command `arguments` parse to, as `type`; `nil` when they parse to another command.
    func parsed<Command: ToDoCommand>(_ arguments: [String], as type: Command.Type) throws -> Command? {
        try parser.parse(arguments).command as? Command
    }

    func midnight(_ text: String) throws -> Double {
        try DueDateParser(now: now, timeZone: newYork).parse(text)
    }

    // MARK: Commands

    func test_add_withEveryOption() throws {
        let invocation = try parser.parse([
            "add", "Call Mom", "--due", "01/10/22", "--description", "Sunday",
            "--location", "Home", "--address", "Main St 1", "--coordinate", "52.52,-13.405", "--json"
        ])

        XCTAssertEqual(
            invocation.command as? AddCommand,
            AddCommand(
                titles: .argument("Call Mom"), itemDescription: "Sunday", due: .day(2022, 1, 10),
                location: Location(
                    name: "Home", address: "Main St 1", coordinate: Coordinate(latitude: 52.52, longitude: -13.405)),
                json: true))
    }

    func test_add_joinsWordsAndTrimsTheTitle() throws {
        XCTAssertEqual(
            try parsed(["add", " Buy", "milk "], as: AddCommand.self), AddCommand(titles: .argument("Buy milk")))
    }

    func test_add_dash_readsStandardInput() throws {
        XCTAssertEqual(
            try parsed(["add", "-", "--due=+1d"], as: AddCommand.self),
            AddCommand(titles: .standardInput, due: .day(2026, 11, 23)))
        XCTAssertEqual(
            try parsed(["add", "A", "--due", "01/10/22 00:00", "--repeat", "every 2 weeks"], as: AddCommand.self),
            AddCommand(
                titles: .argument("A"), due: .time(try midnight("01/10/22")), repeatRule: "FREQ=WEEKLY;INTERVAL=2"))
    }

    func test_doubleDash_endsOptions() throws {
        XCTAssertEqual(
            try parsed(["add", "--", "-5 push-ups", "--json"], as: AddCommand.self),
            AddCommand(titles: .argument("-5 push-ups --json")))
    }

    func test_optionsMayFollowOrPrecedePositionals() throws {
        XCTAssertEqual(
            try parsed(["add", "--due", "today", "Call", "Mom"], as: AddCommand.self),
            try parsed(["add", "Call", "Mom", "--due=today"], as: AddCommand.self))
    }

    func test_globalOptions_standBeforeOrAfterTheCommand() throws {
        let before = try parser.parse(["--file", "a.json", "--color=never", "list"])
        let after = try parser.parse(["list", "--color", "never", "--file=a.json"])

        XCTAssertEqual(
            before, Invocation(command: ListItemsCommand(), fileOption: "a.json", color: .never, commandLine: ["list"]))
        XCTAssertEqual(after, before)
        XCTAssertEqual(
            try parser.parse(["add", "--file", "a.json", "--", "--file", "x"]).commandLine,
            ["add", "--", "--file", "x"],
            "the history records the command without the global options")
    }

    func test_list_sections() throws {
        XCTAssertEqual(try parsed(["list"], as: ListItemsCommand.self), ListItemsCommand(section: .all, json: false))
        XCTAssertEqual(
            try parsed(["list", "--open"], as: ListItemsCommand.self), ListItemsCommand(section: .open, json: false))
        XCTAssertEqual(
            try parsed(["list", "--done", "--json"], as: ListItemsCommand.self),
            ListItemsCommand(section: .done, json: true))
        XCTAssertEqual(try parsed([], as: ListItemsCommand.self), ListItemsCommand(section: .all, json: false))
    }

    func test_references() throws {
        let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!

        XCTAssertEqual(try parsed(["show", "3"], as: ShowCommand.self), ShowCommand(references: [.number(3)]))
        XCTAssertEqual(
            try parsed(["check", "1", "9f3c", id.uuidString.lowercased()], as: CheckCommand.self),
            CheckCommand(references: [.number(1), .idPrefix("9f3c"), .id(id)], json: false))
        XCTAssertEqual(
            try parsed(["uncheck", "2", "--json"], as: UncheckCommand.self),
            UncheckCommand(references: [.number(2)], json: true))
        XCTAssertEqual(
            try parsed(["remove", "4", "5"], as: RemoveCommand.self),
            RemoveCommand(references: [.number(4), .number(5)], json: false))
    }

    func test_edit_changes() throws {
        XCTAssertEqual(
            try parsed(["edit", "2", "--title", "New", "--no-due", "--description", "D"], as: EditCommand.self),
            EditCommand(reference: .number(2), edit: ItemEdit(title: "New", due: .remove, itemDescription: .set("D"))))
        XCTAssertEqual(
            try parsed(["edit", "2", "--location", "Work", "--address", "A"], as: EditCommand.self),
            EditCommand(reference: .number(2), edit: ItemEdit(location: .set(Location(name: "Work", address: "A")))))
        XCTAssertEqual(
            try parsed(["edit", "2", "--no-address", "--coordinate", "1,2"], as: EditCommand.self),
            EditCommand(
                reference: .number(2),
                edit: ItemEdit(address: .remove, coordinate: .set(Coordinate(latitude: 1, longitude: 2)))))
        XCTAssertEqual(
            try parsed(["edit", "2", "--no-location", "--no-description"], as: EditCommand.self),
            EditCommand(reference: .number(2), edit: ItemEdit(itemDescription: .remove, location: .remove)))
    }

    func test_clear_helpAndVersion() throws {
        XCTAssertEqual(try parsed(["clear"], as: ClearCommand.self), ClearCommand(doneOnly: false, confirmed: false))
        XCTAssertEqual(
            try parsed(["clear", "--done", "--yes"], as: ClearCommand.self),
            ClearCommand(doneOnly: true, confirmed: true))
        XCTAssertEqual(try parsed(["--help"], as: HelpCommand.self), HelpCommand(subject: .overview))
        XCTAssertEqual(try parsed(["-h"], as: HelpCommand.self), HelpCommand(subject: .overview))
        XCTAssertEqual(try parsed(["help"], as: HelpCommand.self), HelpCommand(subject: .overview))
        XCTAssertEqual(
            try parsed(["help", "edit"], as: HelpCommand.self), HelpCommand(subject: .command(EditCommand.spec)))
        XCTAssertEqual(
            try parsed(["edit", "--help"], as: HelpCommand.self), HelpCommand(subject: .command(EditCommand.spec)))
        XCTAssertEqual(
            try parsed(["add", "--due", "banana", "-h"], as: HelpCommand.self),
            HelpCommand(subject: .command(AddCommand.spec)))
        XCTAssertEqual(try parsed(["help", "--man"], as: HelpCommand.self), HelpCommand(subject: .manual))
        XCTAssertEqual(try parsed(["--version"], as: VersionCommand.self), VersionCommand())
    }

    /// Every command in the registry is parsed by its own type, named as its spec.
    func test_everyCommand_isReadByItsOwnType() throws {
        let samples = [
            "add": ["add", "x"], "list": ["list"], "show": ["show", "1"], "check": ["check", "1"],
            "uncheck": ["uncheck", "1"],
            "edit": ["edit", "1", "--title", "y"], "remove": ["remove", "1"], "clear": ["clear"], "undo": ["undo"],
            "redo": ["redo"], "history": ["history"], "agenda": ["agenda"], "export": ["export"],
            "import": ["import", "f"],
            "completion": ["completion", "bash"], "sync": ["sync"], "help": ["help"], "next": ["next"],
            "start": ["start", "1"],
            "stop": ["stop", "1"], "postpone": ["postpone", "1", "2d"], "pri": ["pri", "1", "A"],
            "depri": ["depri", "1"],
            "append": ["append", "1", "x"], "prepend": ["prepend", "1", "x"], "annotate": ["annotate", "1", "x"],
            "remind": ["remind"], "lists": ["lists"], "projects": ["projects"], "tags": ["tags"],
            "ui": ["ui", "+home", "--list", "Work"]
        ]
        XCTAssertEqual(Set(samples.keys), Set(CommandRegistry.all.map(\.name)))
        for type in CommandRegistry.commands {
            let command = try parser.parse(try XCTUnwrap(samples[type.spec.name])).command
            XCTAssertTrue(Swift.type(of: command) == type, type.spec.name)
        }
    }

    /// The verbs of Taskwarrior and todo.sh, and any start of a command's name that starts no other.
    func test_aliasesAndShortenedNames_nameTheirCommands() throws {
        XCTAssertEqual(try parsed(["ls", "--open"], as: ListItemsCommand.self), ListItemsCommand(section: .open))
        XCTAssertEqual(try parsed(["done", "1"], as: CheckCommand.self), CheckCommand(references: [.number(1)]))
        XCTAssertEqual(try parsed(["do", "1"], as: CheckCommand.self), CheckCommand(references: [.number(1)]))
        for verb in ["rm", "del", "delete", "rem"] {
            XCTAssertEqual(
                try parsed([verb, "2"], as: RemoveCommand.self), RemoveCommand(references: [.number(2)]), verb)
        }
        XCTAssertEqual(try parsed(["info", "3"], as: ShowCommand.self), ShowCommand(references: [.number(3)]))
        XCTAssertEqual(
            try parsed(["mod", "3", "--title", "T"], as: EditCommand.self),
            EditCommand(reference: .number(3), edit: ItemEdit(title: "T")))
        XCTAssertEqual(try parsed(["hist"], as: HistoryCommand.self), HistoryCommand())
        XCTAssertEqual(try parsed(["exp"], as: ExportCommand.self), ExportCommand())
        XCTAssertEqual(
            try parsed(["help", "ls"], as: HelpCommand.self), HelpCommand(subject: .command(ListItemsCommand.spec)))
        XCTAssertEqual(try parser.parse(["done", "1"]).commandLine, ["done", "1"], "the history records what was typed")
    }

    /// `todo --open` is `todo list --open`, as `todo` is `todo list`.
    func test_listOptionsWithoutACommand_listTheItems() throws {
        XCTAssertEqual(try parsed(["--open"], as: ListItemsCommand.self), ListItemsCommand(section: .open))
        XCTAssertEqual(try parsed(["--json"], as: ListItemsCommand.self), ListItemsCommand(json: true))
        var query = ItemQuery()
        query.search = "milk"
        XCTAssertEqual(
            try parsed(["--file", "a.json", "--search", "milk"], as: ListItemsCommand.self),
            ListItemsCommand(query: query))
    }

    func test_rangesAndListsOfRefs() throws {
        XCTAssertEqual(
            try parsed(["check", "1-3"], as: CheckCommand.self),
            CheckCommand(references: [.number(1), .number(2), .number(3)]))
        XCTAssertEqual(
            try parsed(["remove", "4,6", "9"], as: RemoveCommand.self),
            RemoveCommand(references: [.number(4), .number(6), .number(9)]))
        XCTAssertEqual(
            try parsed(["show", "2-2,9f3c"], as: ShowCommand.self),
            ShowCommand(references: [.number(2), .idPrefix("9f3c")]))
        XCTAssertEqual(
            try parsed(["uncheck", "9f3c-4b5a"], as: UncheckCommand.self),
            UncheckCommand(references: [.idPrefix("9f3c-4b5a")]),
            "an id prefix with a dash is not a range")
    }

    // MARK: Usage errors

    func test_usageErrors() {
        let cases: [([String], String, CommandSpec?)] = [
            (["lst"], "unknown command 'lst'. Did you mean 'list'?", nil),
            (["un", "1"], "'un' could be 'uncheck' or 'undo'; type more of it", nil),
            (["re"], "'re' could be 'remind', 'remove' or 'redo'; type more of it", nil),
            (["tidy"], "unknown command 'tidy'", nil),
            (["mood"], "unknown command 'mood'. Did you mean 'mod'?", nil),
            (["aad"], "unknown command 'aad'. Did you mean 'add'?", nil),
            (["cheque"], "unknown command 'cheque'", nil),
            (["lits"], "unknown command 'lits'. Did you mean 'list'?", nil),
            (["check", "3-1"], "invalid range '3-1'; use the lower number first, as 1-3", CheckCommand.spec),
            (["check", "1-20000"], "the range '1-20000' names more than 10000 items", CheckCommand.spec),
            (
                ["check", "1,,2"], "\"\" is not an item number, id, or id prefix of at least 4 characters",
                CheckCommand.spec
            ),
            (["--json", "list"], "unknown option '--json'", nil),
            (["frobnicate"], "unknown command 'frobnicate'", nil),
            (["add", "x", "--dew", "1"], "unknown option '--dew'. Did you mean '--due'?", AddCommand.spec),
            (
                ["add", "-5 push-ups"],
                "unknown option '-5 push-ups' (a title or text that starts with '-' goes after '--')", AddCommand.spec
            ),
            (["list", "--jsn"], "unknown option '--jsn'. Did you mean '--json'?", ListItemsCommand.spec),
            (["--verbose"], "unknown option '--verbose'", nil),
            (["add"], "missing '<title>'", AddCommand.spec),
            (["add", "  "], "the title is empty", AddCommand.spec),
            (["add", "a\nb"], "the title must be a single line: 'a\nb'", AddCommand.spec),
            (["add", "x", "--due"], "missing value for '--due <date>'", AddCommand.spec),
            (["add", "x", "--due", "--json"], "missing value for '--due <date>'", AddCommand.spec),
            (["add", "x", "--due", "1/1/22", "--due", "2/2/22"], "'--due' was given more than once", AddCommand.spec),
            (["list", "--json=yes"], "'--json' takes no value", ListItemsCommand.spec),
            (["list", "--open", "--done"], "'--open' and '--done' cannot be used together", ListItemsCommand.spec),
            (["projects", "extra"], "unexpected argument 'extra'", ProjectsCommand.spec),
            (
                ["list", "end:today"], "cannot read 'end:today': todo does not read Taskwarrior's 'end:' here",
                ListItemsCommand.spec
            ),
            (
                ["list", "recur:weekly"],
                "cannot read 'recur:weekly': it is not a filter; --repeating shows the items that repeat",
                ListItemsCommand.spec
            ),
            (
                ["list", "due.soon:x"],
                "cannot read 'due.soon:x': todo reads 'due.before:', 'due.by:' and 'due.after:', and no other modifier",
                ListItemsCommand.spec
            ),
            (
                ["list", "status:deleted"],
                "cannot read 'status:deleted': use status:pending (the open items) or status:completed (the done ones)",
                ListItemsCommand.spec
            ),
            (["add", "x", "due:fri", "due:sat"], "cannot read 'due:sat': 'due:fri' gave it already", AddCommand.spec),
            (["add", "x", "due:"], "cannot read 'due:': it has no value", AddCommand.spec),
            (
                ["add", "x", "pri:H", "--priority", "L"], "'pri:H' and '--priority' both give the priority; give one",
                AddCommand.spec
            ),
            (
                ["add", "x", "uuid:1234"], "cannot read 'uuid:1234': todo does not read Taskwarrior's 'uuid:' here",
                AddCommand.spec
            ),
            (["add", "pri:H"], "the title is empty", AddCommand.spec),
            (["edit", "1", "2", "New title"], "a new title is for one item; 2 are named", EditCommand.spec),
            (
                ["edit", "1", "status:completed"],
                "cannot read 'status:completed': todo check, uncheck, start and stop change it", EditCommand.spec
            ),
            (
                ["postpone", "1", "soon"], "invalid period 'soon'; use a number and d, w, m or y, as 2d, 1w, 3m, 1y",
                PostponeCommand.spec
            ),
            (["postpone", "1"], "missing '<period>', as 2d or 1w", PostponeCommand.spec),
            (
                ["pri", "1", "Ä"],
                "invalid priority 'Ä'; todo keeps todo.txt's A (highest) to Z, or high, medium, low, 1 to 9, none",
                PriorityCommand.spec
            ),
            (["show"], "missing '<ref>'", ShowCommand.spec),
            (
                ["check", "abc"], "\"abc\" is not an item number, id, or id prefix of at least 4 characters",
                CheckCommand.spec
            ),
            (
                ["add", "x", "--location", "Home", "--coordinate", "91,0"],
                "invalid coordinate '91,0'; latitude must be within -90...90 and longitude within -180...180",
                AddCommand.spec
            ),
            (
                ["add", "x", "--location", "Home", "--coordinate", "52.5"],
                "invalid coordinate '52.5'; expected <latitude>,<longitude> in degrees, as 52.52,13.405",
                AddCommand.spec
            ),
            (["add", "x", "--address", "Main St"], "'--address' needs '--location <name>'", AddCommand.spec),
            (["add", "x", "--location", " "], "the location name is empty", AddCommand.spec),
            (
                ["edit", "1"],
                "nothing to change; give at least one option, as --title or --due, or a word, as due:fri",
                EditCommand.spec
            ),
            (
                ["edit", "1", "--due", "today", "--no-due"], "'--due' and '--no-due' cannot be used together",
                EditCommand.spec
            ),
            (
                ["edit", "1", "--no-location", "--address", "x"],
                "'--address' and '--no-location' cannot be used together",
                EditCommand.spec
            ),
            (["help", "lisst"], "unknown command or topic 'lisst'. Did you mean 'list'?", HelpCommand.spec),
            (
                ["--color", "sometimes", "list"], "invalid value 'sometimes' for '--color'; use auto, always or never",
                ListItemsCommand.spec
            )
        ]
        for (arguments, message, command) in cases {
            XCTAssertThrowsError(try parser.parse(arguments), "\(arguments)") { error in
                let error = error as? CommandError
                XCTAssertEqual(error?.message, message, "\(arguments)")
                XCTAssertEqual(error?.command?.name, command?.name, "\(arguments)")
            }
        }
    }

    func test_invalidDate_listsTheAcceptedForms() {
        XCTAssertThrowsError(
            try parser.parse(["add", "x", "--due", "13/45/22"]),
            CommandError(
                message: "invalid date '13/45/22'", command: AddCommand.spec,
                detail: "Accepted forms: " + DueDateParser.acceptedForms(.monthFirst)))
    }

    func test_theDateParserIsOnlyMadeWhenADateIsGiven() throws {
        let failing = CommandParser { () throws(CommandError) in
            throw CommandError(message: "bad TZ", showsUsage: false)
        }

        XCTAssertEqual(try failing.parse(["add", "x"]).command as? AddCommand, AddCommand(titles: .argument("x")))
        XCTAssertThrowsError(
            try failing.parse(["add", "x", "--due", "today"]), CommandError(message: "bad TZ", showsUsage: false))
    }
}
