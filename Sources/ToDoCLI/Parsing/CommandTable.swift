/// An option of a command: a flag (`--json`) or an option with a value (`--due <date>`).
struct OptionSpec: Equatable, Sendable {
    /// The long name without dashes, as `due`.
    let name: String
    /// The name of the value in help, as `date`; `nil` for a flag.
    let valueName: String?
    let help: String

    var flag: String { "--\(name)" }
    var takesValue: Bool { valueName != nil }

    /// How the option appears in a usage line: `--due <date>` or `--json`.
    var synopsis: String { valueName.map { "\(flag) <\($0)>" } ?? flag }
}

/// A positional argument of a command.
struct ArgumentSpec: Equatable, Sendable {
    let name: String
    let help: String
    var isOptional = false
    var repeats = false

    var synopsis: String {
        let base = "<\(name)>" + (repeats ? " ..." : "")
        return isOptional ? "[\(base)]" : base
    }
}

/// A command as help describes it and the parser reads it; the parser knows no other list of
/// options, so help and parsing cannot drift apart.
struct CommandSpec: Equatable, Sendable {
    let name: String
    /// One line, for the command list and the top of the command's help.
    let summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    /// Sets of options of which at most one may be given, as `--due` and `--no-due`.
    var exclusiveOptions: [[String]] = []
    /// Paragraphs after the options in the command's help.
    var discussion: String = ""

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The usage line: `todo add <title> ... [--due <date>] ...`.
    var usage: String {
        (["todo", name] + arguments.map(\.synopsis) + options.map { "[\($0.synopsis)]" }).joined(separator: " ")
    }
}

/// The global options, accepted before or after the command name.
enum GlobalOption {
    static let file = OptionSpec(name: "file", valueName: "path", help: "Use the list in this file (overrides TODO_FILE).")
    static let color = OptionSpec(name: "color", valueName: "when",
                                  help: "Colour the output: auto (on a terminal without NO_COLOR), always or never.")
    static let help = OptionSpec(name: "help", valueName: nil, help: "Show help information.")
    static let version = OptionSpec(name: "version", valueName: nil, help: "Show the version.")

    /// Options that take a value and may stand anywhere in the command line.
    static let valued = [file, color]
    /// Every global option, in the order help lists them.
    static let all = [file, color, version, help]
}

/// Every command of `todo`, in the order help lists them.
enum CommandTable {
    static let json = OptionSpec(name: "json", valueName: nil,
                                 help: "Print the items as JSON in the store's item schema instead of text.")
    static let due = OptionSpec(name: "due", valueName: "date", help: "The due date (see 'todo help dates').")
    static let description = OptionSpec(name: "description", valueName: "text", help: "A longer description.")
    static let location = OptionSpec(name: "location", valueName: "name", help: "Where the item is to be done.")
    static let address = OptionSpec(name: "address", valueName: "text", help: "The location's address.")
    static let coordinate = OptionSpec(name: "coordinate", valueName: "lat,lon",
                                       help: "The location's coordinate in degrees, as 52.52,13.405.")
    static let noGeocode = OptionSpec(name: "no-geocode", valueName: nil,
                                      help: "Do not look the address up on the geocoder (TODO_GEOCODER_URL).")

    /// The filters and sorting of `list` and `export`.
    static let queryOptions = [
        OptionSpec(name: "search", valueName: "text", help: "Only items with this text (any case) in the title, description or location."),
        OptionSpec(name: "due-before", valueName: "date", help: "Only items due before this date (before the day begins)."),
        OptionSpec(name: "due-after", valueName: "date", help: "Only items due after this date (once the day has ended)."),
        OptionSpec(name: "overdue", valueName: nil, help: "Only open items due before today."),
        OptionSpec(name: "no-due", valueName: nil, help: "Only items without a due date."),
        OptionSpec(name: "sort", valueName: "key", help: "Sort open and done items each by number, due, title or created."),
        OptionSpec(name: "reverse", valueName: nil, help: "Reverse the order."),
        OptionSpec(name: "limit", valueName: "n", help: "Show at most n items, open ones first."),
    ]
    static let queryExclusions = [["no-due", "due-before"], ["no-due", "due-after"], ["no-due", "overdue"]]

    static let references = ArgumentSpec(
        name: "ref", help: "An item's number, its id, or a unique prefix of its id (4 characters or more).", repeats: true)
    static let reference = ArgumentSpec(
        name: "ref", help: "An item's number, its id, or a unique prefix of its id (4 characters or more).")

    static let add = CommandSpec(
        name: "add", summary: "Add an open item.",
        arguments: [ArgumentSpec(name: "title", help: "The title; several words are joined with spaces. '-' reads one title per line from standard input.", repeats: true)],
        options: [due, description, location, address, coordinate, noGeocode, json],
        discussion: """
            Prints the number the item got and what was stored, the due date as understood.
            An --address without --coordinate is looked up on the geocoder set in TODO_GEOCODER_URL
            before anything is saved; if that fails, the item is saved without a coordinate and a
            warning says why.
            'todo add -' adds every non-blank line of standard input in one transaction, each with
            the options given; if any line is refused, none is added. A title that starts with '-'
            goes after '--': todo add -- "-5 push-ups".
            """)

    static let list = CommandSpec(
        name: "list", summary: "List open items, then done items.",
        options: [OptionSpec(name: "open", valueName: nil, help: "Show only open items."),
                  OptionSpec(name: "done", valueName: nil, help: "Show only done items.")] + queryOptions + [json],
        exclusiveOptions: [["open", "done"]] + queryExclusions,
        discussion: """
            Each row shows the number, [ ] or [x], the title, the due date and the location. Open items
            come in the order they were added, done items in the order they were checked; --sort orders
            each section by its key (items without it last). Dates take the forms of --due. 'todo' with
            no command is 'todo list'.
            """)

    static let show = CommandSpec(
        name: "show", summary: "Show every field of one item.", arguments: [reference], options: [json])

    static let check = CommandSpec(
        name: "check", summary: "Mark items done.", arguments: [references], options: [json],
        discussion: "Checked items move to the end of the done items. All refs are resolved first; if one fails, nothing changes.")

    static let uncheck = CommandSpec(
        name: "uncheck", summary: "Mark done items open again.", arguments: [references], options: [json],
        discussion: """
            Unchecked items move to the end of the open items. Refused when an open item already has the
            same content. All refs are resolved first; if one fails, nothing changes.
            """)

    static let edit = CommandSpec(
        name: "edit", summary: "Change an item's fields.", arguments: [reference],
        options: [OptionSpec(name: "title", valueName: "title", help: "A new title."),
                  due, OptionSpec(name: "no-due", valueName: nil, help: "Remove the due date."),
                  description, OptionSpec(name: "no-description", valueName: nil, help: "Remove the description."),
                  OptionSpec(name: "location", valueName: "name",
                             help: "A new location, with the address and coordinate given here (else none)."),
                  OptionSpec(name: "no-location", valueName: nil, help: "Remove the location."),
                  OptionSpec(name: "address", valueName: "text", help: "A new address for the location."),
                  OptionSpec(name: "no-address", valueName: nil, help: "Remove the location's address."),
                  OptionSpec(name: "coordinate", valueName: "lat,lon", help: "A new coordinate for the location."),
                  OptionSpec(name: "no-coordinate", valueName: nil, help: "Remove the location's coordinate."),
                  noGeocode, json],
        exclusiveOptions: [["due", "no-due"], ["description", "no-description"], ["location", "no-location"],
                           ["address", "no-address", "no-location"], ["coordinate", "no-coordinate", "no-location"]],
        discussion: """
            An open item may not be edited into the same content as another open item. A new --address
            without --coordinate is looked up on the geocoder (TODO_GEOCODER_URL); if that fails, the
            coordinate stays as it was (a new --location gets none) and a warning says why.
            """)

    static let remove = CommandSpec(
        name: "remove", summary: "Delete items.", arguments: [references], options: [json],
        discussion: "All refs are resolved first; if one fails, nothing is deleted. Numbers are never reused.")

    static let clear = CommandSpec(
        name: "clear", summary: "Delete all items, or all done items.",
        options: [OptionSpec(name: "done", valueName: nil, help: "Delete only the done items."),
                  OptionSpec(name: "yes", valueName: nil, help: "Do not ask for confirmation.")],
        discussion: """
            Without --yes, asks on the terminal; without a terminal on standard input it refuses and
            changes nothing. Numbers are never reused.
            """)

    static let export = CommandSpec(
        name: "export", summary: "Write every item as JSON, todo.txt or iCalendar.",
        options: [OptionSpec(name: "format", valueName: "format", help: "json (the data file's format; the default), todotxt or ical."),
                  OptionSpec(name: "output", valueName: "file", help: "Write to this file (replaced whole) instead of standard output.")]
            + queryOptions,
        exclusiveOptions: queryExclusions,
        discussion: """
            Open items first, then done items, each in list order. todo.txt gets todo's fields as tags
            (due:, id:, desc:, loc:, addr:, geo:); iCalendar gets one VTODO per item. 'todo import'
            reads each format back as the same items.
            """)

    static let importItems = CommandSpec(
        name: "import", summary: "Add the items of a file, standard input or a URL.",
        arguments: [ArgumentSpec(name: "source", help: "A file, '-' for standard input, or an http:// or https:// URL.")],
        options: [OptionSpec(name: "format", valueName: "format",
                             help: "auto (the default: recognise the format), json, todotxt, taskwarrior, ical or reminders (Apple Reminders as reminders-cli writes them)."),
                  OptionSpec(name: "dry-run", valueName: nil, help: "Show what would be imported and change nothing.")],
        discussion: """
            All items are added in one transaction, with new numbers, keeping their status. An item whose
            id is already in the list is skipped, and so is an open item with the same content as an open
            item; the summary says which and why. A source that cannot be read changes nothing, and the
            error names the line or offset at fault.
            """)

    static let undo = CommandSpec(
        name: "undo", summary: "Take back the last change, or the last n changes.",
        arguments: [ArgumentSpec(name: "n", help: "How many changes to take back, newest first (1 if not given).", isOptional: true)],
        options: [OptionSpec(name: "change", valueName: "number",
                             help: "Take back this one change from 'todo history' instead, leaving later ones.")],
        discussion: """
            Any command that changed the list can be taken back: add, check, uncheck, edit, remove,
            clear, import, and undo itself ('todo redo'). Undoing again goes further back. Items come
            back as they were, with their numbers and in their places; numbers are never reused.
            A change is refused, and nothing changes, when an item it touched was changed since by a
            later change (take that back first) or outside todo. The history keeps the last 100 changes.
            """)

    static let redo = CommandSpec(
        name: "redo", summary: "Take back the last undo, or the last n undos.",
        arguments: [ArgumentSpec(name: "n", help: "How many undos to take back, newest first (1 if not given).", isOptional: true)],
        discussion: "Makes the changes that 'todo undo' took back again. Refused like undo when an item changed since.")

    static let history = CommandSpec(
        name: "history", summary: "List the latest changes, newest first.",
        options: [OptionSpec(name: "limit", valueName: "n", help: "Show at most n changes (default 10; the history keeps 100)."),
                  OptionSpec(name: "json", valueName: nil, help: "Print the changes as JSON, each with its items before and after.")],
        discussion: """
            Each change shows its number, when it was made, the command that made it, and what it did to
            each item. A change taken back says by which undo. The history is kept in a file beside the
            data file (see 'todo help file').
            """)

    static let completion = CommandSpec(
        name: "completion", summary: "Print a shell completion script (bash, zsh or fish).",
        arguments: [ArgumentSpec(name: "shell", help: "bash, zsh or fish.", isOptional: true)],
        options: [OptionSpec(name: "items", valueName: "which",
                             help: "Instead, print each item as its number, a tab and its title: all, open or done (the scripts use this).")],
        discussion: """
            The script completes commands, options, their values, and item numbers, shown with their
            titles where the shell can (zsh, fish; bash while several match). See the README for where
            each shell looks for it.
            """)

    static let help = CommandSpec(
        name: "help", summary: "Show help for todo, one command or a topic.",
        arguments: [ArgumentSpec(name: "command", help: "The command or topic (dates, refs, exit-codes, file, environment) to explain.",
                                 isOptional: true)],
        options: [OptionSpec(name: "man", valueName: nil, help: "Print the manual page, todo(1), in roff, as 'man' reads it.")])

    static let all = [add, list, show, check, uncheck, edit, remove, clear, undo, redo, history, export, importItems, completion, help]

    static func command(named name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }
}
