import ToDoCore
import ToDoModel

/// `todo ui`: the list on the full screen, driven by keys (`UISession`), on a terminal it takes
/// and always gives back (`Terminal`).
struct UICommand: ToDoCommand {
    static let spec = CommandSpec(
        name: "ui", summary: "Show the list on the full screen, driven by keys.",
        arguments: [QueryOptions.filterWords], options: QueryOptions.filters,
        discussion: """
            The list as 'todo list' shows it, on the terminal's alternate screen, a row selected. Each
            key runs the command it names, the same change, history entry and undo step as typed: j
            and k (or the arrows) move, x or space checks or unchecks, a adds (add's words: Call Mom
            due:fri +home), e edits (the item's words, as edit reads them), s starts or stops, p
            postpones, d removes after y, u and r undo and redo, / filters with list's words (Esc
            clears), Tab goes through the lists, n shows next's ranking, A the agenda, S syncs,
            Enter shows the item, ? lists the keys, q quits. A change made meanwhile by another
            process (a sync, a second terminal) is shown within a second. Words given here are the
            filter to start with (todo ui +home --list Work). Needs a terminal for its input and
            output, one that moves the cursor (not TERM=dumb).
            """,
        attributeWords: .filter)

    /// The list to start with (`--list`); the other words are read again from the command line
    /// (`filterWords(in:)`), as the listing takes them.
    var list: String?

    init(_ arguments: CommandArguments) throws(CommandError) {
        // The words are the listing's own, given to it as typed (`UISession.shownCommand`); read
        // here only so that a mistake is refused before the screen is taken.
        _ = try arguments.selection()
        list = arguments.value(QueryOptions.list)
    }

    /// How long the screen waits for a key before it looks whether the list changed, in milliseconds.
    static let idleCheck: Int32 = 1000

    func run(in session: CommandSession) throws {
        let context = session.context
        guard context.input.isTerminal, context.output.isTerminal else {
            throw CommandError(
                message: "todo ui needs a terminal for its input and output; use todo list to print the list",
                command: Self.spec)
        }
        guard context.environment["TERM"] != "dumb" else {
            throw CommandError(
                message: "todo ui needs a terminal that moves the cursor (TERM is dumb); use todo list",
                command: Self.spec)
        }
        let runner = try session.runner()
        let colour = Style.isEnabled(
            session.invocation.color, outputIsTerminal: true, environment: context.environment)
        let todo = InProcessTodo(
            context: context,
            globalArguments: (session.invocation.fileOption.map { ["--file", $0] } ?? [])
                + ["--color", colour ? "always" : "never"])
        let screen = UISession(todo: todo, store: runner.store, timeZone: runner.settings.timeZone, colour: colour)
        // The first listing, at the window's size, before the screen is taken: a list that
        // cannot be read is refused with the listing's error.
        let size = Terminal.windowSize
        let first = screen.start(
            filter: Self.filterWords(in: session.invocation.commandLine), list: list, columns: size.columns,
            rows: size.rows)
        guard first.succeeded else {
            let message = first.firstLine.hasPrefix("Error: ") ? String(first.firstLine.dropFirst(7)) : first.firstLine
            throw CommandError(ExitCode(rawValue: first.status) ?? .failure, message)
        }
        let terminal = try Terminal()
        defer { terminal.leave() }
        screen.paintNow = terminal.write
        terminal.write(screen.paint())
        var reader = KeyReader()
        while true {
            let events = terminal.wait(milliseconds: Self.idleCheck)
            if events.inputEnded { return }
            if events.mustRedraw {
                let size = Terminal.windowSize
                screen.resize(columns: size.columns, rows: size.rows)
                screen.redrawWhole()
            }
            if events.input.isEmpty, !events.mustRedraw {
                // A while without keys: another process may have changed the list.
                guard screen.reloadIfChanged() else { continue }
            }
            for key in reader.keys(in: events.input) {
                switch screen.handle(key) {
                case .keepGoing: continue
                case .quit: return
                case .suspend:
                    terminal.suspend()
                    let size = Terminal.windowSize
                    screen.resize(columns: size.columns, rows: size.rows)
                    screen.redrawWhole()
                }
            }
            terminal.write(screen.paint())
        }
    }

    /// The words after `ui` other than `--list` and its name: the listing's filter.
    static func filterWords(in commandLine: [String]) -> [String] {
        var words: [String] = [], skipsNext = false
        for word in commandLine.dropFirst() {
            if skipsNext {
                skipsNext = false
            } else if word == "--list" {
                skipsNext = true
            } else if !word.hasPrefix("--list=") {
                words.append(word)
            }
        }
        return words
    }
}
