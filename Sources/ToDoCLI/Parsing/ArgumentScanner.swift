import ToDoCore

/// A command line split into its parts against the commands' specs, before any value is interpreted.
struct ScannedArguments: Equatable {
    /// The command, `nil` when none was named (`todo`, `todo --help`, `todo --version`).
    var command: CommandSpec?
    var positionals: [String] = []
    /// The index in `positionals` of the first word after `--`: words from there on are never
    /// read as attribute words (`AttributeWords`).
    var literalStart: Int?
    /// Values of options that take one, by option name: the last one given.
    var values: [String: String] = [:]
    /// Every value of an option that may be repeated, in order, by option name.
    var repeatedValues: [String: [String]] = [:]
    /// Flags given, by option name.
    var flags: Set<String> = []
    /// Global `--file` and `--color` values.
    var globalValues: [String: String] = [:]
    var wantsHelp = false
    var wantsVersion = false
    /// The arguments without the global options and their values: the command as the history
    /// records it.
    var commandLine: [String] = []
}

/// Splits arguments into command, options and positionals. Global options may stand before or after
/// the command; options take their value as the next argument or after `=`; `--` ends the options;
/// a lone `-` is a positional (standard input).
enum ArgumentScanner {
    static func scan(_ arguments: [String]) throws(CommandError) -> ScannedArguments {
        var result = ScannedArguments()
        var index = 0
        var optionsEnded = false
        var globalOptionIndices = Set<Int>()

        while index < arguments.count {
            let argument = arguments[index]
            let start = index
            index += 1

            // `-work` (without the tag work) is a word of the commands that read it.
            let isRemovedTag =
                result.command?.attributeWords.readsRemovedTags == true && !argument.hasPrefix("--")
                && AttributeWords.tag(in: argument)?.removes == true && argument != "-h"
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || isRemovedTag {
                if result.command == nil && !optionsEnded {
                    if let report = CommandRegistry.reports[argument] {
                        return try scan(Array(arguments[..<start]) + report + arguments[index...])
                    }
                    guard let command = try CommandRegistry.spec(matching: argument) else {
                        // Taskwarrior's order, the items first: `todo 3 done`, `todo 3,4 info`; `todo 3` shows it.
                        if CommandArguments.isNumberList(argument), result.positionals.isEmpty {
                            return try scan(itemsFirst(arguments, at: start))
                        }
                        // `todo +work` is `todo list +work`, as `todo --open` is `todo list --open`.
                        if AttributeWords.isAttributeWord(argument), result.positionals.isEmpty {
                            return try scan([ListItemsCommand.spec.name] + arguments)
                        }
                        throw unknownCommand(argument)
                    }
                    result.command = command
                } else {
                    result.positionals.append(argument)
                }
                continue
            }
            if argument == "--" {
                optionsEnded = true
                result.literalStart = result.positionals.count
                continue
            }
            if argument == "-h" || argument == "--help" {
                result.wantsHelp = true
                continue
            }
            if argument == "--version", result.command == nil {
                result.wantsVersion = true
                continue
            }

            let (name, inlineValue) = splitOption(argument)
            let spec: OptionSpec
            let isGlobal: Bool
            if let global = GlobalOption.valued.first(where: { $0.name == name }) {
                spec = global
                isGlobal = true
            } else if let option = result.command?.option(named: name), argument.hasPrefix("--") {
                spec = option
                isGlobal = false
            } else if result.command == nil, ListItemsCommand.spec.option(named: name) != nil,
                !arguments[index...].contains(where: { (try? CommandRegistry.spec(matching: $0)) != nil })
            {
                // `todo --open` is `todo list --open`, as `todo` alone is `todo list`.
                return try scan([ListItemsCommand.spec.name] + arguments)
            } else if result.command == nil, !argument.hasPrefix("--"),
                AttributeWords.tag(in: argument)?.removes == true,
                !arguments[index...].contains(where: { (try? CommandRegistry.spec(matching: $0)) != nil })
            {
                // `todo -home`: the list without the tag home.
                return try scan([ListItemsCommand.spec.name] + arguments)
            } else {
                throw unknownOption(argument, command: result.command)
            }

            if spec.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !isOptionName(arguments[index], for: result.command) {
                    value = arguments[index]
                    index += 1
                } else {
                    throw CommandError(message: "missing value for '\(spec.synopsis)'", command: result.command)
                }
                if isGlobal {
                    globalOptionIndices.formUnion(start..<index)
                    guard result.globalValues.updateValue(value, forKey: spec.name) == nil else {
                        throw repeated(spec, command: result.command)
                    }
                } else if spec.repeats {
                    result.values[spec.name] = value
                    result.repeatedValues[spec.name, default: []].append(value)
                } else {
                    guard result.values.updateValue(value, forKey: spec.name) == nil else {
                        throw repeated(spec, command: result.command)
                    }
                }
            } else {
                if inlineValue != nil {
                    throw CommandError(message: "'\(spec.flag)' takes no value", command: result.command)
                }
                guard result.flags.insert(spec.name).inserted else { throw repeated(spec, command: result.command) }
            }
        }
        result.commandLine = arguments.indices.filter { !globalOptionIndices.contains($0) }.map { arguments[$0] }
        if let command = result.command, !result.wantsHelp {
            for group in command.exclusiveOptions {
                let given = group.filter { result.values[$0.name] != nil || result.flags.contains($0.name) }
                if given.count > 1 {
                    throw CommandError(
                        message: "'\(given[0].flag)' and '\(given[1].flag)' cannot be used together", command: command)
                }
            }
        }
        return result
    }

    /// `todo 3 4,6 done …` as `todo done 3 4,6 …`: the numbers from `start` on, then the command
    /// after them; `show` when none follows (`todo 3`, `todo 3 --json`), as Taskwarrior shows one.
    private static func itemsFirst(_ arguments: [String], at start: Int) throws(CommandError) -> [String] {
        var end = start
        while end < arguments.count, CommandArguments.isNumberList(arguments[end]) { end += 1 }
        let numbers = Array(arguments[start..<end])
        guard end < arguments.count, !arguments[end].hasPrefix("-") else {
            return Array(arguments[..<start]) + [ShowCommand.spec.name] + numbers + arguments[end...]
        }
        guard let command = try CommandRegistry.spec(matching: arguments[end]) else {
            throw unknownCommand(arguments[end])
        }
        // `todo 4 undo` is not `todo undo 4`: only a command of items takes them first.
        guard command.takesItemsFirst else {
            throw CommandError(
                message: "'\(command.name)' takes no items; the numbers go after the commands that do, as todo"
                    + " \(numbers.joined(separator: " ")) done", command: command)
        }
        return Array(arguments[..<start]) + [arguments[end]] + numbers + arguments[(end + 1)...]
    }

    /// `--due=tomorrow` as ("due", "tomorrow"); `--json` as ("json", nil).
    private static func splitOption(_ argument: String) -> (String, String?) {
        let body = argument.drop { $0 == "-" }
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// Whether `argument` is one of the options of `command` or a global one, so that `--due --json`
    /// is a missing value rather than a due date of "--json".
    private static func isOptionName(_ argument: String, for command: CommandSpec?) -> Bool {
        guard argument.hasPrefix("--") else { return false }
        let name = splitOption(argument).0
        return command?.option(named: name) != nil || GlobalOption.valued.contains { $0.name == name }
            || name == "help" || name == "version"
    }

    /// An unknown command name, with the nearest command if one is close; `usage` is the command
    /// whose usage to show (`help` for `todo help <name>`).
    static func unknownCommand(_ name: String, usage: CommandSpec? = nil, orTopic: Bool = false) -> CommandError {
        var message = "unknown command \(orTopic ? "or topic " : "")'\(name)'"
        // A command that changes the list is suggested only for a slip of one letter.
        let candidates =
            CommandRegistry.all.flatMap { command in
                ([command.name] + command.aliases).map { ($0, command.changesList ? 1 : 2) }
            } + (orTopic ? HelpTopics.all.map { ($0.name, 2) } : [])
        if let suggestion = Suggestion.nearest(to: name, among: candidates) {
            message += ". Did you mean '\(suggestion)'?"
        }
        return CommandError(message: message, command: usage)
    }

    private static func unknownOption(_ argument: String, command: CommandSpec?) -> CommandError {
        var message = "unknown option '\(argument)'"
        let name = splitOption(argument).0
        let candidates =
            (command?.options ?? []) + GlobalOption.valued + [GlobalOption.help]
            + (command == nil ? [GlobalOption.version] : [])
        if let suggestion = Suggestion.nearest(to: name, among: candidates.map(\.name)) {
            message += ". Did you mean '--\(suggestion)'?"
        } else if command != nil, !argument.hasPrefix("--") {
            message += " (a title or text that starts with '-' goes after '--')"
        }
        return CommandError(message: message, command: command)
    }

    private static func repeated(_ option: OptionSpec, command: CommandSpec?) -> CommandError {
        CommandError(message: "'\(option.flag)' was given more than once", command: command)
    }
}
