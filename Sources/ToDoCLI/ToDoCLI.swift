import Foundation
import ToDoCore

/// The `todo` command line: parse the arguments, run the command, render the result. Every error
/// reaches the user once, on standard error, with its documented exit code.
public enum ToDoCLI {
    /// Runs `todo` with the process's own arguments and returns the exit code. An argument that is
    /// not valid UTF-8 is refused (exit 64, nothing changed), as the same bytes on standard input
    /// are: Swift's `CommandLine.arguments` would quietly store U+FFFD in their place.
    public static func runProcess(in context: Context) -> Int32 {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let argument = String(validatingCString: pointer) else {
                let shown = String(cString: pointer)
                report(UsageError(message: "argument \(index) ('\(shown)') is not valid UTF-8; nothing was changed",
                                  showsUsage: false), to: context.errorOutput)
                context.errorOutput.flush()
                return ExitCode.usage.rawValue
            }
            arguments.append(argument)
        }
        return run(arguments, in: context)
    }

    /// Runs `todo` with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], in context: Context) -> Int32 {
        defer { context.errorOutput.flush() }
        let status = runCommand(arguments, in: context)
        // Output that did not all arrive is a failure, never a silent success (`todo export > backup`
        // on a full disk).
        context.output.flush()
        if let code = context.output.writeError {
            report(OutputError(code: code), to: context.errorOutput)
            return status == ExitCode.success.rawValue ? ExitCode.failure.rawValue : status
        }
        return status
    }

    private static func runCommand(_ arguments: [String], in context: Context) -> Int32 {
        let settings = Result { () throws(UsageError) in
            try Settings(environment: context.environment, systemTimeZone: context.systemTimeZone)
        }
        do {
            let parser = CommandParser {  () throws(UsageError) in
                let settings = try settings.get()
                return DueDateParser(now: context.now(), rules: settings.timeZone, order: settings.dateOrder)
            }
            let invocation = try parser.parse(arguments)
            switch invocation.command {
            case .version:
                context.output.write("todo \(HelpRenderer.version)\n")
            case .help(let command):
                context.output.write(command.map(HelpRenderer.help(for:)) ?? HelpRenderer.overview())
            case .helpTopic(let topic):
                // Help works whatever the settings: a bad TODO_DATE_ORDER shows the default order.
                let order = (try? settings.get().dateOrder) ?? .monthFirst
                context.output.write(HelpRenderer.help(for: topic, dateOrder: order))
            case .manual:
                context.output.write(ManualRenderer.page())
            case .completionScript(let shell):
                context.output.write(CompletionScripts.script(for: shell))
            default:
                let settings = try settings.get()
                var runner = try runner(for: invocation, settings: settings, context: context)
                runner.arguments = invocation.commandLine
                try runner.run(invocation.command)
            }
            return ExitCode.success.rawValue
        } catch {
            report(error, to: context.errorOutput)
            return ExitCode(for: error).rawValue
        }
    }

    /// Standard output could not be written.
    struct OutputError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "cannot write standard output: \(String(cString: strerror(code)))" }
    }

    private static func runner(for invocation: Invocation, settings: Settings, context: Context) throws -> CommandRunner {
        guard let home = context.homeDirectory
            ?? (context.environment["TODO_FILE"] != nil || invocation.fileOption != nil ? URL(fileURLWithPath: "/") : nil)
        else {
            throw UsageError(message: "cannot find the home directory; set HOME or TODO_FILE", showsUsage: false)
        }
        let fileURL = StoreLocation.fileURL(fileOption: invocation.fileOption, environment: context.environment,
                                            homeDirectory: home, currentDirectory: context.currentDirectory)
        let now = context.now
        let renderer = ItemRenderer(
            style: Style(isEnabled: Style.isEnabled(invocation.color, outputIsTerminal: context.output.isTerminal,
                                                    environment: context.environment)),
            dates: DueDateFormatter(rules: settings.timeZone, order: settings.dateOrder),
            now: now())
        return CommandRunner(context: context,
                             store: JSONFileStore(fileURL: fileURL, lockTimeout: settings.lockTimeout, now: now),
                             renderer: renderer, settings: settings)
    }

    private static func report(_ error: Error, to output: TextOutput) {
        // Messages quote the user's input, which may hold control characters.
        guard let usage = error as? UsageError else {
            output.write("Error: \(TerminalText.printable(String(describing: error)))\n")
            return
        }
        output.write("Error: \(TerminalText.printable(usage.message))\n")
        if let detail = usage.detail { output.write(detail + "\n") }
        if usage.showsUsage { output.write(HelpRenderer.usageHint(for: usage.command)) }
    }
}
