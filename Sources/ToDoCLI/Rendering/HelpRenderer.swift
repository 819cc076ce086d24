import ToDoCore

/// The help texts, generated from `CommandTable` so that they always match what the parser accepts.
enum HelpRenderer {
    static let version = "0.1.0"
    /// How todo names itself to HTTP servers (geocoders ask for this).
    static let userAgent = "todo/\(version)"
    static let topUsage = "todo [--file <path>] [--color <when>] <command> [<arguments>]"

    /// `todo help` and `todo --help`.
    static func overview(dateOrder: DateOrder) -> String {
        var text = """
            OVERVIEW: A to-do list for the command line.

            USAGE: \(topUsage)

            COMMANDS:

            """
        text += table(CommandTable.all.map { ($0.name, $0.summary) })
        text += "\n  With no command, todo lists the items.\n\nGLOBAL OPTIONS:\n"
        text += table([GlobalOption.file, GlobalOption.color, GlobalOption.version, GlobalOption.help].map(optionRow))
        text += """

            DATES:
              \(DueDateParser.acceptedForms(dateOrder)).
              Dates are in the local time zone (TZ); a date without a time means that day.
              TODO_DATE_ORDER=dmy reads and shows numeric dates day first (dd/MM/yy).

            ENVIRONMENT:
              TODO_FILE           the data file (default: $XDG_DATA_HOME/todo/items.json,
                                  else ~/.local/share/todo/items.json)
              TODO_DATE_ORDER     mdy (default) or dmy
              TODO_LOCK_TIMEOUT   seconds to wait for another todo's change (default: 10)
              TODO_GEOCODER_URL   a Nominatim-compatible search URL to look addresses up on
              TODO_HTTP_TIMEOUT   seconds an HTTP request may take (default: 5 to look up an
                                  address, 30 to import from a URL)
              TZ                  the time zone for dates
              NO_COLOR            no colour when set and not empty

            EXIT CODES:

            """
        text += table(ExitCode.allCases.map { (String($0.rawValue), $0.meaning) })
        text += "\n  See 'todo help <command>' for more information on a command.\n"
        return text
    }

    /// `todo help <command>` and `todo <command> --help`.
    static func help(for command: CommandSpec) -> String {
        var text = "OVERVIEW: \(command.summary)\n\nUSAGE: \(command.usage)\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(command.arguments.map { ("<\($0.name)>", $0.help) })
        }
        text += "\nOPTIONS:\n" + table((command.options + [GlobalOption.file, GlobalOption.color, GlobalOption.help]).map(optionRow))
        if !command.discussion.isEmpty {
            text += "\n" + command.discussion.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        return text
    }

    /// The lines after an error: the usage, and where to read more.
    static func usageHint(for command: CommandSpec?) -> String {
        guard let command else {
            return "Usage: \(topUsage)\n  See 'todo --help' for more information.\n"
        }
        return "Usage: \(command.usage)\n  See 'todo \(command.name) --help' for more information.\n"
    }

    private static func optionRow(_ option: OptionSpec) -> (String, String) {
        (option.name == "help" ? "-h, --help" : option.synopsis, option.help)
    }

    /// Two columns: names padded to a common width, then the text.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = max(rows.map(\.0.count).max() ?? 0, 16) + 2
        return rows.map { name, text in
            "  " + name + String(repeating: " ", count: width - name.count) + text + "\n"
        }.joined()
    }
}
