/// An option of a command: a flag (`--json`) or an option with a value (`--due <date>`).
struct OptionSpec: Equatable, Sendable {
    /// The long name without dashes, as `due`.
    let name: String
    /// The name of the value in help, as `date`; `nil` for a flag.
    let valueName: String?
    let help: String
    /// What a completion script offers as its value.
    var completion: CompletionValues = .none
    /// Whether the option may be given more than once, each value kept (`--tag a --tag b`).
    var repeats = false

    var flag: String { "--\(name)" }
    var takesValue: Bool { valueName != nil }

    /// How the option appears in a usage line: `--due <date>` or `--json`.
    var synopsis: String { valueName.map { "\(flag) <\($0)>" + (repeats ? "..." : "") } ?? flag }
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

/// A command as help, the manual page and completion describe it and the parser reads it; the
/// parser knows no other list of options, so they cannot drift apart. Each command's own is in its
/// file under `Commands/`.
struct CommandSpec: Equatable, Sendable {
    let name: String
    /// One line, for the command list and the top of the command's help.
    let summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    /// Sets of options of which at most one may be given, as `--due` and `--no-due`.
    var exclusiveOptions: [[OptionSpec]] = []
    /// Paragraphs after the options in the command's help.
    var discussion: String = ""
    /// What a completion script offers as the command's arguments.
    var argumentCompletion: CompletionValues = .none
    /// Other names the command answers to: the verbs of the tools people come from.
    var aliases: [String] = []
    /// Whether the command may change the list: one is suggested for a mistyped word only when a
    /// single letter is off.
    var changesList = false
    /// How the command reads Taskwarrior's attribute words among its arguments (`AttributeWords`).
    var attributeWords: AttributeWords.Use = .none

    /// Whether the command's first arguments are items (`check 1 2`, `edit 3 …`): those that take
    /// Taskwarrior's order, the items first (`todo 3 done`).
    var takesItemsFirst: Bool {
        if case .items = argumentCompletion { true } else { false }
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The usage line after an error: `todo add <title> ... [options]`.
    var shortUsage: String {
        (["todo", name] + arguments.map(\.synopsis) + (options.isEmpty ? [] : ["[options]"])).joined(separator: " ")
    }

    /// The usage line: `todo add <title> ... [--due <date>] ...`.
    var usage: String {
        (["todo", name] + arguments.map(\.synopsis) + options.map { "[\($0.synopsis)]" }).joined(separator: " ")
    }
}

/// The global options, accepted before or after the command name.
enum GlobalOption {
    static let file = OptionSpec(
        name: "file", valueName: "path", help: "Use the list in this file (overrides TODO_FILE).",
        completion: .files)
    static let color = OptionSpec(
        name: "color", valueName: "when",
        help: "Colour the output: auto (on a terminal without NO_COLOR), always or never.",
        completion: .words(ColorChoice.allCases.map(\.rawValue)))
    static let help = OptionSpec(name: "help", valueName: nil, help: "Show help information.")
    static let version = OptionSpec(name: "version", valueName: nil, help: "Show the version.")

    /// Options that take a value and may stand anywhere in the command line.
    static let valued = [file, color]
    /// Every global option, in the order help lists them.
    static let all = [file, color, version, help]
}

/// What a completion script offers after an option, or as a command's arguments.
enum CompletionValues: Equatable, Sendable {
    case none, files, items(ListSection), words([String])
    /// The tags or the lists the items have (`todo completion --items tags`, `--items lists`).
    case names(NameKind)
    /// The names of the commands and help topics (`todo help`).
    case commandsAndTopics

    /// The tags the items have.
    static let tags = CompletionValues.names(.tags)

    /// Names the items have, which `todo completion --items` prints.
    enum NameKind: String, Sendable {
        case tags, lists, projects
    }

    /// Dates as `--due` takes them.
    static let dates = CompletionValues.words([
        "today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday", "+1d", "+1w"
    ])
}
