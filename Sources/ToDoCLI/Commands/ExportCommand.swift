import ToDoCore
import ToDoModel

import enum ToDoStorage.PathText

/// `todo export`: every item, or those a query picks, as JSON, todo.txt, iCalendar or Taskwarrior's JSON.
struct ExportCommand: ListCommand {
    static let format = OptionSpec(
        name: "format", valueName: "format",
        help: "json (the data file's format; the default), todotxt, ical or taskwarrior (what task import reads).",
        completion: .words(ExportFormat.allCases.map(\.rawValue)))
    static let output = OptionSpec(
        name: "output", valueName: "file", help: "Write to this file (replaced whole) instead of standard output.",
        completion: .files)

    static let spec = CommandSpec(
        name: "export", summary: "Write every item in a format todo imports, or another's.",
        arguments: [QueryOptions.filterWords], options: [format, output] + QueryOptions.all,
        exclusiveOptions: QueryOptions.exclusions,
        discussion: """
            Open items first, then done items, each in list order; todo.txt by number, as its lines
            came (a done line stays where it is). todo.txt gets todo's fields as key:value words
            (due:, t:, rec:, id:, desc:, loc:, addr:, geo:) and tags as +tag, and a line read from
            todo.txt and not changed since goes back as it came; iCalendar gets one VTODO per item;
            taskwarrior gets one task per line, for 'task import'. 'todo import' reads each format back
            as the same items (todo.txt reads a line whole: its +tag words stay in the title too).
            Taskwarrior's filter words pick items as for 'todo list':
            todo export status:pending project:home --format taskwarrior.
            """,
        attributeWords: .filter)

    var format: ExportFormat = .json
    var output: String?
    var section: ListSection = .all
    /// Only the subtasks of this item (`--parent`).
    var parent: ItemReference?
    var query = ItemQuery()

    init(
        format: ExportFormat = .json, output: String? = nil, section: ListSection = .all, query: ItemQuery = ItemQuery()
    ) {
        self.format = format
        self.output = output
        self.section = section
        self.query = query
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        format = try arguments.choice(Self.format, default: .json)
        output = arguments.value(Self.output)
        (section, query) = try arguments.selection()
        parent = try arguments.reference(QueryOptions.parent)
    }

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        if let output, runner.store.keepsFile(atPath: PathText.absolute(output, in: context.currentDirectory)) {
            throw CommandError(
                message: "'--output \(output)' is a file of the list itself; nothing was written, choose another file",
                command: Self.spec)
        }
        let manager = try runner.load()
        let (openCandidates, doneCandidates) = try manager.items(in: section, subtasksOf: parent)
        let (open, done, _, _) = query.apply(
            open: openCandidates, done: doneCandidates, now: context.now(), dates: runner.renderer.dates,
            latestDone: nil)
        var items = (open + done).map(\.item)
        // todo.txt keeps its lines where they are, a done one too: by number, the order they came
        // in (an import and export give the file back), unless --sort orders them.
        if format == .todotxt, query.sort == nil, !query.reverse { items.sort { $0.number < $1.number } }
        let bytes: [UInt8]
        switch format {
        case .json: bytes = ItemInterchange.json(manager, open: open, done: done)
        case .todotxt: bytes = Array(TodoTxtFormat.write(items, timeZone: runner.settings.timeZone).utf8)
        case .ical:
            bytes = Array(
                ICalendarFormat.write(
                    items, timeZone: runner.settings.timeZone, now: context.now(),
                    productID: HelpRenderer.productID
                ).utf8)
        case .taskwarrior:
            bytes = TaskwarriorFormat.write(items, now: context.now(), timeZone: runner.settings.timeZone)
        }
        // What the format has no place for (todo.txt: reminders, annotations, in progress;
        // Taskwarrior: reminders): said once, on standard error.
        let leftOut = format.leftOut(of: items)
        if !leftOut.isEmpty {
            let name = format == .todotxt ? "todo.txt" : "Taskwarrior"
            let list = inASentence(leftOut.map { "\($0.what) (\(counted($0.items, "item")))" })
            context.errorOutput.write("Note: \(name) has no place for \(list); they were left out.\n")
        }
        guard let output else {
            // A terminal shows control characters from titles as `list` does; a file or a pipe
            // gets the exact bytes.
            if context.output.isTerminal {
                context.output.write(TerminalText.printableLines(String(decoding: bytes, as: UTF8.self)))
            } else {
                context.output.write(bytes: bytes)
            }
            return
        }
        do {
            // The store's own atomic writer: private (0600), flushed, renamed into place.
            try PrivateFile.write(bytes, toPath: PathText.absolute(output, in: context.currentDirectory))
        } catch {
            // The file is as it was.
            throw CommandError(.failure, "cannot write \(output): \(error.systemMessage ?? error.description)")
        }
        context.errorOutput.write("Exported \(counted(items.count, "item")) to \(TerminalText.printable(output)).\n")
    }
}
