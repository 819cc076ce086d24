import Foundation

/// What checking one item did (`ItemManager.checkItems`).
public struct CheckOutcome: Sendable {
    /// The item as it is now: done; for a repeating item, the item moved to its next occurrence, or
    /// the item itself done when the series ended.
    public var item: ToDoItem
    /// Whether checking changed it: an item already done stays as it was.
    public var changed: Bool
    /// For a repeating item: the item as it was, and what checking it did.
    public var occurrence: (before: ToDoItem, checked: CheckedOccurrence)?
}

extension ItemManager {
    /// Checks the items with `ids`, in order, as one change: an open repeating item by its
    /// occurrence (`checkOccurrence`, its dates read in `rules`), any other as `checkItem`. Refused,
    /// with nothing changed, when it would leave an open subtask without its parent (check the
    /// subtasks too, or first), or when one item is refused.
    public mutating func checkItems(withIDs ids: [UUID], rules: TimeZoneRules) throws(ItemManagerError) -> [CheckOutcome] {
        try checkNoOpenSubtasksLeftBehind(by: ids)
        var changed = self
        var outcomes: [CheckOutcome] = []
        for id in ids {
            let place = try changed.place(ofID: id)
            let item = place.done ? changed.doneItems[place.index] : changed.toDoItems[place.index]
            guard item.repeatRule != nil, !item.done else {
                outcomes.append(CheckOutcome(item: try changed.checkItem(withID: id), changed: !item.done))
                continue
            }
            let checked = try changed.checkOccurrence(withID: id, rules: rules)
            outcomes.append(CheckOutcome(item: checked.series ?? checked.record, changed: true, occurrence: (item, checked)))
        }
        self = changed
        return outcomes
    }

    /// Removes the items with `ids`, as one change. Refused, with nothing changed, when it would
    /// leave an open subtask without its parent (remove the subtasks too, or first).
    public mutating func removeItems(withIDs ids: [UUID]) throws(ItemManagerError) -> [ToDoItem] {
        try checkNoOpenSubtasksLeftBehind(by: ids)
        var changed = self
        var removed: [ToDoItem] = []
        for id in ids { removed.append(try changed.removeItem(withID: id)) }
        self = changed
        return removed
    }

    /// Refuses a change to the items with `ids` that would leave open subtasks behind.
    private func checkNoOpenSubtasksLeftBehind(by ids: [UUID]) throws(ItemManagerError) {
        if let (parent, subtasks) = openSubtasksLeftBehind(by: Set(ids)) { throw .openSubtasks(parent: parent, subtasks: subtasks) }
    }
}
