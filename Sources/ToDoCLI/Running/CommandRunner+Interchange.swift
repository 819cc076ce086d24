import Foundation
import ToDoCore

/// An import source that cannot be read as its format; nothing was imported.
struct ImportSourceError: Error, CustomStringConvertible {
    let source: String
    let underlying: ImportError

    var description: String { "cannot import \(source): \(underlying); nothing was imported" }
}

/// An import source that could not be fetched or opened.
struct ImportFetchError: Error, CustomStringConvertible {
    let source: String
    let reason: String

    var description: String { "cannot read \(source): \(reason); nothing was imported" }
}

/// An export file that could not be written; the file is as it was.
struct ExportWriteError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot write \(path): \(reason)" }
}

/// `todo export` and `todo import`.
extension CommandRunner {
    /// Seconds a URL import may take when `TODO_HTTP_TIMEOUT` is not set.
    static let importTimeout = 30.0

    func export(format: ExportFormat, output: String?, query: ItemQuery) throws {
        if let output, store.keepsFile(atPath: URL(fileURLWithPath: output, relativeTo: context.currentDirectory).path) {
            throw UsageError(message: "'--output \(output)' is a file of the list itself; nothing was written, choose another file",
                             command: CommandTable.export)
        }
        let manager = try store.load()
        let (open, done) = query.apply(open: manager.toDoItems, done: manager.doneItems, now: context.now(), dates: renderer.dates)
        let items = open + done
        let bytes: [UInt8]
        switch format {
        case .json: bytes = ItemInterchange.json(manager, open: open, done: done)
        case .todotxt: bytes = Array(TodoTxtFormat.write(items, timeZone: settings.timeZone).utf8)
        case .ical:
            bytes = Array(ICalendarFormat.write(items, timeZone: settings.timeZone, now: context.now(),
                                                productID: "-//todo//todo \(HelpRenderer.version)//EN").utf8)
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
        let url = URL(fileURLWithPath: output, relativeTo: context.currentDirectory)
        do {
            // The store's own atomic writer: private (0600), flushed, renamed into place.
            try PrivateFile.write(bytes, toPath: url.path)
        } catch {
            throw ExportWriteError(path: output, reason: error.systemMessage ?? error.description)
        }
        context.errorOutput.write("Exported \(counted(items.count, "item")) to \(TerminalText.printable(output)).\n")
    }

    func importItems(_ request: ImportRequest) throws {
        let (name, bytes) = try sourceBytes(request.source)
        let read: (format: ImportFormat, items: [ImportedItem])
        do {
            read = try ItemInterchange.read(bytes, format: request.format, timeZone: settings.timeZone)
        } catch {
            throw ImportSourceError(source: name, underlying: error)
        }
        let summary: ImportSummary
        do {
            if request.dryRun {
                var manager = try store.load()
                summary = try manager.importItems(read.items)
            } else {
                summary = try store.update(command: arguments) { manager in try manager.importItems(read.items) }
            }
        } catch let error as ImportError {
            throw ImportSourceError(source: name, underlying: error)
        }
        let verb = request.dryRun ? "Would add" : "Added"
        var text = summary.added.map { "\(verb) \(renderer.summary($0))\n" }.joined()
        for skipped in summary.skipped {
            text += "Skipped \(skipped.origin) \"\(skipped.item.title)\": \(Self.reason(skipped.reason))\n"
        }
        // Keys todo has no field for are kept with the items; the user learns which, once.
        let withUnknownKeys = read.items.filter { !$0.unknownKeys.isEmpty }
        if !withUnknownKeys.isEmpty {
            let keys = Set(withUnknownKeys.flatMap(\.unknownKeys)).sorted().joined(separator: ", ")
            context.errorOutput.write(TerminalText.printable("Warning: \(counted(withUnknownKeys.count, "item")) of \(name) had keys"
                + " todo has no field for: \(keys); they are kept with the items") + "\n")
        }
        let total = "\(counted(summary.added.count, "item")) from \(name) (\(read.format.rawValue))"
        let skipped = summary.skipped.isEmpty ? "" : "; skipped \(summary.skipped.count)"
        text += request.dryRun ? "Would import \(total)\(skipped); nothing was changed.\n" : "Imported \(total)\(skipped).\n"
        context.output.write(TerminalText.printableLines(text))
    }

    private static func reason(_ reason: SkipReason) -> String {
        switch reason {
        case .sameID(let existing): return "its id is already in the list, as \(existing.label)"
        case .sameContent(let existing): return "an open item has the same content: \(existing.label)"
        case .ignored(let why): return why
        }
    }

    /// The source's name for messages, and its bytes: read from the file, standard input or the
    /// URL before the store is touched.
    private func sourceBytes(_ source: ImportRequest.Source) throws -> (String, [UInt8]) {
        switch source {
        case .standardInput:
            if context.input.isTerminal {
                context.errorOutput.write("Reading items from standard input; end with Ctrl-D.\n")
                context.errorOutput.flush()
            }
            return ("standard input", context.input.readAll())
        case .file(let path):
            do {
                return (path, try ItemInterchange.readFile(atPath: URL(fileURLWithPath: path, relativeTo: context.currentDirectory).path))
            } catch {
                throw ImportFetchError(source: path, reason: error.systemMessage ?? error.description)
            }
        case .url(let url):
            let name = url.absoluteString
            guard let transport = context.transport else {
                throw ImportFetchError(source: name, reason: "this todo cannot make HTTP requests")
            }
            let response: HTTPResponse
            do {
                response = try transport.get(HTTPRequest(url: url, headers: ["User-Agent": HelpRenderer.userAgent],
                                                         timeout: settings.httpTimeout ?? Self.importTimeout,
                                                         maximumBodyBytes: settings.importMaximumBytes))
            } catch {
                throw ImportFetchError(source: name, reason: error.description)
            }
            guard response.isSuccess else { throw ImportFetchError(source: name, reason: "the server answered HTTP \(response.status)") }
            return (name, response.body)
        }
    }
}
