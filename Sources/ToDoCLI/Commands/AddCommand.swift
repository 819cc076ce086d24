import ToDoCore
import ToDoModel

import struct ToDoStorage.StoredItem

/// `todo add`: one title, or one per line of standard input, with the same fields for each.
struct AddCommand: ListCommand {
    static let spec = CommandSpec(
        name: "add", summary: "Add an open item.",
        arguments: [
            ArgumentSpec(
                name: "title",
                help:
                    "The title; several words are joined with spaces. '-' reads one title per line from standard input.",
                repeats: true)
        ],
        options: [
            CommonOptions.due, CommonOptions.description, CommonOptions.location, CommonOptions.address,
            CommonOptions.coordinate, CommonOptions.priority, CommonOptions.tag, CommonOptions.start,
            CommonOptions.parent, CommonOptions.repeatRule, CommonOptions.remind
        ]
            + CommonOptions.texts + [CommonOptions.noGeocode, CommonOptions.json],
        discussion: """
            Prints the number the item got and what was stored, the due date as understood.
            An --address without --coordinate is looked up on the geocoder set in TODO_GEOCODER_URL
            before anything is saved; if that fails, the item is saved without a coordinate and a
            warning says why.
            'todo add -' adds every non-blank line of standard input in one transaction, each with
            the options given; if any line is refused, none is added. A title that starts with '-'
            goes after '--': todo add -- "-5 push-ups".
            Taskwarrior's words work too: todo add Buy milk due:tomorrow +groceries pri:H project:home
            (due:, scheduled: or wait: for --start, pri:, project:, recur:, depends: for the items
            that become its subtasks, +tag); todo.txt's @context is the tag @context. A quoted title
            is a todo.txt line, read as todo.sh reads one: todo add "(A) Call Mom +family @phone
            due:2030-01-10" (its priority, due:, t: and rec: read; its +project and @context tags,
            and words of the title where they stand). Words after '--' are all title. A --due without a time is a whole day; with one, that time.
            A repeating item (--repeat) needs a --due: 'todo check' records that occurrence as done and
            moves the due to the next one. --remind 15m rings 15 minutes before the due (1h, 2d, 1w,
            1h30m; a reminder before the due needs one), --remind "fri 9:00" at that time; 'todo remind'
            prints the reminders whose time has come, and a phone rings for them after 'todo sync'.
            """,
        changesList: true, attributeWords: .add)

    enum Titles: Equatable {
        case argument(String)
        case standardInput
    }

    var titles: Titles
    var itemDescription: String?
    /// A day (a date typed without a time) or a time.
    var due: ItemDate?
    /// Each text field given (`ItemField.texts`); an empty value is none.
    var texts: [ItemField: String] = [:]
    var location: Location?
    var priority: Int?
    /// RRULE text.
    var repeatRule: String?
    var alarms: [Alarm] = []
    var tags: [String] = []
    var start: ItemDate?
    /// The item the new ones are subtasks of.
    var parent: ItemReference?
    /// The items that become the new one's subtasks (Taskwarrior's `depends:`).
    var subtasks: [ItemReference] = []
    /// Whether to look the address up on the geocoder when no coordinate is given.
    var geocode = true
    var json = false

    init(
        titles: Titles, itemDescription: String? = nil, due: ItemDate? = nil, location: Location? = nil,
        priority: Int? = nil, tags: [String] = [], start: ItemDate? = nil, repeatRule: String? = nil,
        geocode: Bool = true, json: Bool = false
    ) {
        self.titles = titles
        self.itemDescription = itemDescription
        self.due = due
        self.repeatRule = repeatRule
        self.location = location
        self.priority = priority
        self.tags = tags
        self.start = start
        self.geocode = geocode
        self.json = json
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        _ = try arguments.positionals(atLeast: 1)
        let attributes = try arguments.attributeWords()
        try arguments.refuse(
            attributes,
            [
                .status: "add makes an open item", .dueBefore: "give the due with due:",
                .dueBy: "give the due with due:",
                .dueAfter: "give the due with due:"
            ])
        if let empty = attributes.values.first(where: { $0.value.value.isEmpty }) {
            throw arguments.attributeError(empty.value.word, "it has no value")
        }
        if let removed = attributes.removedTags.first {
            throw arguments.attributeError("-" + removed, "a new item has no tags to take away")
        }
        let words = attributes.words
        if words.first == "-", words.count > 1 {
            throw arguments.error("'-' reads the titles from standard input; give no other words with it")
        }
        titles = words == ["-"] ? .standardInput : .argument(try arguments.title(words.joined(separator: " ")))
        itemDescription = arguments.text(CommonOptions.description)
        due = try arguments.either(
            CommonOptions.due, try arguments.dueDate(), or: attributes.value(.due), arguments.date)
        for (field, option) in zip(ItemField.texts, CommonOptions.texts) {
            if let text = arguments.text(option) { texts[field] = text }
        }
        // `--list default` is the default list: no list.
        if let list = texts[.list] { texts[.list] = ListName.stored(list) }
        if let project = try arguments.either(
            CommonOptions.project, texts[.project], or: attributes.value(.project), arguments.project)
        {
            texts[.project] = project
        }
        repeatRule = try arguments.either(
            CommonOptions.repeatRule, try arguments.repeatRule(CommonOptions.repeatRule),
            or: attributes.value(.recur), arguments.repeatRule)
        // (A repeat without a due is the core's to refuse, `ItemManagerError.repeatWithoutDue`; a
        // month's end the core keeps, `RepeatGiven.typed`.)
        alarms = try arguments.reminders() ?? []
        location = try arguments.location(
            name: CommonOptions.location, address: CommonOptions.address,
            coordinate: CommonOptions.coordinate)
        if location == nil,
            let given = [CommonOptions.address, CommonOptions.coordinate].first(where: { arguments.value($0) != nil })
        {
            throw arguments.error("'\(given.flag)' needs '--location <name>'")
        }
        priority =
            try arguments.either(
                CommonOptions.priority, try arguments.priority(CommonOptions.priority),
                or: attributes.value(.priority), arguments.priority) ?? nil
        tags = Tags.normalized(try arguments.tags(CommonOptions.tag) + attributes.addedTags)
        start = try arguments.either(
            CommonOptions.start, try arguments.startDate(), or: attributes.value(.start), arguments.date)
        parent = try arguments.reference(CommonOptions.parent)
        if let depends = attributes.value(.depends) {
            guard titles != .standardInput else {
                throw arguments.attributeError(depends.word, "several new items cannot each have the same subtasks")
            }
            subtasks = try arguments.references(depends)
        }
        geocode = !arguments.flag(CommonOptions.noGeocode)
        json = arguments.flag(CommonOptions.json)
    }

    func run(with runner: CommandRunner) throws {
        var location = location
        if geocode, let address = location?.address, location?.coordinate == nil {
            location?.coordinate = try runner.addressLookup.coordinate(
                for: address, otherwise: "saved without a coordinate")
        }
        // Each title, with the line of standard input it is on (blank lines counted), for errors.
        let titles: [(line: Int, title: String)]
        switch self.titles {
        case .argument(let title): titles = [(1, title)]
        case .standardInput:
            titles = try standardInputTitles(runner.context, limit: try runner.settings.importMaximumBytes)
        }
        let (added, subtaskNumbers) = try runner.store.update(command: runner.arguments) { manager in
            /// The line each item added here came from.
            var lines: [UUID: Int] = [:]
            let parentID = try parent.map { reference throws(ItemManagerError) in try manager.resolve(reference).id }
            let subtaskItems = try manager.resolve(subtasks)
            let added = try titles.map { line, title in
                var item = ToDoItem(
                    title: title, itemDescription: itemDescription, due: due, location: location, id: manager.newID(),
                    priority: priority, tags: tags, start: start, repeatRule: repeatRule)
                item.parent = parentID
                item.alarms = alarms
                for (field, text) in texts { item[text: field] = text }
                do {
                    let added = try manager.add(item, repeatGiven: .typed)
                    lines[added.id] = line
                    return added
                } catch let error as ItemManagerError where self.titles == .standardInput {
                    if case .duplicateContent(let existing) = error, let first = lines[existing.id] {
                        throw CommandError.standardInputLine(line, error, repeating: (first, title))
                    }
                    throw CommandError.standardInputLine(line, error)
                }
            }
            // Taskwarrior's `depends:`: what the new item waits for is done as its subtasks.
            if let parent = added.first, !subtaskItems.isEmpty {
                try manager.makeSubtasks(withIDs: subtaskItems.map(\.id), of: parent.id)
            }
            return (added, subtaskItems.map(\.number))
        }
        if json {
            if self.titles == .standardInput {
                runner.renderer.writeJSON([added.map(StoredItem.init)], to: runner.context.output)
            } else {
                runner.write(runner.renderer.json(added[0]))
            }
        } else {
            runner.write(added.map { "Added \(runner.renderer.summary($0))\n" }.joined())
            if !subtaskNumbers.isEmpty {
                runner.write("  Its subtasks now: \(subtaskNumbers.map(String.init).joined(separator: ", "))\n")
            }
        }
        if start != nil { added.forEach(runner.warnIfStartsAfterDue) }
        if added.isEmpty { runner.context.errorOutput.write("No titles on standard input; nothing was added.\n") }
    }

    /// The non-blank lines of standard input, trimmed, each with its line number (counting the
    /// blank lines, which are skipped, as an editor numbers them). Lines end at LF, with or
    /// without a CR before it (split as bytes: Swift counts "\r\n" as one character).
    private func standardInputTitles(_ context: Context, limit: Int) throws -> [(line: Int, title: String)] {
        if context.input.isTerminal {
            context.errorOutput.write("Reading titles, one per line; end with Ctrl-D.\n")
            context.errorOutput.flush()
        }
        guard var bytes = context.input.readAll(limit: limit) else {
            throw CommandError(
                message: "standard input is larger than \(limit >> 20) MB, the most todo reads"
                    + " (TODO_IMPORT_MAX_MB); nothing was added", command: Self.spec)
        }
        // A byte-order mark (Windows editors write one) is not part of the first title.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw CommandError(message: "standard input is not valid UTF-8; nothing was added", command: Self.spec)
        }
        return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
            .map { index, line in
                let content = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
                return (index + 1, Whitespace.trimmingSpaces(String(decoding: content, as: UTF8.self)))
            }
            .filter { !$0.title.isEmpty }
    }
}

extension CommandError {
    /// A title from standard input that a rule refused, with its line number, and the earlier
    /// line with the same item when that is why; nothing was added.
    static func standardInputLine(
        _ line: Int, _ error: ItemManagerError, repeating earlier: (line: Int, title: String)? = nil
    ) -> CommandError {
        guard let (first, title) = earlier else {
            return CommandError(ExitCode(error.outcome), "line \(line) of standard input: \(error); nothing was added")
        }
        return CommandError(
            ExitCode(error.outcome),
            "line \(line) of standard input repeats line \(first) (\"\(title)\"); nothing was added")
    }
}
