import ToDoCore
import ToDoModel

/// What a todo command run inside `todo ui` wrote, and its exit code.
struct CommandOutcome: Equatable {
    var status: Int32
    var output: [UInt8]
    var errors: String

    var succeeded: Bool { status == ExitCode.success.rawValue }

    /// What to say on the status line: the first line of the errors for a command that failed,
    /// else of the output (`Checked 3: Call Mom`).
    var firstLine: String {
        let text = succeeded ? String(decoding: output, as: UTF8.self) : errors
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line
    }
}

/// Runs todo's commands in `todo ui`'s own process, each exactly as the command line runs it
/// (`ToDoCLI.run`): the same parsing, the same transaction, history entry and undo step. The
/// output goes to the screen: a terminal of the window's size, coloured as `todo ui` is, with no
/// standard input (nothing asks a question).
struct InProcessTodo {
    let context: Context
    /// `--file` when `todo ui` was given one, and `--color` as it decided.
    let globalArguments: [String]

    func run(_ arguments: [String], columns: Int?) -> CommandOutcome {
        let output = ScreenCapture(columns: columns), errors = ScreenCapture(columns: nil)
        var context = self.context
        context.output = output
        context.errorOutput = errors
        context.input = NoInput()
        // A long-lived process lets what each command read go.
        context.keepUntilExit = { _ in }
        let status = ToDoCLI.run(globalArguments + arguments, in: context)
        return CommandOutcome(
            status: status, output: output.bytes, errors: String(decoding: errors.bytes, as: UTF8.self))
    }
}

/// Output kept for the screen: a terminal `columns` wide (when given), as the command would meet it.
private final class ScreenCapture: TextOutput {
    private(set) var bytes: [UInt8] = []
    let terminalColumns: Int?

    init(columns: Int?) {
        terminalColumns = columns
    }

    var isTerminal: Bool { terminalColumns != nil }
    /// Rows are the screen's to scroll: a command that fills a screenful (`next`) is given its limit.
    var terminalRows: Int? { nil }

    func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
    func write(bytes more: [UInt8]) { bytes.append(contentsOf: more) }
    func flush() {}
}

/// Standard input for a command run inside `todo ui`: none (the keys are the screen's).
private final class NoInput: TextInput {
    var isTerminal: Bool { false }
    func readAll(limit: Int) -> [UInt8]? { [] }
    func readLine() -> String? { nil }
}
