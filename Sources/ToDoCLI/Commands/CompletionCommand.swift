import ToDoCore
import ToDoModel

/// `todo completion`: a shell's completion script, or the items for one as it completes.
struct CompletionCommand: ToDoCommand {
    static let items = OptionSpec(
        name: "items", valueName: "which",
        help:
            "Instead, print each item as its number, a tab and its title: all, open or done; or each tag, list or project in use: tags, lists, projects (the scripts use this)."
    )

    static let spec = CommandSpec(
        name: "completion", summary: "Print a shell completion script (bash, zsh or fish).",
        arguments: [ArgumentSpec(name: "shell", help: "bash, zsh or fish.", isOptional: true)],
        options: [items],
        discussion: """
            The script completes commands, options, their values, and item numbers, shown with their
            titles where the shell can (zsh, fish; bash while several match). See the README for where
            each shell looks for it.
            """,
        argumentCompletion: .words(Shell.allCases.map(\.rawValue)))

    enum Output: Equatable {
        /// `todo completion <shell>`: the script.
        case script(Shell)
        /// `todo completion --items <which>`: number and title of each item, for the scripts.
        case items(ListSection)
        /// `todo completion --items tags` (or `lists`): each tag (or list) the items have, once,
        /// for the scripts.
        case names(CompletionValues.NameKind)
    }

    var output: Output

    init(output: Output) {
        self.output = output
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        if let which = arguments.value(Self.items) {
            try arguments.noPositionals()
            switch which {
            case "all": output = .items(.all)
            case "open": output = .items(.open)
            case "done": output = .items(.done)
            case "tags": output = .names(.tags)
            case "lists": output = .names(.lists)
            case "projects": output = .names(.projects)
            default:
                throw arguments.error(
                    "invalid value '\(which)' for '\(Self.items.flag)'; use all, open, done, tags, lists or projects")
            }
            return
        }
        let name = try arguments.onePositional()
        guard let shell = Shell(rawValue: name) else {
            throw arguments.error("unknown shell '\(name)'; use bash, zsh or fish")
        }
        output = .script(shell)
    }

    func run(in session: CommandSession) throws {
        switch output {
        case .script(let shell):
            session.context.output.write(CompletionScripts.script(for: shell))
        case .items(let section):
            // Each item's number, a tab and its title, open items first. A title's tabs and
            // control characters would break the line, so they are shown as text.
            let runner = try session.runner()
            let manager = try runner.load()
            // By number, as the scripts offer them (1, 2, 11; not the shells' 1, 11, 2).
            let items =
                ((section == .done ? [] : manager.openStored.array)
                + (section == .open ? [] : manager.doneStored.array)).sorted { $0.number < $1.number }
            runner.write(items.map { "\($0.number)\t\(TerminalText.printable($0.title))\n" }.joined())
        case .names(let kind):
            let manager = try session.runner().load()
            let names: [String]
            switch kind {
            case .tags:
                names = Tags.normalized((manager.openStored.array + manager.doneStored.array).flatMap(\.tags)).sorted {
                    $0.lowercased() < $1.lowercased()
                }
            case .lists: names = manager.lists().map { ListName.shown($0.name) }
            case .projects: names = manager.projectCounts().map(\.name)
            }
            session.context.output.write(names.map { TerminalText.printable($0) + "\n" }.joined())
        }
    }
}
