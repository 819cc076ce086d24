import ToDoCore
import ToDoModel

import enum ToDoStorage.ProcessArguments

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `todo` command line: parse the arguments, run the command, render the result. Every error
/// reaches the user once, on standard error, with its documented exit code.
public enum ToDoCLI {
    /// Runs `todo` with the process's own arguments and returns the exit code. An argument that is
    /// not valid UTF-8 is refused (exit 64, nothing changed), as the same bytes on standard input
    /// are: Swift's `CommandLine.arguments` would quietly store U+FFFD in their place.
    public static func runProcess(in context: Context) -> Int32 {
        var arguments: [String] = []
        for (index, text, shown) in ProcessArguments.all() {
            guard let argument = text else {
                report(
                    CommandError(
                        message: "argument \(index) ('\(shown)') is not valid UTF-8; nothing was changed",
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
            report(
                CommandError(.failure, "cannot write standard output: \(String(cString: strerror(code)))"),
                to: context.errorOutput)
            return status == ExitCode.success.rawValue ? ExitCode.failure.rawValue : status
        }
        return status
    }

    private static func runCommand(_ arguments: [String], in context: Context) -> Int32 {
        let settings = Result { () throws(CommandError) in
            try Settings(environment: context.environment, systemTimeZone: context.systemTimeZone)
        }
        do {
            let parser = CommandParser { () throws(CommandError) in
                let settings = try settings.get()
                return DueDateParser(now: context.now(), rules: settings.timeZone, order: settings.dateOrder)
            }
            let invocation = try parser.parse(arguments)
            try invocation.command.run(in: CommandSession(context: context, settings: settings, invocation: invocation))
            return ExitCode.success.rawValue
        } catch {
            report(error, to: context.errorOutput)
            return ExitCode(for: error).rawValue
        }
    }

    private static func report(_ error: Error, to output: TextOutput) {
        // Messages quote the user's input, which may hold control characters.
        guard let usage = error as? CommandError, usage.code == .usage else {
            output.write("Error: \(TerminalText.printable(String(describing: error)))\n")
            return
        }
        output.write("Error: \(TerminalText.printable(usage.message))\n")
        if let detail = usage.detail { output.write(detail + "\n") }
        if usage.showsUsage { output.write(HelpRenderer.usageHint(for: usage.command, message: usage.message)) }
    }
}
