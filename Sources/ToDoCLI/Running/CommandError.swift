/// Why a command did not do what was asked, as the user reads it (the message, quoting their
/// input) and as a script reads it (the exit code): the command line's one error type. ToDoCore's
/// errors keep their own types, each with the outcome its exit code follows (`ErrorOutcome`).
struct CommandError: Error, Equatable, CustomStringConvertible {
    let code: ExitCode
    /// What is wrong, quoting the user's input; it may end with a "Did you mean" suggestion.
    let message: String
    /// For a command line that cannot be run as typed: the command whose usage to show, or `nil`
    /// for the top-level usage.
    var command: CommandSpec?
    /// Extra lines after the message, as the accepted date forms.
    var detail: String?
    /// Whether to show a usage line (a usage error's, but not for a bad environment setting).
    var showsUsage: Bool

    /// A command line that cannot be run as typed: an unknown command or option, a missing or
    /// malformed argument, an invalid date or setting. It exits with 64 and, when it belongs to a
    /// command, shows that command's usage.
    init(message: String, command: CommandSpec? = nil, detail: String? = nil, showsUsage: Bool = true) {
        code = .usage
        self.message = message
        self.command = command
        self.detail = detail
        self.showsUsage = showsUsage
    }

    /// A command that failed otherwise, exiting with `code`.
    init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
        showsUsage = false
    }

    var description: String { message }
}
