import ToDoCore
import ToDoModel

/// One command of `todo`, in a file of its own: what help, the manual page and completion say of it
/// (`spec`), how its arguments are read (syntax only: the rules are `ToDoCore`'s), and what it
/// does. Adding a command is adding such a file and naming the type in `CommandRegistry`.
protocol ToDoCommand: Equatable, Sendable {
    static var spec: CommandSpec { get }
    /// Reads the command's arguments, which the scanner has already matched to `spec`.
    init(_ arguments: CommandArguments) throws(CommandError)
    func run(in session: CommandSession) throws
}

/// A command that reads or changes the list.
protocol ListCommand: ToDoCommand {
    func run(with runner: CommandRunner) throws
}

extension ListCommand {
    func run(in session: CommandSession) throws {
        try run(with: session.runner())
    }
}

extension ToDoCommand {
    /// Whether `other` is the same command with the same arguments.
    func isSame(as other: any ToDoCommand) -> Bool {
        (other as? Self) == self
    }
}

/// Every command, in the order help lists them.
enum CommandRegistry {
    static let commands: [any ToDoCommand.Type] = [
        AddCommand.self, ListItemsCommand.self, NextCommand.self, AgendaCommand.self, UICommand.self, ShowCommand.self,
        CheckCommand.self, UncheckCommand.self, StartCommand.self, StopCommand.self, PostponeCommand.self,
        EditCommand.self,
        PriorityCommand.self, DepriorityCommand.self, AppendCommand.self, PrependCommand.self, AnnotateCommand.self,
        RemindCommand.self, ListsCommand.self, ProjectsCommand.self, TagsCommand.self,
        RemoveCommand.self, ClearCommand.self, UndoCommand.self, RedoCommand.self, HistoryCommand.self,
        ExportCommand.self,
        ImportCommand.self, SyncCommand.self, CompletionCommand.self, HelpCommand.self
    ]

    /// What help, the manual page, completion and the scanner know of each command.
    static let all: [CommandSpec] = commands.map { $0.spec }

    static func command(named name: String) -> (any ToDoCommand.Type)? {
        commands.first { $0.spec.name == name }
    }

    static func spec(named name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }

    /// Taskwarrior's reports, as the lists they are: `todo overdue +home` is `todo list --overdue +home`.
    static let reports: [String: [String]] = [
        "overdue": ["list", "--overdue"], "active": ["list", "--active"], "waiting": ["list", "--waiting"],
        "completed": ["list", "--done"], "all": ["list", "--all"]
    ]

    /// The command a word names: its name, one of its aliases, or the start of one command's name
    /// (two letters or more, as `hist`). `nil` when it names none; refused when it starts several.
    static func spec(matching word: String) throws(CommandError) -> CommandSpec? {
        if let spec = all.first(where: { $0.name == word || $0.aliases.contains(word) }) { return spec }
        guard word.count >= 2 else { return nil }
        let starting = all.filter { $0.name.hasPrefix(word) }
        if starting.count > 1 {
            let names = starting.map { "'\($0.name)'" }
            throw CommandError(
                message:
                    "'\(word)' could be \(names.dropLast().joined(separator: ", ")) or \(names.last!); type more of it")
        }
        return starting.first
    }
}

/// What a command runs with: the process's context, the settings (or why they are bad: help works
/// whatever they are), and the list, opened when a command asks for it.
struct CommandSession {
    let context: Context
    let settings: Result<Settings, CommandError>
    let invocation: Invocation

    /// The list the command works on, with what shows its items.
    func runner() throws -> CommandRunner {
        let settings = try settings.get()
        guard
            let home = context.homeDirectory
                ?? (context.environment["TODO_FILE"] != nil || invocation.fileOption != nil ? "/" : nil)
        else {
            throw CommandError(message: "cannot find the home directory; set HOME or TODO_FILE", showsUsage: false)
        }
        let path = StoreLocation.path(
            fileOption: invocation.fileOption, environment: context.environment,
            homeDirectory: home, currentDirectory: context.currentDirectory)
        let now = context.now
        let renderer = ItemRenderer(
            style: Style(
                isEnabled: Style.isEnabled(
                    invocation.color, outputIsTerminal: context.output.isTerminal,
                    environment: context.environment)),
            dates: DueDateFormatter(rules: settings.timeZone, order: settings.dateOrder),
            now: now())
        return CommandRunner(
            context: context,
            store: JSONFileStore(
                path: path, lockTimeout: try lockTimeout(settings), now: now,
                timeZone: settings.timeZone, newID: context.newID,
                notice: StoreNoticeWriter(context.errorOutput).write),
            renderer: renderer, settings: settings, arguments: invocation.commandLine)
    }

    /// The lock's timeout for a command that changes the list; one that only reads takes no lock,
    /// so a bad `TODO_LOCK_TIMEOUT` does not stop it.
    private func lockTimeout(_ settings: Settings) throws(CommandError) -> Double {
        type(of: invocation.command).spec.changesList ? try settings.lockTimeout : Settings.defaultLockTimeout
    }
}

/// Writes what the store says of the list (`StoreNotice`) to standard error, each once per run.
/// Unchecked: the store calls it on the command's own thread, while the command waits for it.
private final class StoreNoticeWriter: @unchecked Sendable {
    private let output: TextOutput
    private var said: [StoreNotice] = []

    init(_ output: TextOutput) {
        self.output = output
    }

    func write(_ notice: StoreNotice) {
        guard !said.contains(notice) else { return }
        said.append(notice)
        output.write(TerminalText.printable("Warning: \(notice)") + "\n")
    }
}
