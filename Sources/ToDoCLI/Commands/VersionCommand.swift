import ToDoCore

/// `todo --version`.
struct VersionCommand: ToDoCommand {
    /// Not a command of its own: `--version` before any command.
    static let spec = CommandSpec(name: "--version", summary: "Show the version.")

    init() {}

    init(_ arguments: CommandArguments) throws(CommandError) {}

    func run(in session: CommandSession) throws {
        session.context.output.write("todo \(HelpRenderer.version)\n")
    }
}
