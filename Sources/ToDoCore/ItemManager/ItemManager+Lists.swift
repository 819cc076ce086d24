import ToDoModel
import ToDoStorage

/// A list and how many items it holds (`todo lists`).
public struct ListSummary: Equatable, Sendable {
    /// `nil` for the default list.
    public var name: String?
    public var open: Int
    public var done: Int
}

extension ItemManager {
    /// Every list the items belong to, with its counts: the default list first (also when empty),
    /// then the others by name, ignoring case.
    public func lists() -> [ListSummary] {
        var summaries = [ListSummary(name: nil, open: 0, done: 0)]
        var index: [String: Int] = [:]
        for (items, isDone) in [(openStored, false), (doneStored, true)] {
            for item in items {
                let position: Int
                // Told apart as lists are everywhere (`ListName.key`): `default ` is the default list.
                if let name = item.list, let key = ListName.key(name) {
                    if let known = index[key] {
                        position = known
                    } else {
                        position = summaries.count
                        index[key] = position
                        summaries.append(ListSummary(name: ListName.stored(name), open: 0, done: 0))
                    }
                } else {
                    position = 0
                }
                if isDone { summaries[position].done += 1 } else { summaries[position].open += 1 }
            }
        }
        return [summaries[0]] + summaries.dropFirst().sorted { ListName.key($0.name)! < ListName.key($1.name)! }
    }

    /// The list named `name` as the items spell it: a list named in another case is the list the
    /// items have; a new one is spelled as given.
    func listName(asTheItemsSpell name: String) -> String {
        for items in [openStored, doneStored] {
            for item in items {
                if let list = item.list, ListName.same(list, name) { return ListName.stored(list) ?? name }
            }
        }
        return name
    }

    /// Renames the list `name` to `newName`, as `moveItems(ofList:to:)` moves its items; refused
    /// when another list of that name holds items (`ItemManagerError.listTaken`): a rename never
    /// merges two lists, which undo alone could then tell apart.
    public mutating func renameList(
        _ name: String?, to newName: String?
    ) throws(ItemManagerError) -> (list: String?, items: [ToDoItem]) {
        if !ListName.same(name, newName), let taken = lists().first(where: { ListName.same($0.name, newName) }),
            taken.open + taken.done > 0
        {
            throw .listTaken(
                from: ListName.shown(name), to: ListName.shown(taken.name), holding: taken.open + taken.done)
        }
        return try moveItems(ofList: name, to: newName)
    }

    /// Removes the list `name` by moving its items to the list `target` (`.some(nil)`: the default
    /// list), as `moveItems(ofList:to:)`; refused while it holds items and no list is given to take
    /// them (`listHoldsItems`: removing a list never removes items), and for a list no item is in.
    public mutating func removeList(
        _ name: String?, movingTo target: String??
    ) throws(ItemManagerError) -> (list: String?, items: [ToDoItem]) {
        guard let held = lists().first(where: { ListName.same($0.name, name) }) else {
            throw .noSuchList(ListName.shown(name))
        }
        guard let target else { throw .listHoldsItems(ListName.shown(name), holding: held.open + held.done) }
        return try moveItems(ofList: name, to: target)
    }

    /// Gives every item of the list `name` the list `newName` (`nil`: the default list), spelled
    /// as a list the items have already unless it is the list itself spelled anew, and returns the
    /// list's name as the items had it, and the items. Refused when no item is in the list.
    public mutating func moveItems(
        ofList name: String?, to newName: String?
    ) throws(ItemManagerError) -> (list: String?, items: [ToDoItem]) {
        let items = (openStored + doneStored).filter { ListName.same($0.list, name) }
        guard let first = items.first else { throw .noSuchList(ListName.shown(name)) }
        // Spelled once for every item, not for each.
        let target = ListName.same(newName, name) ? newName : newName.map(listName(asTheItemsSpell:))
        var moved: [ToDoItem] = []
        for item in items {
            moved.append(try updateItem(withID: item.id) { $0.list = target })
        }
        return (first.list, moved)
    }
}
