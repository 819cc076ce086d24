import ToDoModel

/// Items as they are read from a file, open and done apart, each in file order: what an
/// `ItemManager` keeps, so that restoring one moves the arrays instead of copying every item.
package struct StoredItems {
    package init() {}

    package var open = StoredItemArray()
    package var done = StoredItemArray()
    /// Where the items without a number are, in file order, to be numbered in that order.
    package var unnumbered: [(isDone: Bool, index: Int)] = []
    /// Whether any item has a start date (`ItemManager.mayHaveStartDates`); the reader notes it
    /// from where each item's fields are, which costs nothing.
    package var anyStartDate = false
    /// Whether any item is a subtask (`ItemManager.mayHaveSubtasks`), noted the same way.
    package var anyParent = false
    /// Whether any item says `allDay`, as the first form did (`ItemForm`), noted the same way.
    package var anyLegacyAllDay = false
    /// Whether the items' ids and numbers are known unique and in range: read through an index,
    /// which is made only of items an `ItemManager` restored, having checked them.
    package var idsAndNumbersChecked = false
    /// The highest number of the items, when `idsAndNumbersChecked`.
    package var highestNumber = 0

    /// Notes the fields of an item read by the shortcut from where they are, which costs nothing.
    package mutating func note(_ item: WrittenItem) {
        if item.offsets.has(.start) || item.offsets.has(.startDate) { anyStartDate = true }
        if item.offsets.has(.parent) { anyParent = true }
        if item.offsets.has(.allDay) { anyLegacyAllDay = true }
    }

    /// Notes what the items of `part` (read apart, another half of the same list) have.
    package mutating func note(_ part: StoredItems) {
        anyStartDate = anyStartDate || part.anyStartDate
        anyParent = anyParent || part.anyParent
        anyLegacyAllDay = anyLegacyAllDay || part.anyLegacyAllDay
        highestNumber = max(highestNumber, part.highestNumber)
    }

    /// Notes the fields of an item already decoded.
    package mutating func note(_ item: StoredItem) {
        if item.start != nil { anyStartDate = true }
        if item.parent != nil { anyParent = true }
        if item.storage.legacyAllDay != nil { anyLegacyAllDay = true }
    }

    /// Reads the items' dates as `form` says (`StoredItem.inCurrentForm`), in `timeZone`, where any
    /// may need it; returns how many dues became whole days. (A start may become a day, never
    /// appear or go: `anyStartDate` holds.)
    package mutating func bringToCurrentForm(_ form: ItemForm, timeZone: TimeZoneRules) -> Int {
        guard form == .first || anyLegacyAllDay else { return 0 }
        anyLegacyAllDay = false
        let local = CivilTime(rules: timeZone)
        return open.bringToCurrentForm(form, local: local) + done.bringToCurrentForm(form, local: local)
    }

    /// Takes `item`, moved in (a copy would count a reference to its text, and drop it again).
    package mutating func append(_ item: consuming StoredItem) {
        if item.number == 0 { unnumbered.append((item.done, item.done ? done.count : open.count)) }
        if item.done { done.append(consume item) } else { open.append(consume item) }
    }
}
