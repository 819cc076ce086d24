import ToDoCore
import ToDoModel

/// The help texts, generated from the commands' specs so that they always match what the parser accepts.
enum HelpRenderer {
    static let version = "0.1.0"
    /// How todo names itself to HTTP servers (geocoders ask for this).
    static let userAgent = "todo/\(version)"
    /// The `PRODID` of what todo writes in iCalendar.
    static let productID = "-//todo//todo \(version)//EN"
    static let topUsage = "todo [--file <path>] [--color <when>] <command> [<arguments>]"

    /// `todo help` and `todo --help`.
    static func overview() -> String {
        var text = """
            OVERVIEW: A to-do list for the command line.

            USAGE: \(topUsage)

            COMMANDS:

            """
        text += table(CommandRegistry.all.map { ($0.name, $0.summary) })
        text += "\n" + wrapped(aliasesSentence, indent: 2) + "\n"
        text += "\n  With no command, todo lists the items.\n\nGLOBAL OPTIONS:\n"
        text += table(GlobalOption.all.map(optionRow))
        text += "\nTOPICS:\n" + table(HelpTopics.all.map { ($0.name, $0.summary) })
        text += "\nEXIT CODES:\n" + table(HelpTopics.exitCodeRows.map { ($0.name, $0.text) })
        text +=
            "\n  See 'todo help <command>' or 'todo help <topic>' for more; 'todo help --man' prints the manual page.\n"
        return text
    }

    /// The other names of the commands, and their shortened forms, in a sentence.
    static var aliasesSentence: String {
        let named = CommandRegistry.all.filter { !$0.aliases.isEmpty }.map { command in
            "\(inASentence(command.aliases)) (\(command.name))"
        }
        return "Also: " + named.joined(separator: ", ") + ". A command may be shortened to any start of its name that"
            + " starts no other command's (hist for history)."
    }

    /// `todo help <topic>`: its heading, then its text.
    static func help(for topic: HelpTopic, dateOrder: DateOrder) -> String {
        "\(topic.heading)\n\n"
            + topic.body(dateOrder).map { block in
                switch block {
                case .paragraph(let text): return wrapped(text, indent: 2) + "\n"
                case .table(let rows): return table(rows.map { ($0.name, $0.text) })
                }
            }.joined(separator: "\n")
    }

    /// `todo help <command>` and `todo <command> --help`.
    static func help(for command: CommandSpec) -> String {
        var text = "OVERVIEW: \(command.summary)\n\nUSAGE: \(command.usage)\n"
        if !command.aliases.isEmpty {
            text += "\nALIASES: \(command.aliases.joined(separator: ", "))\n"
        }
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(command.arguments.map { ("<\($0.name)>", $0.help) })
        }
        text +=
            "\nOPTIONS:\n"
            + table((command.options + [GlobalOption.file, GlobalOption.color, GlobalOption.help]).map(optionRow))
        if !command.discussion.isEmpty {
            text += "\n" + wrapped(command.discussion.split(separator: "\n").joined(separator: " "), indent: 2) + "\n"
        }
        return text
    }

    /// The lines after an error: the one line of help it is about (the option it names, else
    /// the command's short usage), and where to read more.
    static func usageHint(for command: CommandSpec?, message: String = "") -> String {
        guard let command else {
            return "Usage: \(topUsage)\n  See 'todo --help' for more information.\n"
        }
        let more = "  See 'todo \(command.name) --help' for more information.\n"
        if let option = command.options.first(where: {
            message.containsText("'\($0.flag)'") || message.containsText("'\($0.flag) ")
        }) {
            let (synopsis, help) = optionRow(option)
            return "  \(synopsis)  \(help)\n" + more
        }
        return "Usage: \(command.shortUsage)\n" + more
    }

    /// An option's row in help: its synopsis (`-h, --help` for help) and what it does.
    static func optionRow(_ option: OptionSpec) -> (String, String) {
        (option.name == "help" ? "-h, --help" : option.synopsis, option.help)
    }

    /// How wide help text is filled.
    static let lineWidth = 80

    /// Two columns: names padded to a common width, then the text, filled to the line width with
    /// its later lines under its first.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = max(rows.map(\.0.count).max() ?? 0, 16) + 2
        return rows.map { name, text in
            let filled = wrapped(text, indent: 2 + width)
            return "  " + name + String(repeating: " ", count: width - name.count) + filled.dropFirst(2 + width) + "\n"
        }.joined()
    }

    /// `text` filled to the line width, each line after `indent` spaces; a word longer than a
    /// line stands alone.
    static func wrapped(_ text: String, indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > lineWidth {
                lines.append(margin + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(margin + line)
        return lines.joined(separator: "\n")
    }
}
