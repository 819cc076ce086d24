import ToDoModel

/// How a file kept what the second form keeps otherwise.
///
/// Version 1 of the list (and of the sync state) kept every due and start in seconds, a whole day
/// as the moment of a local midnight: the same file showed another day in another zone. It kept
/// other programs' members beside todo's own keys, where one named as todo's was read as todo's.
/// Version 2 keeps a whole day as its date (`"dueDate": "2026-12-03"`), and other programs'
/// members each apart (`"from"`, `ForeignMembers`). A file of the first form is read as the days
/// it shows where it is read (`StoredItem.inCurrentForm`), and written in the second on its first
/// change.
package enum ItemForm: Sendable {
    /// Version 1: a due in seconds with `"allDay": true`, or without `allDay` at a local midnight,
    /// is a whole day; so is a start at a local midnight. Members todo does not know are other
    /// programs'.
    case first
    /// Version 2: seconds are a time. Only an `"allDay": true` (left by a hand edit, or in a line of
    /// the history written before) makes a due in seconds a day.
    case second

    /// The form of a list or sync state of `version`.
    package init(version: Int) {
        self = version < 2 ? .first : .second
    }
}

extension StoredItem {
    /// The item with the dues and starts that `form` calls whole days made the days they show in
    /// `local`, its `allDay` gone, and in the first form its other programs' members moved apart
    /// (`movedApart`); `nil` when it has nothing to change (nothing decoded then).
    package func inCurrentForm(_ form: ItemForm, local: CivilTime) -> StoredItem? {
        let allDay = storage.legacyAllDay
        guard allDay != nil || form == .first else { return nil }
        let moved =
            form == .first && !storage.keepsFieldsInText
            ? Self.movedApart(storage.fields.unknownMembers, into: storage.fields.foreignMembers) : nil
        var due = storage.due, start = storage.start
        // A time whose day here lies outside the years todo keeps stays the instant it was.
        func wholeDay(_ time: Double) -> ItemDate {
            Day(number: local.dayNumber(of: time)).map(ItemDate.day) ?? .time(time)
        }
        if case .time(let time)? = due, allDay ?? (form == .first && local.fields(of: time).isMidnight) {
            due = wholeDay(time)
        }
        if form == .first, case .time(let time)? = start, local.fields(of: time).isMidnight {
            start = wholeDay(time)
        }
        guard allDay != nil || due != storage.due || start != storage.start || moved != nil else { return nil }
        var fields = storage.fields
        fields.due = due
        fields.start = start
        fields.legacyAllDay = nil
        if let moved {
            fields.foreignMembers = moved
            fields.unknownMembers = UnknownMembers()
            // Begun in Taskwarrior (its `start`), as an import now reads it.
            if !done, moved.members(from: ForeignMembers.taskwarrior)["start"] != nil { fields.inProgress = true }
        }
        return StoredItem(id: id, number: number, done: done, storage: ItemStorage(fields))
    }

    /// Members a list of the first form kept beside todo's own keys, moved apart: `taskwarrior:start`
    /// (as a Taskwarrior import named one of todo's keys) to Taskwarrior's, any other to
    /// `ForeignMembers.firstFormImports`; `nil` when there are none.
    private static func movedApart(_ unknown: UnknownMembers, into foreign: ForeignMembers) -> ForeignMembers? {
        guard !unknown.isEmpty else { return nil }
        var foreign = foreign
        for (key, value) in unknown.object.members {
            if let colon = key.firstIndex(of: ":"),
                [ForeignMembers.taskwarrior, ForeignMembers.reminders].contains(String(key[..<colon]))
            {
                foreign.set(String(key[key.index(after: colon)...]), value, from: String(key[..<colon]))
            } else {
                foreign.set(key, value, from: ForeignMembers.firstFormImports)
            }
        }
        return foreign
    }

    /// Whether the item's due is a whole day read from a time (`inCurrentForm`), to count.
    package static func becameWholeDay(_ before: StoredItem, _ after: StoredItem) -> Bool {
        before.due?.isDay != true && after.due?.isDay == true
    }
}

extension ToDoItem {
    /// `StoredItem.inCurrentForm` of a plain item (a history line's, a sync state's base, an import's).
    package func inCurrentForm(_ form: ItemForm, local: CivilTime) -> ToDoItem? {
        // Known without a copy of the item: in the second form, only an `allDay` changes anything
        // (an undo reads every item of the history).
        guard form == .first || fields.legacyAllDay != nil else { return nil }
        return StoredItem(self).inCurrentForm(form, local: local)?.item
    }
}

extension Array where Element == StoredItem {
    /// Reads each item's dates as `form` says (`StoredItem.inCurrentForm`); returns how many
    /// dues became whole days.
    @discardableResult
    package mutating func bringToCurrentForm(_ form: ItemForm, local: CivilTime) -> Int {
        var wholeDays = 0
        for index in indices {
            guard let resolved = self[index].inCurrentForm(form, local: local) else { continue }
            if StoredItem.becameWholeDay(self[index], resolved) { wholeDays += 1 }
            self[index] = resolved
        }
        return wholeDays
    }
}
