import ToDoModel
import ToDoStorage

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
    public mutating func checkItems(
        withIDs ids: [UUID], rules: TimeZoneRules
    ) throws(ItemManagerError) -> [CheckOutcome] {
        try checkNoOpenSubtasksLeftBehind(by: ids)
        // One item's check is refused before anything changes; several are made on a copy (which
        // costs a pass over the list) so that a refusal of a later one leaves the earlier as they were.
        if ids.count == 1 { return [try checkOne(withID: ids[0], rules: rules)] }
        var changed = self
        let outcomes = try ids.map { id throws(ItemManagerError) in try changed.checkOne(withID: id, rules: rules) }
        self = changed
        return outcomes
    }

    /// Checks one item as `checkItems` does.
    private mutating func checkOne(withID id: UUID, rules: TimeZoneRules) throws(ItemManagerError) -> CheckOutcome {
        let place = try place(ofID: id)
        let item = item(at: place)
        guard item.repeatRule != nil, !item.done else {
            return CheckOutcome(item: try checkItem(withID: id), changed: !item.done)
        }
        let checked = try checkOccurrence(withID: id, rules: rules)
        return CheckOutcome(item: checked.series ?? checked.record, changed: true, occurrence: (item, checked))
    }

    /// Removes the items with `ids`, as one change. Refused, with nothing changed, when it would
    /// leave an open subtask without its parent (remove the subtasks too, or first).
    public mutating func removeItems(withIDs ids: [UUID]) throws(ItemManagerError) -> [ToDoItem] {
        try checkNoOpenSubtasksLeftBehind(by: ids)
        if ids.count == 1 { return [try removeItem(withID: ids[0])] }
        var changed = self
        var removed: [ToDoItem] = []
        for id in ids { removed.append(try changed.removeItem(withID: id)) }
        self = changed
        return removed
    }

    /// Refuses a change to the items with `ids` that would leave open subtasks behind.
    private func checkNoOpenSubtasksLeftBehind(by ids: [UUID]) throws(ItemManagerError) {
        if let (parent, subtasks) = openSubtasksLeftBehind(by: Set(ids)) {
            throw .openSubtasks(parent: parent, subtasks: subtasks)
        }
    }
}
