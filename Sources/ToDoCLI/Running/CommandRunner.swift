import Foundation
import ToDoCore

/// A title from standard input that a rule refused, with its line number.
struct StandardInputLineError: Error, CustomStringConvertible {
    let line: Int
    let underlying: ItemManagerError

    var description: String { "line \(line) of standard input: \(underlying); nothing was added" }
}

/// Runs a parsed command against the store and writes what it did.
struct CommandRunner {
    let context: Context
    let store: JSONFileStore
    let renderer: ItemRenderer
    let settings: Settings
    /// The command line, without the program name and the global options, as the history records it.
    var arguments: [String] = []

    private var addressLookup: AddressLookup {
        AddressLookup(geocoderURL: settings.geocoderURL, transport: context.transport,
                      timeout: settings.httpTimeout ?? AddressLookup.defaultTimeout, errorOutput: context.errorOutput)
    }

    func run(_ command: Command) throws {
        switch command {
        case .add(let request): try add(request)
        case .list(let section, let json, let query): try list(section, json: json, query: query)
        case .show(let reference, let json):
            let item = try store.load().resolve(reference)
            write(json ? renderer.json(item) : renderer.details(item))
        case .check(let references, let json):
            try changeEach(references, json: json) { manager, item in
                (try manager.checkItem(withID: item.id), item.done ? "Already done" : "Checked")
            }
        case .uncheck(let references, let json):
            try changeEach(references, json: json) { manager, item in
                (try manager.uncheckItem(withID: item.id), item.done ? "Unchecked" : "Already open")
            }
        case .remove(let references, let json):
            try changeEach(references, json: json) { manager, item in
                (try manager.removeItem(withID: item.id), "Removed")
            }
        case .edit(let request): try edit(request)
        case .clear(let doneOnly, let confirmed): try clear(doneOnly: doneOnly, confirmed: confirmed)
        case .export(let format, let output, let query): try export(format: format, output: output, query: query)
        case .importItems(let request): try importItems(request)
        case .undo(let selection): try undo(selection)
        case .history(let limit, let json): try history(limit: limit, json: json)
        case .completionItems(let section): try completionItems(section)
        case .help, .helpTopic, .manual, .completionScript, .version: break
        }
    }

    func write(_ text: String) {
        context.output.write(text)
    }

    // MARK: Commands

    private func add(_ request: AddRequest) throws {
        var request = request
        if request.geocode, let address = request.location?.address, request.location?.coordinate == nil {
            request.location?.coordinate = addressLookup.coordinate(for: address, otherwise: "saved without a coordinate")
        }
        let titles: [String]
        switch request.titles {
        case .argument(let title): titles = [title]
        case .standardInput: titles = try standardInputTitles()
        }
        let added = try store.update(command: arguments) { manager in
            try titles.enumerated().map { index, title in
                let item = ToDoItem(title: title, itemDescription: request.itemDescription,
                                    timestamp: request.timestamp, location: request.location)
                do {
                    return try manager.add(item)
                } catch let error as ItemManagerError where request.titles == .standardInput {
                    throw StandardInputLineError(line: index + 1, underlying: error)
                }
            }
        }
        if request.json {
            if request.titles == .standardInput {
                renderer.writeJSON([added], to: context.output)
            } else {
                write(renderer.json(added[0]))
            }
        } else {
            write(added.map { "Added \(renderer.summary($0))\n" }.joined())
        }
        if added.isEmpty { context.errorOutput.write("No titles on standard input; nothing was added.\n") }
    }

    /// The non-blank lines of standard input, trimmed; blank lines are skipped. Lines end at LF,
    /// with or without a CR before it (split as bytes: Swift counts "\r\n" as one character).
    private func standardInputTitles() throws -> [String] {
        if context.input.isTerminal {
            context.errorOutput.write("Reading titles, one per line; end with Ctrl-D.\n")
            context.errorOutput.flush()
        }
        let bytes = context.input.readAll()
        guard String(bytes: bytes, encoding: .utf8) != nil else {
            throw UsageError(message: "standard input is not valid UTF-8; nothing was added", command: CommandTable.add)
        }
        return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .map { line in
                let content = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
                return Whitespace.trimmingSpaces(String(decoding: content, as: UTF8.self))
            }
            .filter { !$0.isEmpty }
    }

    private func list(_ section: ListSection, json: Bool, query: ItemQuery) throws {
        let manager = try store.load()
        let (open, done) = query.apply(open: section == .done ? [] : manager.toDoItems,
                                       done: section == .open ? [] : manager.doneItems,
                                       now: context.now(), dates: renderer.dates)
        if json {
            renderer.writeJSON([open, done], to: context.output)
        } else {
            renderer.writeList(open: open, done: done, section: section, to: context.output)
            if open.isEmpty, done.isEmpty, context.output.isTerminal {
                let what = section == .open ? "open items" : section == .done ? "done items" : "items"
                context.errorOutput.write("No \(what). Add one with: todo add \"Call Mom\" --due tomorrow\n")
            }
        }
    }

    /// Resolves every reference, then applies `change` to each item in one transaction, so that
    /// a bad reference or a refusal leaves everything as it was.
    private func changeEach(
        _ references: [ItemReference], json: Bool,
        _ change: (inout ItemManager, ToDoItem) throws -> (ToDoItem, String)
    ) throws {
        let results = try store.update(command: arguments) { manager in
            try manager.resolve(references).map { item in try change(&manager, item) }
        }
        if json {
            renderer.writeJSON([results.map(\.0)], to: context.output)
        } else {
            write(results.map { item, verb in "\(verb) \(renderer.summary(item))\n" }.joined())
        }
    }

    private func edit(_ request: EditRequest) throws {
        var request = request
        if request.geocode {
            if case .set(var location) = request.location, let address = location.address, location.coordinate == nil {
                location.coordinate = addressLookup.coordinate(for: address, otherwise: "saved without a coordinate")
                request.location = .set(location)
            } else if case .set(let address) = request.address, request.coordinate == .keep,
                      // An item without a place refuses the change anyway: nothing to look up.
                      (try? store.load().resolve(request.reference))?.location != nil {
                if let coordinate = addressLookup.coordinate(for: address, otherwise: "the coordinate was left as it was") {
                    request.coordinate = .set(coordinate)
                }
            }
        }
        let edited = try store.update(command: arguments) { manager in
            let item = try manager.resolve(request.reference)
            do {
                return try manager.edit(itemWithID: item.id, request.edit)
            } catch ItemManagerError.noLocation(let item) {
                // On the command line, the way out is an option to give.
                throw UsageError(message: "item \(item.number) has no location; give '--location <name>' too",
                                 command: CommandTable.edit)
            }
        }
        write(request.json ? renderer.json(edited) : "Edited \(renderer.summary(edited))\n")
    }

    private func clear(doneOnly: Bool, confirmed: Bool) throws {
        let noun = doneOnly ? "done item" : "item"
        if !confirmed {
            let manager = try store.load()
            let count = doneOnly ? manager.doneCount : manager.toDoCount + manager.doneCount
            guard count > 0 else {
                write("No \(noun)s to remove.\n")
                return
            }
            guard context.input.isTerminal else {
                throw UsageError(message: "'clear' would remove \(counted(count, noun)); add '--yes' to confirm"
                                 + " (there is no terminal to ask)", command: CommandTable.clear)
            }
            context.errorOutput.write("Remove \(count == 1 ? "the" : "all") \(counted(count, noun))? [y/N] ")
            context.errorOutput.flush()
            let answer = context.input.readLine().map(Whitespace.trimmingSpaces)?.lowercased()
            guard answer == "y" || answer == "yes" else {
                context.errorOutput.write("Nothing was removed.\n")
                return
            }
        }
        let removed = try store.update(command: arguments) { manager in
            if doneOnly { return manager.removeDoneItems().count }
            defer { manager.removeAll() }
            return manager.allItems.count
        }
        write("Removed \(counted(removed, noun)).\n")
    }

    /// "1 item", "2 items".
    func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
