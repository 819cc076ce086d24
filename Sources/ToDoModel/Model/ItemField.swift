/// The fields of an item, declared once: what `show` and the history call each, whether two items
/// hold the same value of it, and how it is taken from one item into another. A sync merges them
/// one by one, the history says which an edit changed, `edit` knows from them when it changes
/// nothing, and each import and export format says what it does with each (the names at the end of this file):
/// a new field does not compile until every one of them has.
///
/// What travels is every field: the number stays local (numbers never travel); the id and UID are
/// the item's identity; what a calendar wrote that todo has no field for is the server's, and
/// what other programs gave it is this list's.
public enum ItemField: String, CaseIterable, Sendable {
    case title, description, due, start
    case repeatRule = "repeat"
    case priority, tags, parent, place
    /// Open or done, and when done.
    case status
    /// In progress, and how much is done.
    case progress
    /// What the item is part of, Taskwarrior's way: `work.admin` is part of `work`.
    case project
    /// Dated notes (`todo annotate`, Taskwarrior's annotations).
    case annotations
    /// A link (iCalendar's `URL`, Reminders' `url`).
    case url
    /// Reminders that ring (iCalendar's `VALARM`s).
    case alarms
    /// The list the item belongs to (`Work`, `Home`), a calendar of its own when synced; none is
    /// the default list.
    case list

    /// Its name where a line names it (`Edited 3: … [due date]`, `Conflict 2 title: …`).
    public var name: String {
        switch self {
        case .due: "due date"
        case .place: "location"
        case .alarms: "reminders"
        default: rawValue
        }
    }

    /// Its label in `todo show`.
    public var label: String {
        switch self {
        case .title: "Title"
        case .description: "Description"
        case .due: "Due"
        case .start: "Starts"
        case .repeatRule: "Repeats"
        case .priority: "Priority"
        case .tags: "Tags"
        case .parent: "Parent"
        case .place: "Location"
        case .status: "Status"
        case .progress: "Progress"
        case .url: "URL"
        case .project: "Project"
        case .annotations: "Annotations"
        case .alarms: "Reminders"
        case .list: "List"
        }
    }

    /// Whether a change of it is an edit (`todo history` names the fields an edit changed); open
    /// or done is said apart.
    public var isEdited: Bool { self != .status }

    /// Whether `a` and `b` hold the same value of the field.
    public func isSame(in a: ToDoItem, as b: ToDoItem) -> Bool {
        switch self {
        case .title: a.title == b.title
        case .description: a.itemDescription == b.itemDescription
        case .due: a.due == b.due
        case .start: a.start == b.start
        case .repeatRule: a.repeatRule == b.repeatRule && a.repeatZone == b.repeatZone
        case .priority: a.priority == b.priority
        case .tags: a.tags == b.tags
        case .parent: a.parent == b.parent
        // Every part of the place, its address too: the book's equality leaves the address out.
        case .place: a.location?.isIdentical(to: b.location) ?? (b.location == nil)
        case .status: a.done == b.done && (!a.done || a.completedAt == b.completedAt)
        case .progress: a.inProgress == b.inProgress && a.percentComplete == b.percentComplete
        case .url, .project, .list: a[text: self] == b[text: self]
        case .annotations: a.annotations == b.annotations
        case .alarms: a.alarms == b.alarms
        }
    }

    /// `target` with the field's value from `source`.
    package func taking(from source: ToDoItem, into target: ToDoItem) -> ToDoItem {
        var item = target
        switch self {
        case .title: item.fields.title = source.title
        case .description: item.fields.itemDescription = source.itemDescription
        case .due: item.fields.due = source.due
        case .start: item.fields.start = source.start
        case .repeatRule:
            item.fields.repeatRule = source.repeatRule
            item.fields.repeatZone = source.repeatZone
        case .priority: item.fields.priority = source.priority
        case .tags: item.fields.tags = source.tags
        case .parent: item.fields.parent = source.parent
        case .place: item.fields.location = source.location
        case .status:
            item.done = source.done
            item.fields.completedAt = source.completedAt
        case .progress:
            item.fields.inProgress = source.inProgress
            item.fields.percentComplete = source.percentComplete
        case .url, .project, .list: item[text: self] = source[text: self]
        case .annotations: item.fields.annotations = source.annotations
        case .alarms: item.fields.alarms = source.alarms
        }
        return item
    }

    /// Whether `a` and `b` differ in any field.
    public static func differ(_ a: ToDoItem, _ b: ToDoItem) -> Bool {
        allCases.contains { !$0.isSame(in: a, as: b) }
    }

    /// The fields an edit changed from `before` to `after`, in this order.
    public static func edited(from before: ToDoItem, to after: ToDoItem) -> [ItemField] {
        allCases.filter { $0.isEdited && !$0.isSame(in: before, as: after) }
    }
}

// MARK: Text fields

extension ItemField {
    /// Whether the field is one line of text kept as given, which every part of todo reads,
    /// writes, shows and edits the same way, by the names below: a field of this kind is added
    /// here and in the item's storage, and named in the switches the compiler then points at (the
    /// file's, `show`'s). (The title and description have rules of their own, and their own code.)
    public var isText: Bool {
        switch self {
        case .title, .description, .due, .start, .repeatRule, .priority, .tags, .parent, .place, .status, .progress,
            .annotations, .alarms:
            false
        case .url, .project, .list: true
        }
    }

    /// The text fields, in the order the file, `show` and the exports give them.
    public static let texts = allCases.filter(\.isText)

    /// Whether `text` may be a text field's value: one line, without control characters
    /// (`ItemManager` refuses any other; an import leaves it out, saying so).
    public static func isOneLine(_ text: some StringProtocol) -> Bool {
        !text.unicodeScalars.contains(where: Whitespace.isControl)
    }

    /// Its keys in todo's file and in `--json` (`ItemMember`: a due in seconds or as a day; in
    /// progress and how much).
    package var fileKeys: [String] { members.map { $0.key.description } }

    /// Its members in todo's file, in the order the writer writes them.
    package var members: [ItemMember] { ItemMember.allCases.filter { $0.field == self } }

    /// Its first key in the file: a text field's only one.
    package var fileKey: String { fileKeys[0] }

    /// The fields in the order the file writes them: the order of their members.
    package static let inFileOrder: [ItemField] = ItemMember.allCases.reduce(into: []) { fields, member in
        if let field = member.field, !fields.contains(field) { fields.append(field) }
    }

    /// The option of `add` and `edit` that sets a text field (`--url`), and `edit`'s `--no-…`.
    public var option: String { rawValue }

    /// What the option's help says of it.
    public var help: String {
        switch self {
        case .title: "The title."
        case .description: "A longer description."
        case .due: "When the item is due."
        case .start: "When the item starts."
        case .repeatRule: "How the item repeats."
        case .priority: "How much the item matters."
        case .tags: "Words the item is filed under."
        case .parent: "The item this one is a subtask of."
        case .place: "Where the item is done."
        case .status: "Open or done."
        case .progress: "Begun, and how much is done."
        case .url: "A link, as https://example.com/ticket/42."
        case .project: "The project, as work.admin (part of work)."
        case .annotations: "Dated notes."
        case .alarms: "When the item reminds you: 15m, 1h or 2d before its due, or a date and time."
        case .list: "The list it belongs to, as Work (default: the default list)."
        }
    }

    // Each format's name for each field (`nil`: the format has no place for it, and leaves it out).

    /// The iCalendar property (RFC 5545), and whether its value is TEXT (escaped) rather than a URI.
    package var icalendarProperty: (name: String, isText: Bool)? {
        switch self {
        case .title: ("SUMMARY", true)
        case .description: ("DESCRIPTION", true)
        case .due: ("DUE", false)
        case .start: ("DTSTART", false)
        case .repeatRule: ("RRULE", false)
        case .priority: ("PRIORITY", false)
        case .tags: ("CATEGORIES", true)
        case .parent: ("RELATED-TO", false)
        case .place: ("LOCATION", true)
        case .status: ("STATUS", false)
        case .progress: ("PERCENT-COMPLETE", false)
        case .url: ("URL", false)
        // RFC 5545 has no property for a project (CATEGORIES are the tags).
        case .project: ("X-TODO-PROJECT", true)
        // One COMMENT each, its time in an X-TODO-TIME parameter (`ICalendarFormat`).
        case .annotations: ("COMMENT", true)
        // A component rather than a property: one VALARM each (`Alarm.icalendarComponent`).
        case .alarms: ("VALARM", false)
        // A synced list is a calendar of its own, and the list no property of its tasks
        // (`CalendarResource`); a file's VTODO names it.
        case .list: ("X-TODO-LIST", true)
        }
    }

    /// The key in Apple Reminders' JSON (reminders-cli).
    package var remindersKey: String? {
        switch self {
        case .title: "title"
        case .description: "notes"
        case .due: "dueDate"
        case .status: "isCompleted"
        case .place: "locationTitle"
        case .priority: "priority"
        case .url: "url"
        case .list: "list"
        case .start, .repeatRule, .tags, .parent, .progress, .project, .annotations, .alarms: nil
        }
    }

    /// The `key:` of a todo.txt line.
    package var todoTxtKey: String? {
        switch self {
        case .description: "desc"
        case .due: "due"
        case .start: "t"
        case .repeatRule: "rec"
        case .priority: "pri"
        case .tags: "tag"
        case .parent: "parent"
        case .place: "loc"
        case .list: "list"
        // todo.txt has no key for a link: it stays in the item, not on the line. A project is a
        // `+project` word (`TodoTxtFormat`).
        case .title, .status, .progress, .url, .project, .annotations, .alarms: nil
        }
    }

    /// The attribute of a Taskwarrior task.
    package var taskwarriorKey: String? {
        switch self {
        case .title: "description"
        // Taskwarrior has no longer text: a description goes as annotations after the item's own.
        case .description: nil
        case .due: "due"
        case .start: "wait"
        case .repeatRule: "recur"
        case .priority: "priority"
        case .tags: "tags"
        case .status: "status"
        case .progress: "start"
        case .project: "project"
        case .annotations: "annotations"
        // Taskwarrior has no attribute for a link (a UDA would be the user's own), nor an alarm,
        // nor lists (its projects are todo's projects).
        case .parent, .place, .url, .alarms, .list: nil
        }
    }
}

// MARK: The file

/// Each member of an item in todo's file (and in `--json`), in the order the writer writes them:
/// the item's identity and number, each field's keys, and what the item keeps beside its fields.
/// Declared once: the file's keys, the writer's order, the general reader's dispatch, and the fast
/// reader of the written form (which members it reads, where it keeps each one's offset, the
/// list's index) are all made from this table. (Public so that its raw value, the lane of its
/// offset, is inlined where the written form reads it: a list reads thousands.)
public enum ItemMember: Int, CaseIterable, Sendable {
    case id, number
    case title, itemDescription, timestamp, dueDate, start, startDate, repeatRule, repeatZone, location, priority, tags
    case parent, done, inProgress, percentComplete, project, url, list, alarms, annotations
    case createdAt, completedAt, modifiedAt, uid, icalendar, from
    /// What the first format said of a due in seconds (`ItemFields.legacyAllDay`): read, never written.
    case allDay

    /// Its key.
    package var key: StaticString {
        switch self {
        case .id: "id"
        case .number: "number"
        case .title: "title"
        case .itemDescription: "itemDescription"
        case .timestamp: "timestamp"
        case .dueDate: "dueDate"
        case .start: "start"
        case .startDate: "startDate"
        case .repeatRule: "repeat"
        case .repeatZone: "repeatZone"
        case .location: "location"
        case .priority: "priority"
        case .tags: "tags"
        case .parent: "parent"
        case .done: "done"
        case .inProgress: "inProgress"
        case .percentComplete: "percentComplete"
        case .project: "project"
        case .url: "url"
        case .list: "list"
        case .alarms: "alarms"
        case .annotations: "annotations"
        case .createdAt: "createdAt"
        case .completedAt: "completedAt"
        case .modifiedAt: "modifiedAt"
        case .uid: "uid"
        case .icalendar: "icalendar"
        case .from: "from"
        case .allDay: "allDay"
        }
    }

    /// The field it holds (or part of); `nil` for what the item keeps beside its fields: its
    /// identity, number and times, the UID another program gave it, a calendar's lines and other
    /// programs' members (each an `ItemFields` property of its own).
    package var field: ItemField? {
        switch self {
        case .title: .title
        case .itemDescription: .description
        case .timestamp, .dueDate: .due
        case .start, .startDate: .start
        case .repeatRule, .repeatZone: .repeatRule
        case .location: .place
        case .priority: .priority
        case .tags: .tags
        case .parent: .parent
        case .done: .status
        case .inProgress, .percentComplete: .progress
        case .project: .project
        case .url: .url
        case .list: .list
        case .alarms: .alarms
        case .annotations: .annotations
        case .id, .number, .createdAt, .completedAt, .modifiedAt, .uid, .icalendar, .from, .allDay: nil
        }
    }

    /// What its value is.
    package var value: FileValue {
        switch self {
        case .title, .itemDescription, .repeatRule, .repeatZone, .project, .url, .list, .uid: .text
        case .timestamp, .start, .createdAt, .completedAt, .modifiedAt: .time
        case .dueDate, .startDate: .day
        case .done, .allDay: .flag
        case .inProgress: .mark
        case .number: .whole(1...ToDoItem.largestNumber)
        case .priority: .whole(ToDoItem.priorityRange)
        case .percentComplete: .whole(ToDoItem.percentRange)
        case .id, .parent: .id
        case .tags: .texts
        case .location: .place
        case .alarms: .alarms
        case .annotations: .notes
        case .icalendar: .calendarLines
        case .from: .programs
        }
    }

    /// The member a due or a start may have instead of this one (a time or a day, never both).
    package var alternative: ItemMember? {
        switch self {
        case .timestamp: .dueDate
        case .dueDate: .timestamp
        case .start: .startDate
        case .startDate: .start
        default: nil
        }
    }

    /// Whether every item has it in the file: an item must have an id and a title, and the
    /// writer writes whether it is done.
    package var isAlwaysWritten: Bool { self == .id || self == .title || self == .done }

    /// Whether another program may use its key for a value of another kind (Reminders'
    /// `"priority": 0`, a word), which is then kept as it came rather than refused.
    package var keepsOtherKinds: Bool {
        switch value {
        case .text: self == .repeatRule || self == .repeatZone
        case .whole: self == .priority
        case .id: self == .parent
        case .texts, .notes, .alarms, .calendarLines: true
        case .time, .day, .flag, .mark, .place, .programs: false
        }
    }

    /// Whether the writer writes it (`allDay` is only read).
    package var isWritten: Bool { self != .allDay }
}

/// What a member's value is in todo's file.
package enum FileValue: Equatable, Sendable {
    /// A string.
    case text
    /// Seconds since 1970, within `ToDoItem.timestampRange`.
    case time
    /// A day, written `"2026-12-03"`.
    case day
    /// `true` or `false`.
    case flag
    /// `true`, written only when so; `false` is as none.
    case mark
    /// A whole number within the range.
    case whole(ClosedRange<Int>)
    /// A UUID, its 36 characters.
    case id
    /// An array of strings, not empty.
    case texts
    /// A `Location` object.
    case place
    /// An array of `Alarm` objects.
    case alarms
    /// An array of `Annotation` objects.
    case notes
    /// An iCalendar's content lines, as an array of strings.
    case calendarLines
    /// Other programs' members: an object of objects, one per program (`ForeignMembers`).
    case programs
}
