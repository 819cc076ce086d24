import ToDoCore
import ToDoModel

import struct ToDoStorage.StoredItem

/// One command's arguments as the scanner split them, read by the command's type: options by
/// their `OptionSpec` (a misspelt name does not compile), values checked for their syntax.
struct CommandArguments {
    let spec: CommandSpec
    let scanned: ScannedArguments
    /// Makes the due-date parser; it throws when a setting it needs (TZ, TODO_DATE_ORDER) is bad.
    let makeDueDateParser: () throws(CommandError) -> DueDateParser

    func error(_ message: String, detail: String? = nil) -> CommandError {
        CommandError(message: message, command: spec, detail: detail)
    }

    /// Whether the flag was given.
    func flag(_ option: OptionSpec) -> Bool {
        scanned.flags.contains(option.name)
    }

    /// The option's value, if it was given.
    func value(_ option: OptionSpec) -> String? {
        scanned.values[option.name]
    }

    /// Every value of an option that may be repeated, in the order given.
    func values(_ option: OptionSpec) -> [String] {
        scanned.repeatedValues[option.name] ?? []
    }

    /// The tags of a repeatable option (`--tag home --tag +errand`): one word each, a leading `+`
    /// (todo.txt's and Taskwarrior's way to write one) dropped.
    func tags(_ option: OptionSpec) throws(CommandError) -> [String] {
        try values(option).map { text throws(CommandError) in
            let tag = text.hasPrefix("+") ? String(text.dropFirst()) : text
            guard Tags.isValid(tag) else {
                throw error(
                    tag.isEmpty
                        ? "the value of '\(option.flag)' is empty; a tag is one word, as home"
                        : "invalid tag '\(TerminalText.printable(tag))' for '\(option.flag)'; a tag is one word, without spaces"
                )
            }
            return tag
        }
    }

    /// The priority of `option` (`high`, `medium`, `low`, `H`, `M`, `L`, `1`–`9`, or `none`):
    /// `nil` when not given, `.some(nil)` for `none`.
    func priority(_ option: OptionSpec) throws(CommandError) -> Int?? {
        guard let text = value(option) else { return nil }
        guard let priority = PriorityLevel.priority(typed: text) else {
            throw error(
                "invalid priority '\(TerminalText.printable(text))' for '\(option.flag)'; use high, medium, low (or H, M, L), 1 (highest) to 9 (lowest), a todo.txt letter A to Z, or none"
            )
        }
        return .some(priority)
    }

    /// The value of an option that names one of a fixed set, as `--format ical`.
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ option: OptionSpec, default defaultValue: Choice
    ) throws(CommandError) -> Choice
    where Choice.RawValue == String {
        guard let text = value(option) else { return defaultValue }
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue)
            throw error(
                "invalid value '\(text)' for '\(option.flag)'; use \(names.dropLast().joined(separator: ", ")) or \(names.last!)"
            )
        }
        return choice
    }

    /// A whole number from 1 (or 0) up, as `--change 12` or undo's `3`.
    func count(_ text: String, of what: String, noun: String, allowsZero: Bool = false) throws(CommandError) -> Int {
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), value >= (allowsZero ? 0 : 1)
        else {
            throw error("invalid value '\(text)' for '\(what)'; use \(noun), as \(allowsZero ? 10 : 2)")
        }
        return value
    }

    /// The optional count of `undo` and `redo`: `nil` when not given (the last one, whole).
    func optionalCount() throws(CommandError) -> Int? {
        guard let text = try positionals(atMost: 1).first else { return nil }
        return try count(text, of: "<n>", noun: "a number of changes")
    }

    /// Which items `list`, `next` and `export` show (`section`) and the filters, sort and limit
    /// of `query`, from their options and Taskwarrior's words, read once.
    func selection() throws(CommandError) -> (section: ListSection, query: ItemQuery) {
        let attributes = try attributeWords()
        return (try section(attributes), try query(attributes))
    }

    /// The filters, sort and limit: the options, and Taskwarrior's words (`project:home +work
    /// -home pri:H due:today due.before:eow`; other words are searched for).
    private func query(_ attributes: AttributeWords) throws(CommandError) -> ItemQuery {
        var query = ItemQuery()
        try refuse(
            attributes,
            [
                .depends: "it is not a filter; --parent shows an item's subtasks",
                .recur: "it is not a filter; --repeating shows the items that repeat",
                .start: "it is not a filter; --all shows the items that wait for their start"
            ])
        query.words = attributes.words
        query.tags = attributes.addedTags
        query.withoutTags = attributes.removedTags
        query.search = value(QueryOptions.search)
        // Before a day is before it begins; before `eow` (the week's last moment, as Taskwarrior
        // has it) holds Sunday; `due.by:` is on or before.
        let by = attributes.value(.dueBy)
        if let before = attributes.value(.dueBefore), let by {
            throw attributeError(by.word, "'\(TerminalText.printable(before.word))' gave the bound already")
        }
        query.dueBefore = try either(
            QueryOptions.dueBefore,
            try value(QueryOptions.dueBefore).map { text throws(CommandError) in
                Self.bound(before: try dateSpan(text), naming: text)
            },
            or: attributes.value(.dueBefore) ?? by
        ) { value throws(CommandError) in
            let span = try filterSpan(value)
            return value == by ? span.upperBound : Self.bound(before: span, naming: value.value)
        }
        query.dueFrom = try either(
            QueryOptions.dueAfter, try dateSpan(QueryOptions.dueAfter)?.upperBound,
            or: attributes.value(.dueAfter)
        ) { value throws(CommandError) in try filterSpan(value).upperBound }
        if let due = attributes.value(.due) {
            // `due:today` is due on that day (or at that minute); `due:` alone, no due.
            if let span = try span(due) {
                guard query.dueBefore == nil, query.dueFrom == nil else {
                    throw attributeError(due.word, "give the due's bounds once")
                }
                (query.dueFrom, query.dueBefore) = (span.lowerBound, span.upperBound)
            } else {
                query.noDue = true
            }
        }
        query.overdue = flag(QueryOptions.overdue)
        query.inProgress = flag(QueryOptions.active)
        query.waiting = flag(QueryOptions.waiting)
        query.noDue = query.noDue || flag(QueryOptions.noDue)
        query.repeating = flag(QueryOptions.repeating)
        query.tags = Tags.normalized(try tags(QueryOptions.tag) + query.tags)
        if let priority = try either(
            QueryOptions.priority, try priority(QueryOptions.priority), or: attributes.value(.priority), priority)
        {
            guard let priority else { throw error("'--priority none' is not a filter; leave it out to see every item") }
            // A todo.txt letter is that priority (`pri:B` is 2); a level, its range (`pri:H` is 1 to 4).
            let typed = value(QueryOptions.priority) ?? attributes.value(.priority)?.value ?? ""
            if PriorityLevel.priority(todoTxtLetter: typed) != nil {
                query.exactPriority = priority
            } else {
                query.priority = PriorityLevel(priority)
            }
        }
        if let project = attributes.value(.project) {
            guard let name = try self.project(project) else {
                throw attributeError(project.word, "name the project, as project:home")
            }
            query.project = name
        }
        if let list = text(QueryOptions.list) { query.list = .some(ListName.stored(list)) }
        if value(QueryOptions.sort) != nil { query.sort = try choice(QueryOptions.sort, default: .number) }
        query.reverse = flag(QueryOptions.reverse)
        if let text = value(QueryOptions.limit) {
            query.limit = try count(text, of: QueryOptions.limit.flag, noun: "a number of items", allowsZero: true)
        }
        return query
    }

    /// Which items `--open` or `--done` (or Taskwarrior's `status:pending`, `status:completed`)
    /// keep: all without them.
    private func section(_ attributes: AttributeWords) throws(CommandError) -> ListSection {
        let section: ListSection = flag(QueryOptions.open) ? .open : flag(QueryOptions.done) ? .done : .all
        guard let status = attributes.value(.status) else { return section }
        let named: ListSection
        switch status.value {
        case "pending": named = .open
        case "completed": named = .done
        default:
            throw attributeError(status.word, "use status:pending (the open items) or status:completed (the done ones)")
        }
        guard section == .all else {
            throw error(
                "'\(status.word)' and '\(section == .open ? "--open" : "--done")' both say which items; give one")
        }
        return named
    }

    /// The span of a filter's date word; it must have a value.
    private func filterSpan(_ value: AttributeWords.Value) throws(CommandError) -> Range<Double> {
        guard let span = try span(value) else {
            throw attributeError(value.word, "give a date, as \(value.word)friday")
        }
        return span
    }

    /// Where "before `text`" ends: where the span it names begins, or, for the end of a period
    /// (`eow`), where it ends.
    private static func bound(before span: Range<Double>, naming text: String) -> Double {
        DueDateParser.namesAnEnd(text) ? span.upperBound : span.lowerBound
    }

    /// The span of time an option's date names: a whole day, or a minute (`--due` takes its start).
    private func dateSpan(_ option: OptionSpec) throws(CommandError) -> Range<Double>? {
        try value(option).map { text throws(CommandError) in try dateSpan(text) }
    }

    /// The span of time `text` names; an error quotes it, after `word` (an attribute word, as
    /// `due:someday`) when the date came in one.
    func dateSpan(_ text: String, in word: String? = nil) throws(CommandError) -> Range<Double> {
        let parser = try makeDueDateParser()
        do {
            return try parser.span(text)
        } catch {
            throw self.error(
                (word.map { "cannot read '\(TerminalText.printable($0))': " } ?? "") + error.description,
                detail: error.acceptedForms.map { "Accepted forms: \($0)" })
        }
    }

    /// The day a span names (a form without a time), or its minute.
    func itemDate(of span: Range<Double>) throws(CommandError) -> ItemDate {
        DueDateParser.isWholeDay(span)
            ? .day(Day(of: span.lowerBound, in: try makeDueDateParser().rules)) : .time(span.lowerBound)
    }

    /// The date of `--start`: the day it names, or the minute.
    func startDate() throws(CommandError) -> ItemDate? {
        try date(CommonOptions.start)
    }

    /// The due date of `--due`: the day it names (a form without a time), or the minute.
    func dueDate() throws(CommandError) -> ItemDate? {
        try date(CommonOptions.due)
    }

    private func date(_ option: OptionSpec) throws(CommandError) -> ItemDate? {
        guard let span = try dateSpan(option) else { return nil }
        return try itemDate(of: span)
    }

    /// The rule of `--repeat`, as RRULE text.
    func repeatRule(_ option: OptionSpec) throws(CommandError) -> String? {
        guard let text = value(option) else { return nil }
        do {
            return try RepeatRule.typed(text).text
        } catch {
            throw self.error(error.description)
        }
    }

    func noPositionals() throws(CommandError) {
        _ = try positionals(atMost: 0)
    }

    func positionals(atLeast minimum: Int) throws(CommandError) -> [String] {
        guard scanned.positionals.count >= minimum else {
            throw error("missing \(spec.arguments.first.map { "'<\($0.name)>'" } ?? "argument")")
        }
        return scanned.positionals
    }

    func positionals(atMost maximum: Int) throws(CommandError) -> [String] {
        guard scanned.positionals.count <= maximum else {
            throw error("unexpected argument '\(scanned.positionals[maximum])'")
        }
        return scanned.positionals
    }

    /// The one positional argument.
    func onePositional() throws(CommandError) -> String {
        let texts = try positionals(atLeast: 1)
        _ = try positionals(atMost: 1)
        return texts[0]
    }

    /// A title, trimmed; it must be one non-empty line.
    func title(_ text: String) throws(CommandError) -> String {
        let title = Whitespace.trimmingSpaces(text)
        if title.isEmpty { throw error("the title is empty") }
        if title.contains(where: \.isNewline) { throw error("the title must be a single line: '\(text)'") }
        return title
    }

    func reference() throws(CommandError) -> ItemReference {
        try parseReference(onePositional())
    }

    /// The most numbers one range may name.
    static let largestRange = 10_000

    /// Every ref given: each argument a ref, a range of numbers (`1-3`), or several of those
    /// separated by commas (`4,6`).
    func references() throws(CommandError) -> [ItemReference] {
        try references(in: positionals(atLeast: 1))
    }

    /// The refs `words` give, each as `references()` reads an argument.
    func references(in words: [String]) throws(CommandError) -> [ItemReference] {
        var references: [ItemReference] = []
        for argument in words {
            for text in argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                if let range = try numberRange(text) {
                    references += range.map(ItemReference.number)
                } else {
                    references.append(try parseReference(text))
                }
            }
        }
        return references
    }

    /// Whether `word` names items by number alone: `3`, `1-3`, `4,6-8`.
    static func isNumberList(_ word: String) -> Bool {
        !word.isEmpty
            && word.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { part in
                let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
                return (1...2).contains(bounds.count)
                    && bounds.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            }
    }

    /// The numbers of `1-3`: digits, a dash, digits (numbers win over an id prefix of digits
    /// alone, as a ref of digits is a number); `nil` for anything else.
    private func numberRange(_ text: String) throws(CommandError) -> ClosedRange<Int>? {
        let parts = Whitespace.trimmingSpaces(text).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            return nil
        }
        guard let first = Int(parts[0]), let last = Int(parts[1]), first >= 1, first <= last else {
            throw error("invalid range '\(text)'; use the lower number first, as 1-3")
        }
        guard last - first < Self.largestRange else {
            throw error("the range '\(text)' names more than \(Self.largestRange) items")
        }
        return first...last
    }

    /// The ref an option names, as `--parent 3`.
    func reference(_ option: OptionSpec) throws(CommandError) -> ItemReference? {
        try value(option).map(parseReference)
    }

    private func parseReference(_ text: String) throws(CommandError) -> ItemReference {
        do {
            return try ItemReference(parsing: text)
        } catch {
            throw self.error(error.description)
        }
    }

    func coordinate(_ option: OptionSpec) throws(CommandError) -> Coordinate? {
        guard let text = value(option) else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Whitespace.trimmingSpaces($0) }
        guard parts.count == 2, parts.allSatisfy(Self.isPlainDecimal),
            let latitude = Double(parts[0]), let longitude = Double(parts[1])
        else {
            throw error("invalid coordinate '\(text)'; expected <latitude>,<longitude> in degrees, as 52.52,13.405")
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            throw error(
                "invalid coordinate '\(text)'; latitude must be within -90...90 and longitude within -180...180")
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

    /// A location named by `name`, with the address and coordinate given beside it; `nil` when no
    /// name was given.
    func location(name: OptionSpec, address: OptionSpec, coordinate: OptionSpec) throws(CommandError) -> Location? {
        let addressText = value(address)
        let coordinateValue = try self.coordinate(coordinate)
        guard let nameText = value(name) else { return nil }
        guard !nameText.unicodeScalars.allSatisfy(Whitespace.isSpace) else { throw error("the location name is empty") }
        return Location(name: nameText, address: addressText, coordinate: coordinateValue)
    }

    /// `.set` when `option` was given with a value, `.remove` when `removal` was, else `.keep`.
    func change<Value>(_ value: Value?, removedBy removal: OptionSpec) -> FieldChange<Value> {
        if let value { return .set(value) }
        return flag(removal) ? .remove : .keep
    }

    /// The text `option` gives, `nil` for a blank one: an empty value is no value, as for --location.
    func text(_ option: OptionSpec) -> String? {
        value(option).flatMap { $0.unicodeScalars.allSatisfy(Whitespace.isSpace) ? nil : $0 }
    }

    /// What `option` or `removal` do to a text field: a blank value removes it (`--description ""`).
    func textChange(_ option: OptionSpec, removedBy removal: OptionSpec) -> FieldChange<String> {
        guard value(option) != nil else { return change(nil, removedBy: removal) }
        return text(option).map { .set($0) } ?? .remove
    }
}

/// Options that several commands share.
enum CommonOptions {
    /// One option per text field (`ItemField.texts`): `--url`.
    static let texts = ItemField.texts.map { field in
        field == .list
            ? OptionSpec(name: field.option, valueName: "name", help: field.help, completion: .names(.lists))
            : OptionSpec(name: field.option, valueName: "text", help: field.help)
    }
    /// The text field's option that sets the project.
    static let project = texts[ItemField.texts.firstIndex(of: .project)!]
    static let json = OptionSpec(
        name: "json", valueName: nil,
        help: "Print the items as JSON in the store's item schema instead of text.")
    /// `--json` of the commands that say what they changed (`undo`, `redo`, `import`, `clear`).
    static let jsonChanges = OptionSpec(
        name: "json", valueName: nil, help: "Print what changed as JSON instead of text.")
    static let due = OptionSpec(
        name: "due", valueName: "date", help: "The due date (see 'todo help dates').", completion: .dates)
    static let description = OptionSpec(name: "description", valueName: "text", help: "A longer description.")
    static let location = OptionSpec(name: "location", valueName: "name", help: "Where the item is to be done.")
    static let address = OptionSpec(name: "address", valueName: "text", help: "The location's address.")
    static let coordinate = OptionSpec(
        name: "coordinate", valueName: "lat,lon",
        help: "The location's coordinate in degrees, as 52.52,13.405.")
    static let noGeocode = OptionSpec(
        name: "no-geocode", valueName: nil,
        help: "Do not look the address up on the geocoder (TODO_GEOCODER_URL).")
    static let start = OptionSpec(
        name: "start", valueName: "date",
        help: "When the item starts: todo list leaves it out until that day (see 'todo help dates').",
        completion: .dates)
    static let parent = OptionSpec(
        name: "parent", valueName: "ref", help: "Make it a subtask of this item.",
        completion: .items(.open))
    static let priority = OptionSpec(
        name: "priority", valueName: "priority",
        help: "high, medium or low (H, M, L), 1 (highest) to 9 (lowest), or a todo.txt letter (A is 1, B 2, … I 9).",
        completion: .words(PriorityLevel.allCases.map(\.rawValue)))
    static let tag = OptionSpec(
        name: "tag", valueName: "tag", help: "A tag, one word; repeat for more.",
        completion: .tags, repeats: true)
    static let remind = OptionSpec(
        name: "remind", valueName: "when",
        help: "A reminder: 15m, 1h or 2d before the due, or a date and time; repeat for more.",
        completion: .words(["15m", "1h", "1d"]), repeats: true)
    static let repeatRule = OptionSpec(
        name: "repeat", valueName: "rule",
        help:
            "Repeat from the due date: daily, weekdays, weekly, monthly, yearly, 'every N days|weeks|months|years', or RRULE text.",
        completion: .words(["daily", "weekdays", "weekly", "monthly", "yearly"]))

    static let references = ArgumentSpec(
        name: "ref",
        help:
            "An item's number, its id, or a unique prefix of its id (4 characters or more); 1-3 for a range of numbers, 4,6 for several.",
        repeats: true)
    static let reference = ArgumentSpec(
        name: "ref", help: "An item's number, its id, or a unique prefix of its id (4 characters or more).")
}

extension ItemManager {
    /// The open and done items `--open`/`--done` and `--parent` keep, before the other filters.
    func items(
        in section: ListSection, subtasksOf parent: ItemReference?
    ) throws(ItemManagerError) -> (open: [StoredItem], done: [StoredItem]) {
        var open = section == .done ? [] : openStored.array, done = section == .open ? [] : doneStored.array
        if let parent {
            let subtasks = descendants(of: try resolve(parent).id)
            open = open.filter { subtasks.contains($0.id) }
            done = done.filter { subtasks.contains($0.id) }
        }
        return (open, done)
    }
}

/// The filters and sorting of `list` and `export`.
enum QueryOptions {
    /// Taskwarrior's filter words, and words to search for.
    static let filterWords = ArgumentSpec(
        name: "filter",
        help:
            "+tag, -tag, project:name, pri:H, due:date, due.before:date, due.by:date, due.after:date, status:pending|completed, or a word to search for.",
        isOptional: true, repeats: true)
    static let search = OptionSpec(
        name: "search", valueName: "text",
        help: "Only items with this text (any case) in the title, description, location or its address.")
    static let dueBefore = OptionSpec(
        name: "due-before", valueName: "date",
        help: "Only items due before this date (before the day begins).", completion: .dates)
    static let dueAfter = OptionSpec(
        name: "due-after", valueName: "date",
        help: "Only items due after this date (once the day has ended).", completion: .dates)
    static let overdue = OptionSpec(
        name: "overdue", valueName: nil,
        help: "Only open items whose due has passed: a time earlier than now, or a day before today.")
    static let active = OptionSpec(
        name: "active", valueName: nil, help: "Only open items in progress ('todo start'; Taskwarrior's active tasks).")
    static let waiting = OptionSpec(
        name: "waiting", valueName: nil, help: "Only open items that wait for a start date after today.")
    static let noDue = OptionSpec(name: "no-due", valueName: nil, help: "Only items without a due date.")
    static let repeating = OptionSpec(name: "repeating", valueName: nil, help: "Only items that repeat.")
    static let parent = OptionSpec(
        name: "parent", valueName: "ref", help: "Only the subtasks of this item, at any depth.",
        completion: .items(.all))
    static let tag = OptionSpec(
        name: "tag", valueName: "tag", help: "Only items with this tag (any case); repeated, with every one.",
        completion: .tags, repeats: true)
    static let priority = OptionSpec(
        name: "priority", valueName: "level",
        help: "Only items of this priority: high (1-4), medium (5) or low (6-9); a todo.txt letter, that one (B is 2).",
        completion: .words(PriorityLevel.allCases.map(\.rawValue)))
    static let sort = OptionSpec(
        name: "sort", valueName: "key",
        help: "Sort open and done items each by number, due, title, created, priority (high first) or project.",
        completion: .words(ItemQuery.SortKey.allCases.map(\.rawValue)))
    static let reverse = OptionSpec(name: "reverse", valueName: nil, help: "Reverse the order.")
    static let list = OptionSpec(
        name: "list", valueName: "name", help: "Only items of this list ('default' for the default list).",
        completion: .names(.lists))
    static let limit = OptionSpec(name: "limit", valueName: "n", help: "Show at most n items, open ones first.")

    static let open = OptionSpec(name: "open", valueName: nil, help: "Only open items.")
    static let done = OptionSpec(name: "done", valueName: nil, help: "Only done items.")

    static let all = [
        open, done, list, search, tag, priority, parent, dueBefore, dueAfter, overdue, active, waiting, noDue,
        repeating,
        sort, reverse, limit
    ]
    /// The filters alone, without sections, order or limit: what `next` and `agenda` take beside
    /// their own order.
    static let filters = [list, search, tag, priority, dueBefore, dueAfter, overdue, active, noDue, repeating]

    static let exclusions = [
        [open, done], [noDue, dueBefore], [noDue, dueAfter], [noDue, overdue], [done, active], [done, waiting]
    ]
}
