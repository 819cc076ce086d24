/// The manual page, todo(1), in roff: made from the same commands and topics as `todo help`, so
/// that `man/todo.1` (kept in the repository, checked by a test) says what the program does.
enum ManualRenderer {
    static func page() -> String {
        var page = """
            .TH TODO 1 "" "todo \(HelpRenderer.version)" "User Commands"
            .SH NAME
            todo \\- a to-do list for the command line
            .SH SYNOPSIS
            .B todo
            [\\fB\\-\\-file\\fR \\fIpath\\fR] [\\fB\\-\\-color\\fR \\fIwhen\\fR] \\fIcommand\\fR [\\fIarguments\\fR]

            """
        page += section(
            "DESCRIPTION",
            [
                .paragraph(
                    "todo keeps a list of things to do in a JSON file: open items in the order they were added, then done items in the order they were checked. Each item has a title and may have a description, a due date and a location. Every change is one locked, atomic transaction, and can be taken back with todo undo."
                ),
                .paragraph(
                    "With no command, todo lists the items. Data goes to standard output, messages and errors to standard error; --json prints items as JSON for scripts."
                )
            ])
        page += ".SH COMMANDS\n"
        for command in CommandRegistry.all {
            page += ".TP\n.B \(escaped(command.usage))\n\(escaped(command.summary))\n"
            var blocks: [HelpBlock] = []
            if !command.arguments.isEmpty {
                blocks.append(.table(command.arguments.map { HelpRow(name: "<\($0.name)>", text: $0.help) }))
            }
            if !command.options.isEmpty {
                blocks.append(.table(command.options.map { HelpRow(name: $0.synopsis, text: $0.help) }))
            }
            if !command.discussion.isEmpty {
                blocks.append(.paragraph(command.discussion.split(separator: "\n").joined(separator: " ")))
            }
            if !command.aliases.isEmpty {
                blocks.append(.paragraph("Also: " + command.aliases.map { "todo \($0)" }.joined(separator: ", ") + "."))
            }
            if !blocks.isEmpty { page += ".RS\n" + body(blocks) + ".RE\n" }
        }
        page += section("ALIASES", [.paragraph(HelpRenderer.aliasesSentence)])
        page += section(
            "GLOBAL OPTIONS",
            [.table(GlobalOption.all.map(HelpRenderer.optionRow).map { HelpRow(name: $0.0, text: $0.1) })])
        for topic in HelpTopics.all {
            page += section(topic.heading, topic.body(.monthFirst))
        }
        page += section(
            "SEE ALSO", [.paragraph("todo help <command>, todo help <topic>, and the README of the todo repository.")])
        return page
    }

    private static func section(_ heading: String, _ blocks: [HelpBlock]) -> String {
        ".SH \(heading)\n" + body(blocks)
    }

    private static func body(_ blocks: [HelpBlock]) -> String {
        blocks.map { block in
            switch block {
            case .paragraph(let text): return ".PP\n\(escaped(text))\n"
            case .table(let rows): return rows.map { ".TP\n.B \(escaped($0.name))\n\(escaped($0.text))\n" }.joined()
            }
        }.joined()
    }

    /// Text as roff reads it literally: backslashes and dashes escaped, other characters than
    /// ASCII named by their code point (`\[u21BB]`), no line taken for a request.
    static func escaped(_ text: String) -> String {
        var text = text.replacingText("\\", with: "\\e")
            .replacingText("-", with: "\\-")
            .replacingText("…", with: "\\&...")
        if !text.unicodeScalars.allSatisfy(\.isASCII) {
            text = text.unicodeScalars.map {
                $0.isASCII ? String($0) : "\\[u\(String($0.value, radix: 16, uppercase: true))]"
            }.joined()
        }
        if text.hasPrefix(".") || text.hasPrefix("'") { text = "\\&" + text }
        return text
    }
}
