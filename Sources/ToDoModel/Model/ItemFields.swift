#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fields of an item other than its id, number and status.
package struct ItemFields: Equatable, Sendable {
    package var title: String
    package var itemDescription: String?
    package var due: ItemDate?
    package var start: ItemDate?
    /// What a file of the first format said of a due given in seconds (`allDay`): never written
    /// again, and gone once the store has read the due as the date or time it is
    /// (`ToDoItem.inCurrentForm`).
    package var legacyAllDay: Bool?
    /// How the item repeats, as RFC 5545 RRULE text (`FREQ=WEEKLY;INTERVAL=2`).
    package var repeatRule: String?
    /// The IANA zone a timed repeating item's rule is followed in (`America/New_York`): the zone
    /// it was given its due or rule in, or its calendar's `TZID`; `nil` follows the zone of the
    /// moment, as whole days and floating times do (RFC 5545 evaluates a rule in its DTSTART's zone).
    package var repeatZone: String?
    package var location: Location?
    package var priority: Int?
    package var tags: [String] = []
    package var parent: UUID?
    /// Begun and not yet done (iCalendar's `STATUS:IN-PROCESS`, Taskwarrior's `start`).
    package var inProgress = false
    /// How much is done, 0 to 100 (iCalendar's `PERCENT-COMPLETE`).
    package var percentComplete: Int?
    package var url: String?
    /// Dot-separated, as Taskwarrior's `work.admin` (`ProjectName`).
    package var project: String?
    /// The list's name; `nil` for the default list.
    package var list: String?
    package var annotations: [Annotation] = []
    package var alarms: [Alarm] = []
    package var createdAt: Double?
    package var completedAt: Double?
    package var modifiedAt: Double?
    /// The UID another program gave the item, where it is not todo's id as todo writes it.
    package var originalUID: String?
    /// A calendar's properties and components of the item that todo has no field for (`VALARM`,
    /// `X-APPLE-…`, `PERCENT-COMPLETE`), as unfolded content lines, for the next iCalendar export.
    package var icalendarLines: [String] = []
    /// What other programs gave the item, each apart (`ForeignMembers`).
    package var foreignMembers = ForeignMembers()
    package var unknownMembers = UnknownMembers()

    /// Every field, in the order of the table (`ItemMember`; `ItemMemberTests` checks that each
    /// is here); those not given are empty.
    package init(
        title: String, itemDescription: String? = nil, due: ItemDate? = nil, start: ItemDate? = nil,
        repeatRule: String? = nil, repeatZone: String? = nil, location: Location? = nil, priority: Int? = nil,
        tags: [String] = [], parent: UUID? = nil, inProgress: Bool = false, percentComplete: Int? = nil,
        project: String? = nil, url: String? = nil, list: String? = nil, alarms: [Alarm] = [],
        annotations: [Annotation] = [], createdAt: Double? = nil, completedAt: Double? = nil,
        modifiedAt: Double? = nil, originalUID: String? = nil, icalendarLines: [String] = [],
        foreignMembers: ForeignMembers = ForeignMembers(), legacyAllDay: Bool? = nil,
        unknownMembers: UnknownMembers = UnknownMembers()
    ) {
        self.title = title
        self.itemDescription = itemDescription
        self.due = due
        self.start = start
        self.legacyAllDay = legacyAllDay
        self.repeatRule = repeatRule
        self.repeatZone = repeatZone
        self.annotations = annotations
        self.location = location
        self.priority = priority
        self.tags = tags
        self.parent = parent
        self.project = project
        self.list = list
        self.alarms = alarms
        self.inProgress = inProgress
        self.percentComplete = percentComplete
        self.url = url
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.modifiedAt = modifiedAt
        self.originalUID = originalUID
        self.icalendarLines = icalendarLines
        self.foreignMembers = foreignMembers
        self.unknownMembers = unknownMembers
    }
}

extension ItemFields {
    /// A text field's value (`ItemField.isText`); `nil` for any other field, which this never sets.
    package subscript(text field: ItemField) -> String? {
        get {
            switch field {
            case .title, .description, .due, .start, .repeatRule, .priority, .tags, .parent, .place, .status, .progress,
                .annotations, .alarms:
                nil
            case .url: url
            case .project: project
            case .list: list
            }
        }
        set {
            switch field {
            case .title, .description, .due, .start, .repeatRule, .priority, .tags, .parent, .place, .status, .progress,
                .annotations, .alarms:
                break
            case .url: url = newValue
            case .project: project = newValue
            case .list: list = newValue
            }
        }
    }
}

extension ItemFields {
    /// Moves the alarms among the calendar's lines (`VALARM`s an earlier version kept as they came)
    /// into `alarms`, where their triggers are ones todo reads: a bare relative trigger counts from
    /// the start the VTODO had (todo writes a repeating item's due as its `DTSTART`).
    package mutating func takeAlarmsFromCalendarLines() {
        guard let first = icalendarLines.firstIndex(where: { $0.uppercased().hasPrefix("BEGIN:VALARM") }) else {
            return
        }
        // The VTODO's components follow its properties (`ICalendarFormat.read`).
        let (alarms, rest) = Alarm.reading(
            components: Array(icalendarLines[first...]), hasStart: start != nil || (repeatRule != nil && due != nil),
            hasDue: due != nil, title: title)
        guard !alarms.isEmpty else { return }
        self.alarms += alarms
        icalendarLines = Array(icalendarLines[..<first]) + rest
    }
}
