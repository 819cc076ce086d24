/// A command line that cannot be run as typed: an unknown command or option, a missing or malformed
/// argument, an invalid date or setting. It exits with 64 and, when it belongs to a command, shows
/// that command's usage.
struct UsageError: Error, Equatable {
    /// What is wrong, quoting the user's input; it may end with a "Did you mean" suggestion.
    let message: String
    /// The command whose usage to show, or `nil` for the top-level usage.
    var command: CommandSpec?
    /// Extra lines after the message, as the accepted date forms.
    var detail: String?
    /// Whether to show a usage line at all (not for a bad environment setting).
    var showsUsage = true
}
