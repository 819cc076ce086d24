import ToDoCore
import ToDoModel

import enum ToDoStorage.PathText
import enum ToDoStorage.StoreError

/// `todo import`: the items of a file, standard input or a URL, added in one transaction.
struct ImportCommand: ListCommand {
    static let format = OptionSpec(
        name: "format", valueName: "format",
        help:
            "auto (the default: recognise the format), json, todotxt, taskwarrior, ical or reminders (Apple Reminders as reminders-cli writes them).",
        completion: .words(ImportFormat.allCases.map(\.rawValue)))
    static let dryRun = OptionSpec(
        name: "dry-run", valueName: nil, help: "Show what would be imported and change nothing.")
    static let list = OptionSpec(
        name: "list", valueName: "name",
        help: "Put every item in this list ('default' for the default list), whatever list the source names.",
        completion: .names(.lists))
    static let strict = OptionSpec(
        name: "strict", valueName: nil,
        help: "Refuse the whole source (exit 65) for any problem that would otherwise be a warning.")

    static let spec = CommandSpec(
        name: "import", summary: "Add the items of a file, standard input or a URL.",
        arguments: [
            ArgumentSpec(
                name: "source",
                help: "A file, a folder of .ics files (a vdir), '-' for standard input, or an http:// or https:// URL.")
        ],
        options: [format, list, dryRun, strict, CommonOptions.jsonChanges],
        discussion: """
            All items are added in one transaction, with new numbers, keeping their status. An item whose
            id is already in the list is skipped, and so is an open item with the same content as an open
            item; the summary says which and why. A source that cannot be read at all changes nothing, and
            the error names the line or offset at fault. A problem confined to one property or one item is
            a warning naming its line: the item is imported with what could be read, or skipped, said so,
            when nothing could; --strict refuses the source instead. A folder is a vdir (todoman's,
            vdirsyncer's): its .ics files, one item each, import as one source; a folder of such
            folders (a calendar each) imports each into the list of its name (its displayname file's).
            """,
        argumentCompletion: .files, changesList: true)

    /// Seconds a URL import may take when `TODO_HTTP_TIMEOUT` is not set.
    static let timeout = 30.0

    enum Source: Equatable {
        case file(String)
        case standardInput
        case url(WebAddress)
    }

    var source: Source
    var format: ImportFormat = .auto
    var dryRun = false
    var strict = false
    var json = false
    /// The list every item goes to (`.some(nil)`: the default list); `nil` for the lists the source names.
    var list: String??

    init(
        source: Source, format: ImportFormat = .auto, dryRun: Bool = false, strict: Bool = false, list: String?? = nil
    ) {
        self.source = source
        self.format = format
        self.dryRun = dryRun
        self.strict = strict
        self.list = list
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        let text = try arguments.onePositional()
        source = try Self.source(text, arguments)
        format = try arguments.choice(Self.format, default: .auto)
        dryRun = arguments.flag(Self.dryRun)
        strict = arguments.flag(Self.strict)
        json = arguments.flag(CommonOptions.jsonChanges)
        if let text = arguments.value(Self.list) {
            guard let name = ListName.typed(text) else {
                throw arguments.error("'\(TerminalText.printable(text))' is not a list's name: one line, not empty")
            }
            list = name
        }
    }

    /// `-`, an http(s) URL, or else a file path.
    private static func source(_ text: String, _ arguments: CommandArguments) throws(CommandError) -> Source {
        if text == "-" { return .standardInput }
        let lowercased = text.lowercased()
        guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") else { return .file(text) }
        guard let url = WebAddress(string: text), url.isWebAddress else {
            throw arguments.error("invalid URL '\(text)'")
        }
        return .url(url)
    }

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        var read: (format: ImportFormat, items: [ImportedItem])
        let name: String
        if case .file(let path) = source, ItemInterchange.isFolder(atPath: fullPath(path, context)) {
            name = path
            read = try readFolder(path, runner)
        } else {
            let bytes: [UInt8]
            (name, bytes) = try sourceBytes(runner)
            do {
                read = try ItemInterchange.read(bytes, format: format, timeZone: runner.settings.timeZone)
            } catch {
                throw CommandError.importSource(name, error)
            }
        }
        if let list {
            for index in read.items.indices { read.items[index].item.list = list }
        }
        // What could not be read: a warning each, or with --strict, the whole source refused.
        let problems = read.items.flatMap(\.problems)
        if strict, let first = problems.first {
            throw CommandError.importSource(name, ImportError(at: "", "\(first) (--strict refuses any problem)"))
        }
        // An item skipped for its problem is named once, among the skipped.
        for problem in read.items.filter({ $0.ignoredBecause == nil }).flatMap(\.problems) {
            context.errorOutput.write(TerminalText.printable("Warning: \(name) \(problem)") + "\n")
        }
        let summary: ImportSummary
        // A large import takes a while: how far it has come, on a terminal.
        let line =
            read.items.count >= 1000 ? ProgressLine(context, verb: dryRun ? "Checking" : "Adding", json: json) : nil
        let progress = line.map { line in { (done: Int, total: Int) in line.update(done, of: total) } }
        do {
            defer { line?.finish() }
            if dryRun {
                var manager = try runner.store.load()
                summary = try manager.importItems(read.items, strict: strict, progress: progress)
            } else {
                summary = try runner.store.update(command: runner.arguments) { manager in
                    try manager.importItems(read.items, strict: strict, progress: progress)
                }
            }
        } catch let error as ImportError {
            throw CommandError.importSource(name, error)
        }
        if json {
            // The items added (or that would be), and those skipped, each with where and why.
            var object = JSONObject()
            object["source"] = .string(name)
            object["format"] = .string(read.format.rawValue)
            object["dryRun"] = .bool(dryRun)
            object["added"] = .array(summary.added.map(\.json))
            object["skipped"] = .array(
                summary.skipped.map { skipped in
                    var entry = JSONObject()
                    entry["origin"] = .string(skipped.origin)
                    entry["title"] = .string(skipped.item.title)
                    entry["reason"] = .string(Self.reason(skipped.reason))
                    return .object(entry)
                })
            context.output.write(bytes: JSONValue.object(object).serialized())
            return
        }
        let verb = dryRun ? "Would add" : "Added"
        var text = summary.added.map { "\(verb) \(runner.renderer.summary($0))\n" }.joined()
        for skipped in summary.skipped {
            let title = skipped.item.title.isEmpty ? "" : " \"\(skipped.item.title)\""
            text += "Skipped \(skipped.origin)\(title): \(Self.reason(skipped.reason))\n"
        }
        // Keys todo has no field for are kept with the items; the user learns which, once.
        let withUnknownKeys = read.items.filter { !$0.unknownKeys.isEmpty && $0.ignoredBecause == nil }
        if !withUnknownKeys.isEmpty {
            let keys = Set(withUnknownKeys.flatMap(\.unknownKeys)).sorted().joined(separator: ", ")
            context.errorOutput.write(
                TerminalText.printable(
                    "Warning: \(counted(withUnknownKeys.count, "item")) of \(name) had keys"
                        + " todo has no field for: \(keys); they are kept with the items") + "\n")
        }
        let total = "\(counted(summary.added.count, "item")) from \(name) (\(read.format.rawValue))"
        let skipped = summary.skipped.isEmpty ? "" : "; skipped \(summary.skipped.count)"
        text += dryRun ? "Would import \(total)\(skipped); nothing was changed.\n" : "Imported \(total)\(skipped).\n"
        context.output.write(TerminalText.printableLines(text))
    }

    private static func reason(_ reason: SkipReason) -> String {
        switch reason {
        case .sameID(let existing): return "its id is already in the list, as \(existing.label)"
        case .sameContent(let existing):
            return "\(existing.done ? "a done" : "an open") item has the same content: \(existing.label)"
        case .ignored(let why), .refused(let why): return why
        }
    }

    private func fullPath(_ path: String, _ context: Context) -> String {
        PathText.absolute(path, in: context.currentDirectory)
    }

    /// A vdir's items: every `.ics` file of the folder, as one iCalendar source.
    private func readFolder(
        _ path: String, _ runner: CommandRunner
    ) throws -> (format: ImportFormat, items: [ImportedItem]) {
        guard format == .auto || format == .ical else {
            throw CommandError(
                message:
                    "'\(path)' is a folder, which imports as a vdir of iCalendar files; leave out --format or give --format ical",
                command: Self.spec)
        }
        let files: [(name: String, bytes: [UInt8], list: String?)]
        let limit = try runner.settings.importMaximumBytes
        do {
            files = try ItemInterchange.readFolder(atPath: fullPath(path, runner.context), limit: limit)
        } catch {
            throw CommandError.importFetch(path, try Self.reason(error, runner))
        }
        do {
            return (.ical, try ItemInterchange.readICalendarFiles(files, timeZone: runner.settings.timeZone))
        } catch {
            throw CommandError.importSource(path, error)
        }
    }

    /// Why a file or folder could not be imported, in the words of the import.
    private static func reason(_ error: StoreError, _ runner: CommandRunner) throws -> String {
        switch error {
        case .unusableFile(let file, .notRegularFile):
            "\(file) is not a regular file (a FIFO, a device or a socket), which todo does not read"
        case .unusableFile(let file, .linkOutOfFolder):
            "\(file) is a link out of the folder, and todo imports only the folder's own files"
        case .unusableFile(_, .tooLarge): tooLarge(try runner.settings.importMaximumBytes)
        default: error.systemMessage ?? error.description
        }
    }

    private static func tooLarge(_ limit: Int) -> String {
        "it is larger than \(limit >> 20) MB, the most todo imports (TODO_IMPORT_MAX_MB)"
    }

    /// The source's name for messages, and its bytes: read from the file, standard input or the
    /// URL before the store is touched.
    private func sourceBytes(_ runner: CommandRunner) throws -> (String, [UInt8]) {
        let context = runner.context
        switch source {
        case .standardInput:
            if context.input.isTerminal {
                context.errorOutput.write("Reading items from standard input; end with Ctrl-D.\n")
                context.errorOutput.flush()
            }
            let limit = try runner.settings.importMaximumBytes
            guard let bytes = context.input.readAll(limit: limit) else {
                throw CommandError.importFetch("standard input", Self.tooLarge(limit))
            }
            return ("standard input", bytes)
        case .file(let path):
            let limit = try runner.settings.importMaximumBytes
            do {
                return (path, try ItemInterchange.readFile(atPath: fullPath(path, context), limit: limit))
            } catch {
                throw CommandError.importFetch(path, try Self.reason(error, runner))
            }
        case .url(let url):
            let name = url.absoluteString
            let request = HTTPRequest(
                url: url, headers: ["User-Agent": HelpRenderer.userAgent],
                timeout: try runner.settings.httpTimeout ?? Self.timeout,
                maximumBodyBytes: try runner.settings.importMaximumBytes)
            guard let transport = context.transport else {
                throw CommandError.importFetch(name, "this todo cannot make HTTP requests")
            }
            let response: HTTPResponse
            do {
                response = try transport.send(request)
            } catch {
                throw CommandError.importFetch(name, error.description)
            }
            guard response.isSuccess else {
                throw CommandError.importFetch(name, "the server answered HTTP \(response.status)")
            }
            return (name, response.body)
        }
    }
}

extension CommandError {
    /// An import source that cannot be read as its format; nothing was imported.
    static func importSource(_ source: String, _ error: ImportError) -> CommandError {
        CommandError(ExitCode(error.outcome), "cannot import \(source): \(error); nothing was imported")
    }

    /// An import source that could not be fetched or opened.
    static func importFetch(_ source: String, _ reason: String) -> CommandError {
        CommandError(.failure, "cannot read \(source): \(reason); nothing was imported")
    }
}
