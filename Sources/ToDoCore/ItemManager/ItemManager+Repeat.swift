import ToDoModel
import ToDoStorage

/// What checking a repeating item did (`ItemManager.checkOccurrence`).
public struct CheckedOccurrence: Equatable, Sendable {
    /// The done item that records the occurrence: a copy of the item with the due it had and a
    /// number of its own; the item itself when the series ended with it.
    public var record: ToDoItem
    /// The item, open again with its due moved to the next occurrence; `nil` when the series ended.
    public var series: ToDoItem?
}

/// How a repeat rule reached the list. `typed` at the command line, a cadence (`monthly`, `every
/// 3 months`) from a due on the 29th to a month's end keeps the month's end, as Taskwarrior's
/// repeats do (`RepeatRule.keepingMonthEnd`, the due's day read in `ItemManager.localZone`):
/// `monthly` from January 31st gives February 28th. `asWritten` by a program (an iCalendar file,
/// a server), `FREQ=MONTHLY` keeps RFC 5545's meaning and skips the months without the day.
public enum RepeatGiven: Sendable {
    case typed, asWritten
}

extension ItemManager {
    /// `item`'s repeat rule as the list keeps it, given as `given` says.
    func keepingMonthEnd(of item: inout ToDoItem, _ given: RepeatGiven) {
        guard given == .typed, let rule = item.repeatRule, let due = item.due else { return }
        let kept = RepeatRule.keepingMonthEnd(rule, due: due, rules: localZone ?? .utc)
        if kept != rule { item.repeatRule = kept }
    }

    /// Checks the current occurrence of the open repeating item with `id`, its dates read in
    /// `rules`: a done copy of the item (a new id and the next number, no repeat rule) records the
    /// occurrence with the due it had, and the item keeps its number and stays open, its due (and
    /// its start, by as much) moved to the next occurrence still ahead (`RepeatRule.nextOccurrence`).
    /// When the series has no occurrence after this one, the item itself is checked. Refused when
    /// the rule is one todo cannot follow, or when the moved item would be an open twin.
    public mutating func checkOccurrence(
        withID id: UUID, rules: TimeZoneRules
    ) throws(ItemManagerError) -> CheckedOccurrence {
        let place = try place(ofID: id)
        let item = item(at: place)
        guard !place.done, let text = item.repeatRule, let anchor = item.occurrence else {
            return CheckedOccurrence(record: try checkItem(withID: id), series: nil)
        }
        guard let rule = try? RepeatRule(text), rule.canBeFollowed else { throw .unfollowableRepeat(item) }
        // RFC 5545 follows a rule in its DTSTART's zone: the weekdays of New York stay New York's
        // when the item is checked in Tokyo.
        let local = CivilTime(rules: item.seriesRules(else: rules))
        let now = currentTime() ?? anchor.moment(local: local)
        guard let (next, nextRule) = rule.nextOccurrence(after: anchor, now: now, local: local) else {
            return CheckedOccurrence(record: try checkItem(withID: id), series: nil)
        }
        var series = item.movedToOccurrence(next, rule: nextRule, local: local)
        try checkNoOpenItemHasContent(of: series, except: id)

        // The copy is an item of its own: no rule, and not the series' UID or calendar lines; done,
        // it rings no more.
        var fields = item.fields
        fields.repeatRule = nil
        fields.repeatZone = nil
        fields.originalUID = nil
        fields.icalendarLines = []
        fields.alarms = []
        fields.createdAt = nil
        fields.completedAt = now
        fields.modifiedAt = now
        let recorded = try insert(ToDoItem(id: newID(), number: 0, done: true, fields: fields))
        series = try updateItem(withID: id) { $0 = series }
        return CheckedOccurrence(record: recorded, series: series)
    }
}

extension ItemManager {
    /// Gives `item` the zone its repeat rule is followed in: a timed repeating item whose rule is
    /// given here (`ruleGiven`), or which becomes timed and repeating, is followed in `localZone`
    /// when that is a zone of the zone folder (an IANA name a calendar's `TZID` can say; POSIX
    /// rules and files are not); one that stays timed and repeating keeps its zone; any other has
    /// none (a whole day is the same day in every zone).
    func followRepeatZone(of item: inout ToDoItem, before old: ToDoItem?, ruleGiven: Bool) {
        guard item.isTimedRepeat else {
            if item.repeatZone != nil { item.repeatZone = nil }
            return
        }
        guard ruleGiven || old?.isTimedRepeat != true else { return }
        item.repeatZone = localZone.flatMap { ZoneInfo.zone(named: $0.name) == nil ? nil : $0.name }
    }
}

extension ToDoItem {
    /// Whether the item repeats at a time of day: its rule is followed in a zone.
    var isTimedRepeat: Bool { repeatRule != nil && (due ?? start)?.isDay == false }

    /// The zone its repeat rule is followed in: its own (`repeatZone`) when the zone folder has
    /// it, else `rules`.
    func seriesRules(else rules: TimeZoneRules) -> TimeZoneRules {
        repeatZone.flatMap { ZoneInfo.zone(named: $0) } ?? rules
    }

    /// The moment a repeating item's occurrence is: its due, or without one its start (a
    /// calendar's task may repeat by its `DTSTART` alone).
    var occurrence: ItemDate? { due ?? start }

    /// The repeating item at its occurrence `next`, of `rule` (`RepeatRule.nextOccurrence`): its
    /// due there and its start moved by as much (in `local`, each staying a day or a time), or
    /// without a due its start there; its rule's text the new rule's when that changed (its
    /// `COUNT` lowered).
    func movedToOccurrence(_ next: ItemDate, rule: RepeatRule, local: CivilTime) -> ToDoItem {
        var moved = self
        let anchor = due ?? start
        if let due {
            moved.due = next
            if let start {
                let shift = next.moment(local: local) - due.moment(local: local)
                moved.start = start.withMoment(start.moment(local: local) + shift, local: local)
            }
        } else {
            moved.start = next
        }
        if rule.text != repeatRule { moved.repeatRule = rule.text }
        // A reminder at a set time rings as long before the next occurrence; one counted from
        // the due or the start moves with it already.
        if let anchor, alarms.contains(where: { !$0.isRelative }) {
            let shift = next.moment(local: local) - anchor.moment(local: local)
            moved.alarms = alarms.map { $0.moved(by: shift) }
        }
        return moved
    }
}
