import Foundation
import ToDoCore

/// Turns a command line into a validated `Invocation`. Pure: the due-date parser carries the clock,
/// time zone and date order it needs, and is asked for only when a date is given.
struct CommandParser {
    /// Makes the due-date parser; it throws when a setting it needs (TZ, TODO_DATE_ORDER) is bad.
    let makeDueDateParser: () throws(UsageError) -> DueDateParser

    func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let scanned = try ArgumentScanner.scan(arguments)
        var color = ColorChoice.auto
        if let value = scanned.globalValues["color"] {
            guard let choice = ColorChoice(rawValue: value) else {
                throw UsageError(message: "invalid value '\(value)' for '--color'; use auto, always or never",
                                 command: scanned.command)
            }
            color = choice
        }
        let command: Command
        if scanned.wantsHelp {
            command = .help(scanned.command)
        } else if scanned.wantsVersion {
            command = .version
        } else if let spec = scanned.command {
            command = try build(spec, from: scanned)
        } else {
            command = .list(.all, json: false)
        }
        return Invocation(command: command, fileOption: scanned.globalValues["file"], color: color,
                          commandLine: scanned.commandLine)
    }

    // MARK: Commands

    private func build(_ spec: CommandSpec, from scanned: ScannedArguments) throws(UsageError) -> Command {
        let reader = Reader(spec: spec, scanned: scanned, makeDueDateParser: makeDueDateParser)
        let json = scanned.flags.contains("json")
        switch spec.name {
        case "add":
            let words = try reader.positionals(atLeast: 1)
            var request = AddRequest(titles: .standardInput, json: json)
            if words != ["-"] {
                let title = try reader.title(words.joined(separator: " "))
                request.titles = .argument(title)
            }
            request.itemDescription = scanned.values["description"]
            request.timestamp = try reader.dueDate()
            request.location = try reader.newLocation()
            request.geocode = !scanned.flags.contains("no-geocode")
            return .add(request)
        case "list":
            try reader.noPositionals()
            let section: ListSection = scanned.flags.contains("open") ? .open : scanned.flags.contains("done") ? .done : .all
            return .list(section, json: json, query: try reader.query())
        case "show":
            return .show(try reader.reference(), json: json)
        case "check":
            return .check(try reader.references(), json: json)
        case "uncheck":
            return .uncheck(try reader.references(), json: json)
        case "remove":
            return .remove(try reader.references(), json: json)
        case "edit":
            return .edit(try reader.editRequest(json: json))
        case "clear":
            try reader.noPositionals()
            return .clear(doneOnly: scanned.flags.contains("done"), confirmed: scanned.flags.contains("yes"))
        case "export":
            try reader.noPositionals()
            return .export(format: try reader.choice("format", default: .json), output: scanned.values["output"],
                           query: try reader.query())
        case "import":
            let sources = try reader.positionals(atLeast: 1)
            _ = try reader.positionals(atMost: 1)
            return .importItems(ImportRequest(source: try reader.importSource(sources[0]), format: try reader.choice("format", default: .auto),
                                              dryRun: scanned.flags.contains("dry-run")))
        case "undo":
            if let number = scanned.values["change"] {
                try reader.noPositionals()
                return .undo(.change(try reader.count(number, of: "--change", noun: "a change number from 'todo history'")))
            }
            return .undo(.latest(try reader.optionalCount()))
        case "redo":
            return .undo(.latestUndos(try reader.optionalCount()))
        case "completion":
            if let which = scanned.values["items"] {
                try reader.noPositionals()
                switch which {
                case "all": return .completionItems(.all)
                case "open": return .completionItems(.open)
                case "done": return .completionItems(.done)
                default: throw reader.error("invalid value '\(which)' for '--items'; use all, open or done")
                }
            }
            let shells = try reader.positionals(atLeast: 1)
            _ = try reader.positionals(atMost: 1)
            guard let shell = Shell(rawValue: shells[0]) else {
                throw reader.error("unknown shell '\(shells[0])'; use bash, zsh or fish")
            }
            return .completionScript(shell)
        case "history":
            try reader.noPositionals()
            let limit = try scanned.values["limit"].map { text throws(UsageError) in
                try reader.count(text, of: "--limit", noun: "a number of changes", allowsZero: true)
            }
            return .history(limit: limit ?? 10, json: json)
        default:
            let topics = try reader.positionals(atMost: 1)
            if scanned.flags.contains("man") {
                try reader.noPositionals()
                return .manual
            }
            guard let topic = topics.first else { return .help(nil) }
            if let command = CommandTable.command(named: topic) { return .help(command) }
            if let topic = HelpTopics.topic(named: topic) { return .helpTopic(topic) }
            throw ArgumentScanner.unknownCommand(topic, usage: spec, orTopic: true)
        }
    }

    /// Reads and checks the values of one command's arguments.
    private struct Reader {
        let spec: CommandSpec
        let scanned: ScannedArguments
        let makeDueDateParser: () throws(UsageError) -> DueDateParser

        func error(_ message: String, detail: String? = nil) -> UsageError {
            UsageError(message: message, command: spec, detail: detail)
        }

        /// The value of an option that names one of a fixed set, as `--format ical`.
        func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, default defaultValue: Choice) throws(UsageError) -> Choice
            where Choice.RawValue == String {
            guard let text = scanned.values[name] else { return defaultValue }
            guard let choice = Choice(rawValue: text.lowercased()) else {
                let names = Choice.allCases.map(\.rawValue)
                throw error("invalid value '\(text)' for '--\(name)'; use \(names.dropLast().joined(separator: ", ")) or \(names.last!)")
            }
            return choice
        }

        /// A whole number from 1 (or 0) up, as `--change 12` or undo's `3`.
        func count(_ text: String, of what: String, noun: String, allowsZero: Bool = false) throws(UsageError) -> Int {
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), value >= (allowsZero ? 0 : 1) else {
                throw error("invalid value '\(text)' for '\(what)'; use \(noun), as \(allowsZero ? 10 : 2)")
            }
            return value
        }

        /// The optional count of `undo` and `redo`: 1 when not given.
        func optionalCount() throws(UsageError) -> Int {
            guard let text = try positionals(atMost: 1).first else { return 1 }
            return try count(text, of: "<n>", noun: "a number of changes")
        }

        /// The filters, sort and limit of `list` and `export`.
        func query() throws(UsageError) -> ItemQuery {
            var query = ItemQuery()
            query.search = scanned.values["search"]
            query.dueBefore = try dateSpan("due-before")?.lowerBound
            query.dueFrom = try dateSpan("due-after")?.upperBound
            query.overdue = scanned.flags.contains("overdue")
            query.noDue = scanned.flags.contains("no-due")
            if scanned.values["sort"] != nil { query.sort = try choice("sort", default: .number) }
            query.reverse = scanned.flags.contains("reverse")
            if let text = scanned.values["limit"] {
                query.limit = try count(text, of: "--limit", noun: "a number of items", allowsZero: true)
            }
            return query
        }

        /// The span of time an option's date names: a whole day, or a minute (`--due` takes its start).
        private func dateSpan(_ name: String) throws(UsageError) -> Range<Double>? {
            guard let text = scanned.values[name] else { return nil }
            let parser = try makeDueDateParser()
            do {
                return try parser.span(text)
            } catch {
                throw self.error(error.description, detail: error.acceptedForms.map { "Accepted forms: \($0)" })
            }
        }

        /// `-`, an http(s) URL, or else a file path.
        func importSource(_ text: String) throws(UsageError) -> ImportRequest.Source {
            if text == "-" { return .standardInput }
            let lowercased = text.lowercased()
            guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") else { return .file(text) }
            guard let url = URL(string: text), url.isWebAddress else { throw error("invalid URL '\(text)'") }
            return .url(url)
        }

        func noPositionals() throws(UsageError) {
            _ = try positionals(atMost: 0)
        }

        func positionals(atLeast minimum: Int) throws(UsageError) -> [String] {
            guard scanned.positionals.count >= minimum else {
                throw error("missing \(spec.arguments.first.map { "'<\($0.name)>'" } ?? "argument")")
            }
            return scanned.positionals
        }

        func positionals(atMost maximum: Int) throws(UsageError) -> [String] {
            guard scanned.positionals.count <= maximum else {
                throw error("unexpected argument '\(scanned.positionals[maximum])'")
            }
            return scanned.positionals
        }

        /// A title, trimmed; it must be one non-empty line.
        func title(_ text: String) throws(UsageError) -> String {
            let title = Whitespace.trimmingSpaces(text)
            if title.isEmpty { throw error("the title is empty") }
            if title.contains(where: \.isNewline) { throw error("the title must be a single line: '\(text)'") }
            return title
        }

        func reference() throws(UsageError) -> ItemReference {
            let texts = try positionals(atLeast: 1)
            _ = try positionals(atMost: 1)
            return try parseReference(texts[0])
        }

        func references() throws(UsageError) -> [ItemReference] {
            var references: [ItemReference] = []
            for text in try positionals(atLeast: 1) {
                references.append(try parseReference(text))
            }
            return references
        }

        private func parseReference(_ text: String) throws(UsageError) -> ItemReference {
            do {
                return try ItemReference(parsing: text)
            } catch {
                throw self.error(error.description)
            }
        }

        func dueDate() throws(UsageError) -> Double? {
            try dateSpan("due")?.lowerBound
        }

        func coordinate() throws(UsageError) -> Coordinate? {
            guard let text = scanned.values["coordinate"] else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { Whitespace.trimmingSpaces($0) }
            guard parts.count == 2, parts.allSatisfy(Self.isPlainDecimal),
                  let latitude = Double(parts[0]), let longitude = Double(parts[1]) else {
                throw error("invalid coordinate '\(text)'; expected <latitude>,<longitude> in degrees, as 52.52,13.405")
            }
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            guard coordinate.isValid else {
                throw error("invalid coordinate '\(text)'; latitude must be within -90...90 and longitude within -180...180")
            }
            return coordinate
        }

        /// `52.52`, `-13`, `.5`: a sign, digits and a fraction, without the exponents, hexadecimal and
        /// words (`nan`, `inf`) that `Double` would also accept.
        static func isPlainDecimal(_ text: String) -> Bool {
            var body = Substring(text)
            if body.first == "-" || body.first == "+" { body = body.dropFirst() }
            let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let digits = parts.joined()
            return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && parts.count <= 2
        }

        /// The location of `add`, or of `edit --location`: the name with the address and coordinate
        /// given beside it.
        func newLocation() throws(UsageError) -> Location? {
            let address = scanned.values["address"]
            let coordinate = try coordinate()
            guard let name = scanned.values["location"] else {
                if spec.name == "add", address != nil || coordinate != nil {
                    throw error("'--\(address != nil ? "address" : "coordinate")' needs '--location <name>'")
                }
                return nil
            }
            guard !name.unicodeScalars.allSatisfy(Whitespace.isSpace) else { throw error("the location name is empty") }
            return Location(name: name, address: address, coordinate: coordinate)
        }

        func editRequest(json: Bool) throws(UsageError) -> EditRequest {
            var request = EditRequest(reference: try reference(), json: json)
            request.geocode = !scanned.flags.contains("no-geocode")
            if let title = scanned.values["title"] { request.title = try self.title(title) }
            request.timestamp = try change("due", set: dueDate())
            request.itemDescription = try change("description", set: scanned.values["description"])
            if let location = try newLocation() {
                request.location = .set(location)
            } else {
                request.location = try change("location", set: nil)
                request.address = try change("address", set: scanned.values["address"])
                request.coordinate = try change("coordinate", set: coordinate())
            }
            if request.changesNothing {
                throw error("nothing to change; give at least one option, as --title or --due")
            }
            return request
        }

        /// `.set` when `--name` was given, `.remove` for `--no-name`, else `.keep`.
        private func change<Value>(_ name: String, set value: Value?) throws(UsageError) -> FieldChange<Value> {
            if let value { return .set(value) }
            return scanned.flags.contains("no-\(name)") ? .remove : .keep
        }
    }
}
