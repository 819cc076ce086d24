import ToDoModel
import ToDoStorage

/// The formats `todo export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// The data file's own format.
    case json
    /// todo.txt lines (http://todotxt.org).
    case todotxt
    /// iCalendar (RFC 5545), one VTODO per item.
    case ical
    /// Taskwarrior's JSON, as `task import` reads it.
    case taskwarrior
}

/// The formats `todo import` reads; `auto` recognises each of the others.
extension ExportFormat {
    /// What the format has no place for, each with how many of `items` had it: left out of the
    /// export, which says so (todo.txt keeps no reminders, notes, in-progress mark or link;
    /// Taskwarrior no reminders, place, link or list). In the order a message names them.
    public func leftOut(of items: [ToDoItem]) -> [(what: String, items: Int)] {
        var left: [(String, (ToDoItem) -> Bool)] = []
        if self == .todotxt || self == .taskwarrior { left.append(("reminders", { !$0.alarms.isEmpty })) }
        if self == .todotxt {
            left.append(("annotations", { !$0.annotations.isEmpty }))
            left.append(("in-progress marks", { $0.inProgress && !$0.done }))
        }
        if self == .todotxt || self == .taskwarrior { left.append(("links", { $0.url != nil })) }
        if self == .taskwarrior {
            left.append(("places", { $0.location != nil }))
            left.append(("lists", { $0.list != nil }))
        }
        return left.compactMap { what, has in
            let count = items.count(where: has)
            return count > 0 ? (what, count) : nil
        }
    }
}

public enum ImportFormat: String, CaseIterable, Sendable {
    /// `reminders`: Apple Reminders as `reminders show-all --format json` (reminders-cli) writes them.
    case auto, json, todotxt, taskwarrior, ical, reminders
}

/// An item read from an import source, with where it was found.
public struct ImportedItem: Sendable {
    public var item: ToDoItem
    /// Where in the source the item is, for messages: `line 3`, `items[2]`.
    public var origin: String
    /// Why the item is not to be imported at all (a task deleted in Taskwarrior), or `nil`.
    public var ignoredBecause: String?
    /// The keys of a JSON source's item that todo has no field for: kept with the item, and said.
    public var unknownKeys: [String]
    /// What could not be read of the item, each naming its place (`line 3: due:someday is not a
    /// date; kept in the title`): the item is imported with the rest, unless it is skipped for it
    /// (`ignoredBecause`); `todo import --strict` refuses the source instead.
    public var problems: [String]
    /// Whether the id was made from the item's own text (the source gave none): the same text
    /// twice is then the same content, not the same id.
    public var idIsDerived: Bool

    public init(
        item: ToDoItem, origin: String, ignoredBecause: String? = nil, unknownKeys: [String] = [],
        problems: [String] = [],
        idIsDerived: Bool = false
    ) {
        self.item = item
        self.origin = origin
        self.ignoredBecause = ignoredBecause
        self.unknownKeys = unknownKeys
        self.problems = problems
        self.idIsDerived = idIsDerived
    }
}

/// Why a source cannot be imported; nothing is imported when one is thrown.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the fault is, as `line 3` or `items[2].title` or `byte 120`.
    public var location: String
    public var reason: String

    public init(at location: String, _ reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { location.isEmpty ? reason : "\(location): \(reason)" }
}

/// What an import did: the items added, and those skipped with the reason for each.
public struct ImportSummary: Sendable {
    public var added: [ToDoItem] = []
    public var skipped: [SkippedItem] = []

    public init() {}
}

/// An item of the source that was not added.
public struct SkippedItem: Sendable {
    public var item: ToDoItem
    public var origin: String
    public var reason: SkipReason
}

/// Why an item was not added.
public enum SkipReason: Equatable, Sendable {
    /// An item with its id is in the list already (imported before, or exported from this list).
    case sameID(existing: ToDoItem)
    /// It is open and an open item has the same content (uniqueness rule 2).
    case sameContent(existing: ToDoItem)
    /// The source marks it as not to be imported (`ImportedItem.ignoredBecause`).
    case ignored(String)
    /// It breaks a rule of todo's (an empty title): the rest was imported.
    case refused(String)
}

extension ToDoItem {
    /// An item as read from an import source, with its status and times.
    static func imported(
        id: UUID, title: String, itemDescription: String? = nil, due: ItemDate? = nil,
        location: Location? = nil, done: Bool = false, createdAt: Double? = nil,
        completedAt: Double? = nil
    ) -> ToDoItem {
        ToDoItem(
            id: id, number: 0, done: done,
            fields: ItemFields(
                title: title, itemDescription: itemDescription, due: due,
                location: location, createdAt: createdAt, completedAt: completedAt))
    }

    /// The title as one line: other programs allow line breaks in titles, todo does not.
    static func singleLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline).map { Whitespace.trimmingSpaces($0) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
