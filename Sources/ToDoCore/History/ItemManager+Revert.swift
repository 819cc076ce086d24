import ToDoModel
import ToDoStorage

extension ItemManager {
    /// Takes back the change `entry` recorded: its steps in reverse order, each putting back what
    /// it replaced, so that the items return to their places. Refused, with nothing changed, when
    /// an item is no longer as the change left it (a later change depends on it; `history` names
    /// it) or when putting an item back would break a rule. The steps taken are recorded like any
    /// other change, so that the undo itself can be taken back.
    public mutating func revert(_ entry: HistoryEntry, in history: ChangeHistory) throws(UndoError) {
        let current = items(withIDs: Set(entry.results.map(\.id)))
        for result in entry.results where current[result.id] != result.item {
            let item = current[result.id] ?? result.item ?? ToDoItem(title: "", id: result.id)
            throw .changedSince(entry, item: item, by: history.latestChange(touching: result.id, after: entry))
        }
        var copy = self
        var putBack: [ToDoItem] = []
        for step in entry.steps.reversed() {
            switch step {
            case .inserted(let id, let place):
                copy.takeOut(id, near: place)
            case .removed(let item, let place):
                // A history written by todo never brings back an item that is there; an edited one might.
                if copy.containsItem(withID: item.id), let existing = copy.item(withID: item.id) {
                    throw .refused(entry, .duplicateID(existing: existing))
                }
                copy.put(item, at: place)
                putBack.append(item)
            case .replaced(let item, let place):
                copy.takeOut(item.id, near: place)
                copy.put(item, at: place)
                putBack.append(item)
            }
        }
        if let existing = copy.itemSharingNumber(withAnyOf: putBack) {
            throw .refused(entry, .duplicateNumber(existing: existing))
        }
        if let existing = copy.openItemSharingContent(withAnyOf: Set(entry.results.map(\.id))) {
            throw .refused(entry, .duplicateContent(existing: existing))
        }
        copy.changeCount += 1
        self = copy
    }

    /// An open item with the same content as an open item with one of `ids` (rule 2), found by
    /// grouping the open items by title: putting back a cleared list checks them all at once.
    private func openItemSharingContent(withAnyOf ids: Set<UUID>) -> ToDoItem? {
        var byTitle: [String: [ToDoItem]] = [:]
        for index in openStored.indices(whereIDAndNumber: { id, _ in ids.contains(id) }) {
            let item = openStored[index]
            byTitle[item.title, default: []].append(item.item)
        }
        guard !byTitle.isEmpty else { return nil }
        for other in openStored {
            guard let candidates = byTitle[other.title] else { continue }
            if candidates.contains(where: { $0.id != other.id && other.hasSameContent(as: $0) }) { return other.item }
        }
        return nil
    }

    /// An item whose number one of `items` (put back, so in the list) also has: only a history
    /// edited by hand could bring that about, since numbers are never reused.
    private func itemSharingNumber(withAnyOf items: [ToDoItem]) -> ToDoItem? {
        var idByNumber: [Int: UUID] = [:]
        for item in items where item.number > 0 { idByNumber[item.number] = item.id }
        guard !idByNumber.isEmpty else { return nil }
        for list in [openStored, doneStored] {
            let sharing = list.indices(whereIDAndNumber: { id, number in idByNumber[number].map { $0 != id } ?? false })
            if let index = sharing.first { return list[index].item }
        }
        return nil
    }

    /// The items with these ids that are in the list, found in one pass.
    func items(withIDs wanted: Set<UUID>) -> [UUID: ToDoItem] {
        var found: [UUID: ToDoItem] = [:]
        for items in [openStored, doneStored] where found.count < wanted.count {
            for index in items.indices(whereIDAndNumber: { id, _ in wanted.contains(id) }) {
                let item = items[index].item
                found[item.id] = item
            }
        }
        return found
    }

    /// Removes the item with `id`, looking first at `place`, and records the step.
    private mutating func takeOut(_ id: UUID, near place: ItemPlace) {
        guard let found = isItem(id, at: place) ? place : try? self.place(ofID: id) else { return }
        _ = remove(at: found)
    }
}
