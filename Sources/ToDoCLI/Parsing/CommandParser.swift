import ToDoCore
import ToDoModel

/// Turns a command line into a validated `Invocation`: the scanner splits it against the
/// commands' specs, and the named command's type reads its arguments. Pure: the due-date parser
/// carries the clock, time zone and date order it needs, and is asked for only when a date is given.
struct CommandParser {
    /// Makes the due-date parser; it throws when a setting it needs (TZ, TODO_DATE_ORDER) is bad.
    let makeDueDateParser: () throws(CommandError) -> DueDateParser

    func parse(_ arguments: [String]) throws(CommandError) -> Invocation {
        let scanned = try ArgumentScanner.scan(arguments)
        var color = ColorChoice.auto
        if let value = scanned.globalValues[GlobalOption.color.name] {
            guard let choice = ColorChoice(rawValue: value) else {
                throw CommandError(
                    message: "invalid value '\(value)' for '\(GlobalOption.color.flag)'; use auto, always or never",
                    command: scanned.command)
            }
            color = choice
        }
        let command: any ToDoCommand
        if scanned.wantsHelp {
            command = HelpCommand(subject: scanned.command.map(HelpCommand.Subject.command) ?? .overview)
        } else if scanned.wantsVersion {
            command = VersionCommand()
        } else if let spec = scanned.command, let type = CommandRegistry.command(named: spec.name) {
            command = try type.init(
                CommandArguments(spec: spec, scanned: scanned, makeDueDateParser: makeDueDateParser))
        } else {
            command = ListItemsCommand()
        }
        return Invocation(
            command: command, fileOption: scanned.globalValues[GlobalOption.file.name], color: color,
            commandLine: scanned.commandLine)
    }
}
