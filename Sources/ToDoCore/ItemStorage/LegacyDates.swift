/// How a file said which dues and starts are whole days, before todo kept days as dates.
///
/// Version 1 of the list (and of the sync state) kept every due and start in seconds, a whole day
/// as the moment of a local midnight: the same file showed another day in another zone. Version 2
/// keeps a whole day as its date (`"dueDate": "2026-12-03"`). A file of the first form is read as
/// the days it shows where it is read (`ToDoItem.resolvingLegacyDates`), and written in the second
/// on its first change.
enum DateForm: Sendable {
    /// Version 1: a due in seconds with `"allDay": true`, or without `allDay` at a local midnight,
    /// is a whole day; so is a start at a local midnight.
    case first
    /// Version 2: seconds are a time. Only an `"allDay": true` (left by a hand edit, or in a line of
    /// the history written before) makes a due in seconds a day.
    case second

    /// The form of a list or sync state of `version`.
    init(version: Int) {
        self = version < 2 ? .first : .second
    }
}

extension ToDoItem {
    /// The item with the dues and starts that `form` calls whole days made the days they show in
    /// `local`, and its `allDay` gone; `nil` when it has none to change (nothing decoded then).
    func resolvingLegacyDates(_ form: DateForm, local: CivilTime) -> ToDoItem? {
        let allDay = storage.legacyAllDay
        guard allDay != nil || form == .first else { return nil }
        var due = storage.due, start = storage.start
        if case .time(let time)? = due, allDay ?? (form == .first && local.fields(of: time).isMidnight) {
            due = .day(Day(of: time, local: local))
        }
        if form == .first, case .time(let time)? = start, local.fields(of: time).isMidnight {
            start = .day(Day(of: time, local: local))
        }
        guard allDay != nil || due != storage.due || start != storage.start else { return nil }
        var item = self
        var fields = storage.fields
        fields.due = due
        fields.start = start
        fields.legacyAllDay = nil
        item.storage.fields = fields
        return item
    }

    /// Whether the item's due is a whole day read from a time (`resolvingLegacyDates`), to count.
    static func becameWholeDay(_ before: ToDoItem, _ after: ToDoItem) -> Bool {
        before.due?.isDay != true && after.due?.isDay == true
    }
}

extension Array where Element == ToDoItem {
    /// Reads each item's dates as `form` says (`ToDoItem.resolvingLegacyDates`); returns how many
    /// dues became whole days.
    @discardableResult
    mutating func resolveLegacyDates(_ form: DateForm, local: CivilTime) -> Int {
        var wholeDays = 0
        for index in indices {
            guard let resolved = self[index].resolvingLegacyDates(form, local: local) else { continue }
            if ToDoItem.becameWholeDay(self[index], resolved) { wholeDays += 1 }
            self[index] = resolved
        }
        return wholeDays
    }
}
