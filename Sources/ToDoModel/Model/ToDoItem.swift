#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One thing to do, as the book's `ToDoItem`, plus the stable number the command line shows and the
/// times it was created and completed.
///
/// A plain value: the list keeps its items in a form of its own (`StoredItem`, which may leave
/// their fields in the file's text until asked for), and hands out items like this one.
public struct ToDoItem: Equatable, Sendable {
    /// The largest item number: 2^53 − 1, the largest integer that every JSON reader keeps exactly.
    public static let largestNumber = 9_007_199_254_740_991
    /// Due, created and completed times lie within the years 1 to 9999, the dates that can be typed
    /// and shown: from 1 January of year 1 in Foundation's calendar (Julian before 1582) to the end of
    /// 9999, each with a day to spare for time zones.
    public static let timestampRange: ClosedRange<Double> = -62_135_856_000...253_402_387_199
    /// The instants of the years 1 to 9999 in UTC: a time typed is one of them (`DueDateParser`).
    public static let instantRange: ClosedRange<Double> = -62_135_769_600...253_402_300_799
    /// The priorities an item may have: iCalendar's 1 (highest) to 9 (lowest).
    public static let priorityRange: ClosedRange<Int> = 1...9

    /// Identifies the item for as long as it exists, in this file and in any export of it.
    public let id: UUID
    /// The number the command line shows, assigned by `ItemManager` when the item is added and never
    /// reused; 0 for an item that has not been added to a manager.
    public package(set) var number: Int
    /// Whether the item is checked; changed only by `ItemManager.checkItem` and `uncheckItem`.
    public package(set) var done: Bool
    /// The other fields.
    package var fields: ItemFields

    /// The book's item: `timestamp` is a due time in seconds since 1970.
    public init(
        title: String,
        itemDescription: String? = nil,
        timestamp: Double? = nil,
        location: Location? = nil,
        id: UUID = UUID(),
        priority: Int? = nil,
        tags: [String] = [],
        start: ItemDate? = nil,
        repeatRule: String? = nil
    ) {
        self.init(
            title: title, itemDescription: itemDescription, due: timestamp.map(ItemDate.time), location: location,
            id: id,
            priority: priority, tags: tags, start: start, repeatRule: repeatRule)
    }

    /// An item due on a day or at a time (`due`).
    public init(
        title: String,
        itemDescription: String? = nil,
        due: ItemDate?,
        location: Location? = nil,
        id: UUID = UUID(),
        priority: Int? = nil,
        tags: [String] = [],
        start: ItemDate? = nil,
        repeatRule: String? = nil
    ) {
        self.init(
            id: id, title: title, itemDescription: itemDescription, due: due, start: start, repeatRule: repeatRule,
            location: location, priority: priority, tags: tags)
    }

    /// The item with its identity, its status and the fields most callers set; the others (the
    /// project, the list, reminders, notes, what other programs wrote) are properties to set after.
    /// (`ItemManager` gives an item its number when it is added, and its times when it is added,
    /// checked or changed.)
    public init(
        id: UUID, number: Int = 0, done: Bool = false, title: String, itemDescription: String? = nil,
        due: ItemDate? = nil, start: ItemDate? = nil, repeatRule: String? = nil, location: Location? = nil,
        priority: Int? = nil, tags: [String] = [], parent: UUID? = nil, inProgress: Bool = false,
        percentComplete: Int? = nil, url: String? = nil, createdAt: Double? = nil, completedAt: Double? = nil,
        modifiedAt: Double? = nil
    ) {
        self.init(
            id: id, number: number, done: done,
            fields: ItemFields(
                title: title, itemDescription: itemDescription, due: due, start: start, repeatRule: repeatRule,
                location: location, priority: priority, tags: tags, parent: parent, inProgress: inProgress,
                percentComplete: percentComplete, url: url, createdAt: createdAt, completedAt: completedAt,
                modifiedAt: modifiedAt))
    }

    /// The item with every field given.
    package init(id: UUID, number: Int, done: Bool, fields: ItemFields) {
        self.id = id
        self.number = number
        self.done = done
        self.fields = fields
    }

    /// A non-empty single line (`ItemManager` refuses anything else).
    public var title: String {
        get { fields.title }
        set { fields.title = newValue }
    }

    public var itemDescription: String? {
        get { fields.itemDescription }
        set { fields.itemDescription = newValue }
    }

    /// When the item is due: a whole day (`--due 2030-01-10`, iCalendar's `DUE;VALUE=DATE`), the
    /// same date in every time zone, or a time (`--due "2030-01-10 09:00"`), an instant.
    public var due: ItemDate? {
        get { fields.due }
        set { fields.due = newValue }
    }

    /// The book's due date in seconds since 1970: the time, or for a whole day its midnight in UTC
    /// (`due` says which it is). Setting it makes the due that time.
    public var timestamp: Double? {
        get {
            switch due {
            case .time(let time)?: time
            case .day(let day)?: Double(day.number) * 86_400
            case nil: nil
            }
        }
        set { due = newValue.map(ItemDate.time) }
    }

    /// How the item repeats: RFC 5545 RRULE text (`FREQ=WEEKLY;INTERVAL=2`), kept as read even
    /// when todo cannot follow it (`RepeatRule`).
    public var repeatRule: String? {
        get { fields.repeatRule }
        set { setField(\.repeatRule, newValue, isSet: newValue != nil, member: .repeatRule) }
    }

    /// The IANA zone its repeat rule is followed in; `nil` for the zone of the moment
    /// (`ItemFields.repeatZone`).
    public var repeatZone: String? {
        get { fields.repeatZone }
        set { setField(\.repeatZone, newValue, isSet: newValue != nil, member: .repeatZone) }
    }

    /// When the item starts to matter, a day or a time as `due` (Taskwarrior's wait, todo.txt's
    /// `t:`, iCalendar's DTSTART): a list leaves it out until that day.
    public var start: ItemDate? {
        get { fields.start }
        set { fields.start = newValue }
    }

    public var location: Location? {
        get { fields.location }
        set { fields.location = newValue }
    }

    /// How much the item matters, as iCalendar's PRIORITY: 1 (highest) to 9 (lowest), `nil` for
    /// none. `Priority` names the levels: 1–4 high, 5 medium, 6–9 low.
    public var priority: Int? {
        get { fields.priority }
        set { setField(\.priority, newValue, isSet: newValue != nil, member: .priority) }
    }

    /// Words the item is filed under, in the order given, none repeated ignoring case
    /// (`ItemManager` keeps them so; `Tags.normalized`).
    public var tags: [String] {
        get { fields.tags }
        set { setField(\.tags, newValue, isSet: !newValue.isEmpty, member: .tags) }
    }

    /// The id of the item this one is a subtask of (`ItemManager` keeps it pointing to an item and
    /// free of cycles; a parent removed since is as none).
    public var parent: UUID? {
        get { fields.parent }
        set { setField(\.parent, newValue, isSet: newValue != nil, member: .parent) }
    }

    /// Sets a field whose key another program may use for a value of another kind, kept as its
    /// field while this item had none (Reminders' `"priority": 0`): once set, todo's own takes
    /// the key.
    private mutating func setField<Value>(
        _ field: WritableKeyPath<ItemFields, Value>, _ value: Value, isSet: Bool, member: ItemMember
    ) {
        fields[keyPath: field] = value
        if isSet { fields.unknownMembers.remove(key: member.key.description) }
    }

    /// Whether work on the item has begun (iCalendar's `STATUS:IN-PROCESS`, Taskwarrior's
    /// `start`): a state beside open and done, which checking the item ends.
    public var inProgress: Bool {
        get { fields.inProgress }
        set { fields.inProgress = newValue }
    }

    /// How much of the item is done, 0 to 100 (iCalendar's `PERCENT-COMPLETE`); `nil` for unsaid.
    public var percentComplete: Int? {
        get { fields.percentComplete }
        set { fields.percentComplete = newValue }
    }

    /// A link for the item (iCalendar's `URL`, Reminders' `url`), kept as given.
    public var url: String? {
        get { self[text: .url] }
        set { self[text: .url] = newValue }
    }

    /// What the item is part of, as Taskwarrior's projects: `work.admin` is part of `work`.
    public var project: String? {
        get { self[text: .project] }
        set { self[text: .project] = newValue }
    }

    /// The list the item belongs to (`Work`); `nil` for the default list.
    public var list: String? {
        get { self[text: .list] }
        set { self[text: .list] = newValue }
    }

    /// Dated notes, oldest first (`todo annotate`, Taskwarrior's annotations, iCalendar's `COMMENT`).
    public var annotations: [Annotation] {
        get { fields.annotations }
        set { fields.annotations = newValue }
    }

    /// When the item reminds its owner (iCalendar's `VALARM`s), in the order given.
    public var alarms: [Alarm] {
        get { fields.alarms }
        set { fields.alarms = newValue }
    }

    /// The percentages `percentComplete` may hold.
    public static let percentRange: ClosedRange<Int> = 0...100

    /// When the item was added, in seconds since 1970, if the manager was given a clock.
    public package(set) var createdAt: Double? {
        get { fields.createdAt }
        set { fields.createdAt = newValue }
    }

    /// When the item was last checked, in seconds since 1970, if the manager was given a clock.
    public package(set) var completedAt: Double? {
        get { fields.completedAt }
        set { fields.completedAt = newValue }
    }

    /// When the item last changed (added, checked, unchecked or edited), in seconds since 1970,
    /// if the manager was given a clock: iCalendar's LAST-MODIFIED.
    public package(set) var modifiedAt: Double? {
        get { fields.modifiedAt }
        set { fields.modifiedAt = newValue }
    }

    /// The UID a calendar (or another program) gave the item, kept byte for byte where it is not
    /// todo's id as todo writes it (`…@example.com`, a lower-case UUID), so that an export back
    /// names the same item; `nil` for an item whose UID is its id.
    public package(set) var originalUID: String? {
        get { fields.originalUID }
        set { fields.originalUID = newValue }
    }

    /// What a calendar wrote of the item that todo has no field for (alarms, `X-…` properties,
    /// `PERCENT-COMPLETE`, `URL`, `CLASS`), as unfolded iCalendar content lines: kept as they came
    /// and written back by the iCalendar export.
    public package(set) var icalendarLines: [String] {
        get { fields.icalendarLines }
        set { fields.icalendarLines = newValue }
    }

    /// The item's UID for another program: the one it came with, else its id.
    public var uid: String { originalUID ?? id.uuidString }

    /// A text field's value (`ItemField.texts`): the same as its property.
    public subscript(text field: ItemField) -> String? {
        get { fields[text: field] }
        set { fields[text: field] = newValue }
    }

    /// What other programs gave the item, each program's apart.
    package var foreignMembers: ForeignMembers {
        get { fields.foreignMembers }
        set { fields.foreignMembers = newValue }
    }

    /// What the file held for this item that this version does not know, kept for the next write.
    package var unknownMembers: UnknownMembers {
        get { fields.unknownMembers }
        set { fields.unknownMembers = newValue }
    }

    /// Whether the two items have the same content: title, description, due date and location
    /// (locations compared as `Location` equality does). Identity, number and status do not count.
    public func hasSameContent(as other: ToDoItem) -> Bool {
        Self.hasSameContent(other, title: title, itemDescription: itemDescription, due: due, location: location)
    }

    /// The rule of `hasSameContent`, for an item whose fields are read only when the ones before
    /// are the same (one the list keeps in the file's text: most titles differ).
    package static func hasSameContent(
        _ other: ToDoItem, title: String, itemDescription: @autoclosure () -> String?,
        due: @autoclosure () -> ItemDate?, location: @autoclosure () -> Location?
    ) -> Bool {
        title == other.title
            && itemDescription() == other.itemDescription
            && due() == other.due
            && location() == other.location
    }

    /// Items are equal when their id, number, status and every field are, the place's address
    /// too: `Location`'s own equality is the book's looser rule (SPEC §1), which the uniqueness
    /// rule uses (`hasSameContent`).
    public static func == (lhs: ToDoItem, rhs: ToDoItem) -> Bool {
        lhs.id == rhs.id && lhs.number == rhs.number && lhs.done == rhs.done && lhs.fields == rhs.fields
            && lhs.fields.location?.address == rhs.fields.location?.address
    }
}
