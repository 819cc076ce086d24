import ToDoModel
import ToDoStorage

/// What applying a sync's changes did to the list.
public struct SyncApplied: Sendable {
    public var added: [ToDoItem] = []
    public var updated: [ToDoItem] = []
    /// Of `updated`, the ids of those the server's version checked (a phone's completion) or
    /// opened again.
    public var checked: Set<UUID> = []
    public var unchecked: Set<UUID> = []
    public var removed: [ToDoItem] = []
    /// Items that arrived open with the content of an open item here: let in, and said.
    public var twins: [(arrived: ToDoItem, existing: ToDoItem)] = []
    /// Items from the server that break a rule of the list (a title of several lines), left out.
    public var refused: [(item: ToDoItem, reason: ItemManagerError)] = []

    public init() {}

    /// Adds what `other` applied.
    mutating func append(_ other: SyncApplied) {
        added += other.added
        updated += other.updated
        checked.formUnion(other.checked)
        unchecked.formUnion(other.unchecked)
        removed += other.removed
        twins += other.twins
        refused += other.refused
    }
}

extension ItemManager {
    /// Applies a sync's changes to the list (`SyncPlan.local`): items that arrived are added with
    /// the next numbers, keeping their times, and never refused for having the content of an
    /// open item (they are said as twins); items changed on the server take its version in place,
    /// keeping their number, moving between open and done as their status says; items deleted
    /// there are removed. Times are the items' own, not now: the change is the server's.
    public mutating func applySync(_ changes: [SyncPlan.LocalChange]) -> SyncApplied {
        var applied = SyncApplied()
        for change in changes {
            switch change {
            case .add(let item):
                let twin = item.done ? nil : openStored.first { $0.hasSameContent(as: item) }?.item
                do {
                    let added = try insert(item, stampingTimes: false, refusingTwins: false)
                    applied.added.append(added)
                    if let twin { applied.twins.append((added, twin)) }
                } catch {
                    applied.refused.append((item, error))
                }
            case .update(let item):
                guard let place = try? place(ofID: item.id) else { continue }
                do { try validate(item) } catch {
                    applied.refused.append((item, error))
                    continue
                }
                let old = self.item(at: place)
                var new = item
                new.number = old.number
                changeCount += 1
                if old.done == new.done {
                    note(new)
                    replace(old, at: place, with: new)
                } else {
                    _ = remove(at: place)
                    put(new, at: endPlace(done: new.done))
                    if new.done { applied.checked.insert(new.id) } else { applied.unchecked.insert(new.id) }
                }
                applied.updated.append(new)
            case .remove(let item):
                guard let place = try? place(ofID: item.id) else { continue }
                changeCount += 1
                applied.removed.append(remove(at: place))
            }
        }
        return applied
    }
}
