import ToDoModel
import ToDoStorage

/// One step of a change as the list's journal keeps it (`ListJournal`): what the step left, so
/// that taking the steps forward in order on the list as it was gives the list as the change
/// left it, in the same order. (`ChangeStep` keeps what a step replaced, to take it back.)
enum JournalStep {
    /// The item was put at the place.
    case insert(StoredItem, at: ItemPlace)
    /// The item with this id was taken from the place.
    case remove(UUID, from: ItemPlace)
    /// The item at the place became this version of itself (same id).
    case replace(StoredItem, at: ItemPlace)
}

extension JournalStep: JSONStreamable {
    /// `{"insert":ITEM|"remove":"ID"|"replace":ITEM,"done":BOOL,"at":INDEX}`, each item in the
    /// list's own form, so that members todo does not know are kept.
    private struct Record: StepRecord {
        var inserted: StoredItem?, removed: UUID?, replaced: StoredItem?, place = ItemPlace.unread
        static let unread = Record()
        static let members: [JSONMember<Record>] =
            [
                .optional("insert", { $1(&$0.inserted) }, .of(StoredItem.self)),
                .optional("remove", { $1(&$0.removed) }, .id),
                .optional("replace", { $1(&$0.replaced) }, .of(StoredItem.self))
            ] + ItemPlace.members { $1(&$0.place) }

        consuming func step() -> JournalStep? {
            if let inserted { return .insert(inserted, at: place) }
            if let removed { return .remove(removed, from: place) }
            if let replaced { return .replace(replaced, at: place) }
            return nil
        }
    }

    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        self = try Record.scannedStep(&scanner, path: path)
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .insert(let item, let place): Record(inserted: item, place: place).write(to: &writer)
        case .remove(let id, let place): Record(removed: id, place: place).write(to: &writer)
        case .replace(let item, let place): Record(replaced: item, place: place).write(to: &writer)
        }
    }
}

extension ItemManager {
    /// The changes made since the manager was read, as steps forward: each step's item as the
    /// step left it, which is the item as the next step about it found it, or after its last step
    /// as `touched` (`changes.touchedItems`, what the history keeps) has it.
    func journalSteps(touched: [TouchedItem]) -> [JournalStep] {
        var nextBefore: [ToDoItem?] = Array(repeating: nil, count: steps.count)
        var laterStep: [UUID: Int] = [:]
        for index in steps.indices.reversed() {
            if let later = laterStep[steps[index].id] { nextBefore[index] = steps[later].itemBefore }
            laterStep[steps[index].id] = index
        }
        let final = Dictionary(touched.map { ($0.id, $0.item) }, uniquingKeysWith: { first, _ in first })
        func after(_ index: Int) -> StoredItem? {
            if let item = nextBefore[index] { return StoredItem(item) }
            return (final[steps[index].id] ?? nil).map(StoredItem.init)
        }
        return steps.indices.compactMap { index -> JournalStep? in
            switch steps[index] {
            case .removed(let item, let place): return .remove(item.id, from: place)
            case .inserted(_, let place): return after(index).map { .insert($0, at: place) }
            case .replaced(_, let place): return after(index).map { .replace($0, at: place) }
            }
        }
    }

    /// Takes the journal's `lines` forward in order, each as a change recorded its steps, each
    /// making its `nextNumber` the next number: the list as the journal leaves it. Nothing is
    /// recorded as a change. Refused, with the revision of the line and the reason, when a step
    /// does not fit the list (an item not where the step says, an id or a number twice): the
    /// journal then belongs to another list.
    mutating func replay(_ lines: [ListJournal.Line]) -> (revision: Int, reason: String)? {
        // The ids the lines put in, and the line that last did: checked against all the items
        // once, at the end, instead of making a set of 100,000 ids for a few.
        var inserted = IDSet(), insertedBy: [UUID: Int] = [:], numbers: [Int: Int] = [:]
        for line in lines {
            if let reason = replay(line.steps, nextNumber: line.nextNumber, noting: &inserted) {
                return (line.revision, reason)
            }
            for case .insert(let item, _) in line.steps {
                insertedBy[item.id] = line.revision
                numbers[item.number] = line.revision
            }
        }
        guard !insertedBy.isEmpty else { return nil }
        // An id or a number that an inserted item has, held twice: as the list's reader refuses.
        var seen = IDSet(), seenNumbers: Set<Int> = []
        var twice: (revision: Int, reason: String)?
        for items in [openStored, doneStored] {
            _ = items.indices(whereIDAndNumber: { id, number in
                guard twice == nil else { return false }
                if inserted.contains(id), !seen.insert(id) {
                    twice = (insertedBy[id] ?? 0, "two items have the id \(id.uuidString)")
                } else if let revision = numbers[number], !seenNumbers.insert(number).inserted {
                    twice = (revision, "two items have the number \(number)")
                }
                return false
            })
        }
        return twice
    }

    /// One line's `steps` taken forward, each id put in added to `inserted`.
    private mutating func replay(_ steps: [JournalStep], nextNumber next: Int, noting inserted: inout IDSet) -> String?
    {
        for step in steps {
            switch step {
            case .insert(let item, let place):
                guard item.done == place.done, place.index <= (place.done ? doneStored.count : openStored.count) else {
                    return "item \(item.id.uuidString) cannot be put at \(place.index)"
                }
                guard (1..<next).contains(item.number) else {
                    return "item \(item.id.uuidString) has the number \(item.number)"
                }
                if place.done {
                    doneStored.insert(item, at: place.index)
                } else {
                    openStored.insert(item, at: place.index)
                    openTitleKeys.insert(titleOf: item)
                }
                ids?.insert(item.id)
                inserted.insert(item.id)
                note(item)
            case .remove(let id, let place):
                guard isItem(id, at: place) else { return "no item \(id.uuidString) at \(place.index)" }
                if place.done { doneStored.remove(at: place.index) } else { openStored.remove(at: place.index) }
                ids?.remove(id)
            case .replace(let item, let place):
                guard item.done == place.done, isItem(item.id, at: place) else {
                    return "no item \(item.id.uuidString) at \(place.index)"
                }
                guard stored(at: place).number == item.number else {
                    return "item \(item.id.uuidString) changed its number"
                }
                if place.done {
                    doneStored[place.index] = item
                } else {
                    openStored[place.index] = item
                    openTitleKeys.insert(titleOf: item)
                }
                note(item)
            }
        }
        guard next >= nextNumber, next <= ToDoItem.largestNumber + 1 else { return "the next number \(next) is taken" }
        nextNumber = next
        return nil
    }
}
