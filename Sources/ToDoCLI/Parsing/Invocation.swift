import ToDoCore

/// The command and the global options that apply to it.
struct Invocation: Equatable {
    var command: any ToDoCommand
    var fileOption: String?
    var color: ColorChoice = .auto
    /// The command line without the global options, as the history records it.
    var commandLine: [String] = []

    static func == (lhs: Invocation, rhs: Invocation) -> Bool {
        lhs.command.isSame(as: rhs.command) && lhs.fileOption == rhs.fileOption && lhs.color == rhs.color
            && lhs.commandLine == rhs.commandLine
    }
}

/// When to colour the output (`--color`).
enum ColorChoice: String, Equatable, CaseIterable {
    case auto, always, never
}
