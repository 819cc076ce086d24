import ToDoModel
import ToDoStorage

/// The to-do list: open items and done items, each in the order they arrived, as the book's
/// `ItemManager`, with the uniqueness rules enforced on every change.
///
/// A value type: a change made on a copy that then throws is simply dropped, which is what makes a
/// store transaction all-or-nothing.
public struct ItemManager: Sendable {
    /// Open items, in the order they were added (or unchecked), as the list keeps them.
    package internal(set) var openStored = StoredItemArray()
    /// Done items, in the order they were checked, as the list keeps them.
    package internal(set) var doneStored = StoredItemArray()
    /// The number the next added item gets; numbers are never reused.
    public internal(set) var nextNumber = 1
    /// Whether an item may have a start date: false only when none has, so that a list of
    /// thousands need not look at each for what it has not.
    public private(set) var mayHaveStartDates = false
    /// Whether an item may be a subtask: false only when none is.
    public private(set) var mayHaveSubtasks = false
    /// Gives the time to stamp on added and checked items; `nil` records no times.
    private let now: (@Sendable () -> Date)?
    /// Gives the id of each item the list makes itself (the done copy of a repeating item's
    /// occurrence, an item `add` makes): passed in, as the clock is; random unless set.
    public var newID: @Sendable () -> UUID = { UUID() }
    /// The zone the user's changes are made in, passed in as the clock is: a timed repeating item
    /// whose rule is given here is followed in it (`followRepeatZone`); `nil` sets no zone.
    public var localZone: TimeZoneRules?
    /// The ids of all items, so that `add` checks rule 1 without a scan; `nil` until made
    /// (`containsItem(withID:)`). Restoring a list makes it anyway, to refuse two items with one
    /// id, unless the list was read through its index, whose ids were checked when it was made.
    var ids: IDSet? = IDSet()
    /// Whether an id was looked up while `ids` was not made: the first look-up reads the ids
    /// through (a fraction of a millisecond at 100,000 items), the second makes the set (4 MB).
    private var idLookedUp = false
    /// The `TitleKey`s of the titles of open items. A title not here is no open item's, so the
    /// same-content check scans the open items only when one may share the title: adding a batch
    /// stays linear in the batch. Made as checks need them: checking or removing an item never does.
    var openTitleKeys = TitleKeySet()
    /// How many changes were made since the manager was created or restored; the store writes the
    /// file only when there were some.
    var changeCount = 0
    /// The changes made since the manager was created or restored, step by step, each holding what
    /// it replaced: the store keeps them in the history, and `revert` takes them back.
    public internal(set) var steps: [ChangeStep] = []

    /// An empty list. `now` is asked for the time when an item is added or checked.
    public init(now: (@Sendable () -> Date)? = nil) {
        self.now = now
    }

    /// A list restored from stored items in stored order: open and done items are separated,
    /// keeping their order. Items without a number (0) are numbered after all others, in order.
    /// Two items sharing an id or a number are refused, since a reference could not tell them apart.
    public init(
        storedItems: [ToDoItem], nextNumber: Int? = nil, now: (@Sendable () -> Date)? = nil
    ) throws(ItemManagerError) {
        var stored = StoredItems()
        for item in storedItems.map(StoredItem.init) {
            stored.note(item)
            stored.append(item)
        }
        try self.init(stored: stored, nextNumber: nextNumber, now: now)
    }

    /// A list restored from items already separated as they were read, which then need no copying.
    init(stored: StoredItems, nextNumber: Int?, now: (@Sendable () -> Date)?) throws(ItemManagerError) {
        self.now = now
        if let nextNumber, !(1...ToDoItem.largestNumber + 1).contains(nextNumber) {
            throw .numberOutOfRange(nextNumber)
        }
        openStored = stored.open
        doneStored = stored.done
        mayHaveStartDates = stored.anyStartDate
        mayHaveSubtasks = stored.anyParent
        if let keys = TitleKeySet(keysOfRecordsBehind: stored.open) { openTitleKeys = keys }
        if stored.idsAndNumbersChecked {
            // Read through an index (`ListIndex`), made only of a list restored here before: its ids
            // and numbers are unique, and all in range.
            ids = nil
            self.nextNumber = max(nextNumber ?? 1, stored.highestNumber + 1)
            return
        }
        var seenIDs = IDSet(minimumCapacity: openStored.count + doneStored.count)
        // Numbers run from 1 to about the count of items, unless many were removed.
        var seenNumbers = NumberSet(denseBelow: 8 * (openStored.count + doneStored.count) + 4096)
        var highestNumber = 0
        // Fields are read where the items are: iterating the arrays would copy every item (and
        // retain its text) only to look at its id and number. (Only the message of a clash looks
        // through the array.)
        for stored in [openStored, doneStored] {
            /// The first item that breaks a rule, found where the items are, then said through the array.
            enum Clash { case numberOutOfRange(Int), sameID(at: Int), sameNumber(Int, at: Int) }
            let clash = stored.withItemsInMemory { items -> Clash? in
                for index in items.indices {
                    let number = items[index].number
                    if number > ToDoItem.largestNumber { return .numberOutOfRange(number) }
                    if !seenIDs.insert(items[index].id) { return .sameID(at: index) }
                    if number > 0 {
                        if !seenNumbers.insert(number) { return .sameNumber(number, at: index) }
                        highestNumber = max(highestNumber, number)
                    }
                }
                return nil
            }
            switch clash {
            case nil: break
            case .numberOutOfRange(let number): throw .numberOutOfRange(number)
            case .sameID(let index):
                let item = stored[index]
                throw .duplicateID(existing: (stored.first { $0.id == item.id } ?? item).item)
            case .sameNumber(let number, let index):
                throw .duplicateNumber(existing: (stored.first { $0.number == number } ?? stored[index]).item)
            }
        }
        ids = seenIDs
        self.nextNumber = max(nextNumber ?? 1, highestNumber + 1)
        for position in stored.unnumbered {
            guard self.nextNumber <= ToDoItem.largestNumber else { throw .numberOutOfRange(self.nextNumber) }
            if position.isDone {
                doneStored[position.index].number = self.nextNumber
            } else {
                openStored[position.index].number = self.nextNumber
            }
            self.nextNumber += 1
        }
    }

    // MARK: The book's API

    public var toDoCount: Int { openStored.count }
    public var doneCount: Int { doneStored.count }

    /// The open item at `index`; `index` must be below `toDoCount`.
    public func item(at index: Int) -> ToDoItem { openStored[index].item }

    /// The done item at `index`; `index` must be below `doneCount`.
    public func doneItem(at index: Int) -> ToDoItem { doneStored[index].item }

    /// Open items, in the order they were added (or unchecked).
    public var toDoItems: [ToDoItem] { openStored.map(\.item) }

    /// Done items, in the order they were checked.
    public var doneItems: [ToDoItem] { doneStored.map(\.item) }

    /// Adds `item` to the end of the open items with the next number, and returns it as stored.
    /// Refused when the title is empty or not one line, when its place has no name, when an item
    /// has its id, or when an open item has the same content. Its repeat rule is read as `repeatGiven`
    /// says (`RepeatGiven`: a rule a person typed keeps the month's end).
    @discardableResult
    public mutating func add(
        _ item: ToDoItem, repeatGiven: RepeatGiven = .asWritten
    ) throws(ItemManagerError) -> ToDoItem {
        try Self.checkPlaceHasName(item.location)
        if let parent = item.parent { try checkParent(parent, of: item.id) }
        try Self.checkRepeat(of: item, before: nil)
        try Self.checkAlarms(of: item, before: nil)
        var open = item
        if let list = open.list { open.list = listName(asTheItemsSpell: list) }
        if open.done { open.done = false }
        if open.completedAt != nil { open.completedAt = nil }
        if !open.tags.isEmpty { open.tags = Tags.normalized(open.tags) }
        keepingMonthEnd(of: &open, repeatGiven)
        followRepeatZone(of: &open, before: nil, ruleGiven: true)
        return try insert(open)
    }

    /// Adds `item` with the next number under the rules of `add`, at the end of the open or the
    /// done items as its status says, keeping its status and times (an import's items). With
    /// `stampingTimes`, an item without a creation time is created now; an import leaves an unknown
    /// time unknown. Without `refusingTwins`, an open item with the content of another is let in
    /// (an item a sync brings: the calendar's data is not this list's to refuse).
    mutating func insert(
        _ item: ToDoItem, stampingTimes: Bool = true, refusingTwins: Bool = true
    ) throws(ItemManagerError) -> ToDoItem {
        try validate(item)
        if containsItem(withID: item.id), let existing = self.item(withID: item.id) {
            throw .duplicateID(existing: existing)
        }
        if !item.done, refusingTwins { try checkNoOpenItemHasContent(of: item, except: nil) }
        guard nextNumber <= ToDoItem.largestNumber else { throw .numberOutOfRange(nextNumber) }
        var added = item
        added.number = nextNumber
        if stampingTimes {
            added.createdAt = added.createdAt ?? currentTime()
            added.modifiedAt = added.modifiedAt ?? added.createdAt
        }
        nextNumber += 1
        changeCount += 1
        put(added, at: endPlace(done: added.done))
        return added
    }

    /// Moves the open item at `index` to the end of the done items.
    public mutating func checkItem(at index: Int) {
        changeCount += 1
        var item = openStored.remove(at: index).item
        steps.append(.removed(item, from: ItemPlace(done: false, index: index)))
        item.done = true
        // Done ends work in progress.
        if item.inProgress { item.inProgress = false }
        item.completedAt = currentTime()
        item.modifiedAt = item.completedAt
        steps.append(.inserted(item.id, at: ItemPlace(done: true, index: doneStored.count)))
        doneStored.append(StoredItem(item))
    }

    /// Moves the done item at `index` back to the end of the open items (the book's rule); refused
    /// when an open item has the same content.
    public mutating func uncheckItem(at index: Int) throws(ItemManagerError) {
        _ = try uncheckItem(at: index, keepingAddedOrder: false)
    }

    /// `uncheckItem(at:)`, putting the item at the end, or at its place in the order the open
    /// items were added (by number: before the first one added after it); returns where it went.
    private mutating func uncheckItem(at index: Int, keepingAddedOrder: Bool) throws(ItemManagerError) -> Int {
        let done = doneStored[index].item
        try checkNoOpenItemHasContent(of: done, except: nil)
        changeCount += 1
        doneStored.remove(at: index)
        var item = done
        steps.append(.removed(item, from: ItemPlace(done: true, index: index)))
        item.done = false
        item.completedAt = nil
        item.modifiedAt = currentTime()
        let place =
            keepingAddedOrder
            ? openStored.firstIndex(whereNumber: { $0 > item.number }) ?? openStored.count : openStored.count
        steps.append(.inserted(item.id, at: ItemPlace(done: false, index: place)))
        let stored = StoredItem(item)
        openStored.insert(stored, at: place)
        openTitleKeys.insert(titleOf: stored)
        return place
    }

    /// Removes every item. Numbers already given are still never reused.
    public mutating func removeAll() {
        // Removing nothing changes nothing: no file is written, no history recorded.
        guard !openStored.isEmpty || !doneStored.isEmpty else { return }
        changeCount += 1
        recordRemovingAll(done: false)
        recordRemovingAll(done: true)
        openStored.removeAll()
        doneStored.removeAll()
        ids = IDSet()
        openTitleKeys = .empty
    }

    // MARK: Changes by id

    /// Checks the item with `id` and returns it; an item already done stays as it is.
    @discardableResult
    public mutating func checkItem(withID id: UUID) throws(ItemManagerError) -> ToDoItem {
        let place = try place(ofID: id)
        guard !place.done else { return doneStored[place.index].item }
        checkItem(at: place.index)
        return doneStored[doneStored.count - 1].item
    }

    /// Unchecks the item with `id`, back at its place in the order the open items were added, and
    /// returns it; an open item stays as it is.
    @discardableResult
    public mutating func uncheckItem(withID id: UUID) throws(ItemManagerError) -> ToDoItem {
        let place = try place(ofID: id)
        guard place.done else { return openStored[place.index].item }
        return openStored[try uncheckItem(at: place.index, keepingAddedOrder: true)].item
    }

    /// Deletes the item with `id` and returns it.
    @discardableResult
    public mutating func removeItem(withID id: UUID) throws(ItemManagerError) -> ToDoItem {
        let place = try place(ofID: id)
        changeCount += 1
        return remove(at: place)
    }

    /// Takes the item at `place` out of the list and records the step.
    mutating func remove(at place: ItemPlace) -> ToDoItem {
        let removed = (place.done ? doneStored.remove(at: place.index) : openStored.remove(at: place.index)).item
        ids?.remove(removed.id)
        steps.append(.removed(removed, from: place))
        return removed
    }

    /// Deletes every done item and returns them.
    @discardableResult
    public mutating func removeDoneItems() -> [ToDoItem] {
        guard !doneStored.isEmpty else { return [] }
        let removed = doneItems
        changeCount += 1
        recordRemovingAll(done: true)
        doneStored.removeAll()
        for item in removed { ids?.remove(item.id) }
        return removed
    }

    /// Changes the title, description, due date or location of the item with `id` in place, and
    /// returns it. Refused under the same rules as `add`, an open item being compared with the other
    /// open items.
    @discardableResult
    public mutating func updateItem(
        withID id: UUID, _ edit: (inout ToDoItem) -> Void
    ) throws(ItemManagerError) -> ToDoItem {
        let place = try place(ofID: id)
        let old = item(at: place)
        var item = old
        edit(&item)
        try validate(item)
        try Self.checkRepeat(of: item, before: old)
        try Self.checkAlarms(of: item, before: old)
        item.modifiedAt = currentTime() ?? item.modifiedAt
        note(item)
        if !place.done { try checkNoOpenItemHasContent(of: item, except: id) }
        changeCount += 1
        replace(old, at: place, with: item)
        return item
    }

    /// Inserts `item` at `place`, or at the end when the list has grown shorter, and records the step.
    mutating func put(_ item: ToDoItem, at place: ItemPlace) {
        let index = min(place.index, item.done ? doneStored.count : openStored.count)
        let stored = StoredItem(item)
        if item.done {
            doneStored.insert(stored, at: index)
        } else {
            openStored.insert(stored, at: index)
            openTitleKeys.insert(titleOf: stored)
        }
        ids?.insert(item.id)
        note(item)
        // One put back past the next number (an undo of a change the list lost with its journal).
        keepNumberTaken(item.number)
        steps.append(.inserted(item.id, at: ItemPlace(done: item.done, index: index)))
    }

    /// Moves the next number past `number` when it is not already: a number is never given twice.
    mutating func keepNumberTaken(_ number: Int) {
        if number >= nextNumber { nextNumber = min(number + 1, ToDoItem.largestNumber + 1) }
    }

    /// Keeps every number `entries` gave an item, before or after them, from being given again:
    /// changes the list lost with its journal, which the history keeps.
    mutating func keepNumbersTaken(by entries: some Sequence<HistoryEntry>) {
        for entry in entries {
            for item in entry.steps.compactMap(\.itemBefore) + entry.results.compactMap(\.item) {
                keepNumberTaken(item.number)
            }
        }
    }

    /// Whether an item has `id`: through `ids`, made here on the second look-up.
    mutating func containsItem(withID id: UUID) -> Bool {
        if ids == nil, idLookedUp { ids = Self.idSet(of: [openStored, doneStored]) }
        if let ids { return ids.contains(id) }
        idLookedUp = true
        return openStored.firstIndex(ofID: id) != nil || doneStored.firstIndex(ofID: id) != nil
    }

    /// The ids of `lists`' items, as a set.
    static func idSet(of lists: [StoredItemArray]) -> IDSet {
        var ids = IDSet(minimumCapacity: lists.reduce(0) { $0 + $1.count })
        for items in lists { items.forEachID { ids.insert($0) } }
        return ids
    }

    /// The place after the last open or done item.
    func endPlace(done: Bool) -> ItemPlace {
        ItemPlace(done: done, index: done ? doneStored.count : openStored.count)
    }

    /// Puts `item` where `old` is, at `place` (both open or both done), and records the step.
    mutating func replace(_ old: ToDoItem, at place: ItemPlace, with item: ToDoItem) {
        steps.append(.replaced(old, at: place))
        let stored = StoredItem(item)
        if place.done {
            doneStored[place.index] = stored
        } else {
            openTitleKeys.insert(titleOf: stored)
            openStored[place.index] = stored
        }
    }

    /// Records the removal of every open or done item, as if taken from the end one at a time, so
    /// that taking the steps back puts each at its index again.
    private mutating func recordRemovingAll(done: Bool) {
        let items = done ? doneStored : openStored
        steps.reserveCapacity(steps.count + items.count)
        for index in items.indices.reversed() {
            steps.append(.removed(items[index].item, from: ItemPlace(done: done, index: index)))
        }
    }

    // MARK: Rules

    func validate(_ item: ToDoItem) throws(ItemManagerError) {
        if item.title.unicodeScalars.allSatisfy(Whitespace.isSpaceOrNewline) { throw .emptyTitle }
        if item.title.contains(where: \.isNewline) { throw .multilineTitle(item.title) }
        if let coordinate = item.location?.coordinate, !coordinate.isValid { throw .invalidCoordinate(coordinate) }
        // A day is within the years 1 to 9999 by how it is made (`Day`).
        if let time = item.due?.time, !ToDoItem.timestampRange.contains(time) { throw .invalidDueDate(time) }
        if let time = item.start?.time, !ToDoItem.timestampRange.contains(time) { throw .invalidDueDate(time) }
        if let priority = item.priority, !ToDoItem.priorityRange.contains(priority) { throw .invalidPriority(priority) }
        if let percent = item.percentComplete, !ToDoItem.percentRange.contains(percent) {
            throw .invalidPercent(percent)
        }
        // A link or another text field is one line: a line break would end a calendar's property early.
        for field in ItemField.texts {
            if let text = item[text: field], !ItemField.isOneLine(text) {
                throw .controlCharacters(field, text)
            }
        }
        if let note = item.annotations.first(where: { !ItemField.isOneLine($0.text) }) {
            throw .controlCharacters(.annotations, note.text)
        }
        if let tag = item.tags.first(where: { !Tags.isValid($0) }) { throw .invalidTag(tag) }
    }

    /// Notes the fields of an item that enters the list or changes, for `mayHaveStartDates` and
    /// `mayHaveSubtasks`: every way in (add, import, edit, an undo putting an item back) passes here.
    mutating func note(_ item: ToDoItem) {
        if item.start != nil { mayHaveStartDates = true }
        if item.parent != nil { mayHaveSubtasks = true }
    }

    /// Notes the same of an item as the list keeps it, without decoding it.
    mutating func note(_ item: StoredItem) {
        if item.start != nil { mayHaveStartDates = true }
        if item.parent != nil { mayHaveSubtasks = true }
    }

    /// A parent must be an item of the list, and not the item itself or one of its subtasks.
    func checkParent(_ parent: UUID, of id: UUID) throws(ItemManagerError) {
        guard let given = item(withID: parent) else { throw .noSuchItem(.id(parent)) }
        var ancestor = given
        // Up the chain of parents: at most one step per item, so even a file edited into a loop ends.
        for _ in 0...(openStored.count + doneStored.count) {
            if ancestor.id == id { throw .parentCycle(parent: given) }
            guard let next = ancestor.parent.flatMap(item(withID:)) else { return }
            ancestor = next
        }
    }

    /// Makes the items with `ids` subtasks of the item with `parent` (Taskwarrior's `depends:`):
    /// refused when one is already another item's subtask, which it would silently leave.
    public mutating func makeSubtasks(withIDs ids: [UUID], of parent: UUID) throws(ItemManagerError) {
        for id in ids {
            guard let subtask = item(withID: id) else { throw .noSuchItem(.id(id)) }
            if let current = subtask.parent, current != parent, let holder = item(withID: current) {
                throw .subtaskOfAnother(subtask: subtask, parent: holder)
            }
        }
        for id in ids { _ = try edit(itemWithID: id, ItemEdit(parent: .set(parent))) }
    }

    /// The open subtasks, at any depth, of the items with `ids` that are not among them: what
    /// checking or removing those items would leave behind.
    public func openSubtasksLeftBehind(by ids: Set<UUID>) -> (parent: ToDoItem, subtasks: [ToDoItem])? {
        // A subtask at any depth is below a direct subtask, open or done: most checks find none in
        // one pass.
        guard mayHaveSubtasks,
            [openStored, doneStored].contains(where: { !$0.indices(whereParent: ids.contains).isEmpty })
        else { return nil }
        for id in ids {
            let below = descendants(of: id)
            let left = openStored.indices(whereIDAndNumber: { id, _ in below.contains(id) && !ids.contains(id) }).map {
                openStored[$0].item
            }
            if !left.isEmpty, let parent = item(withID: id) { return (parent, left) }
        }
        return nil
    }

    /// The direct subtasks of the item with `id`, open ones first, each part in list order.
    public func subtasks(of id: UUID) -> [ToDoItem] {
        guard mayHaveSubtasks else { return [] }
        return [openStored, doneStored].flatMap { items in
            items.indices(whereParent: { $0 == id }).map { items[$0].item }
        }
    }

    /// The ids of the subtasks of the item with `id`, at any depth: one pass to find each item's
    /// subtasks, then down from `id`.
    public func descendants(of id: UUID) -> Set<UUID> {
        guard mayHaveSubtasks else { return [] }
        var children: [UUID: [UUID]] = [:]
        for items in [openStored, doneStored] {
            let (ids, parents) = items.idsAndParents()
            for index in ids.indices {
                if let parent = parents[index] { children[parent, default: []].append(ids[index]) }
            }
        }
        var found = Set<UUID>(), waiting = children[id] ?? []
        while let next = waiting.popLast() {
            // A loop of parents (a file edited so) is walked once.
            guard found.insert(next).inserted else { continue }
            waiting += children[next] ?? []
        }
        return found
    }

    /// Which items go where, and how deep (`treeOrder(of:among:)`): each subtask right after its
    /// parent.
    package struct TreeOrder {
        /// The position in `items` of the item that goes at each place; `nil` when every item
        /// stays where it is.
        package var positions: [Int]?
        /// How many levels deep the item at each place is: 0 at the top, 1 for a subtask; `nil`
        /// when every item is at the top.
        package var depths: [Int]?

        package init(positions: [Int]?, depths: [Int]?) {
            self.positions = positions
            self.depths = depths
        }
    }

    /// `items` (or those at `positions`, in that order) with each subtask right after its parent
    /// when the parent is among them (siblings in the order given), and how many levels deep each
    /// is; an item whose parent is not among them stands at the top. Positions, not the items
    /// moved: a list of thousands would be copied item by item.
    package static func treeOrder(of items: [StoredItem], among positions: [Int]? = nil) -> TreeOrder {
        // The ids and parents read once; only the ids of parents (a few items) go in a dictionary,
        // the others are told apart by an `IDSet`.
        let (allIDs, allParents) = StoredItemArray(items).idsAndParents()
        let (ids, parents) =
            positions.map { positions in (positions.map { allIDs[$0] }, positions.map { allParents[$0] }) } ?? (
                allIDs, allParents
            )
        let count = ids.count
        var parentIDs = IDSet()
        for parent in parents { if let parent { parentIDs.insert(parent) } }
        guard parentIDs.count > 0 else { return TreeOrder(positions: positions, depths: nil) }
        var indexOfParent: [UUID: Int] = [:]
        indexOfParent.reserveCapacity(parentIDs.count)
        for index in ids.indices where parentIDs.contains(ids[index]) { indexOfParent[ids[index]] = index }
        // Each item's subtasks, in order, in one array (those of item `i` at
        // `children[childStart[i]..<childStart[i + 1]]`): an array for each of thousands of items
        // cost more than placing them.
        var parentIndex = [Int](repeating: -1, count: count), childStart = [Int](repeating: 0, count: count + 1)
        var roots: [Int] = []
        roots.reserveCapacity(count)
        for index in ids.indices {
            if let parent = parents[index].flatMap({ indexOfParent[$0] }), parent != index {
                parentIndex[index] = parent
                childStart[parent + 1] += 1
            } else {
                roots.append(index)
            }
        }
        for index in ids.indices { childStart[index + 1] += childStart[index] }
        var children = [Int](repeating: 0, count: childStart[count]), filled = childStart
        for index in ids.indices where parentIndex[index] >= 0 {
            children[filled[parentIndex[index]]] = index
            filled[parentIndex[index]] += 1
        }
        var order: [Int] = [], depths: [Int] = [], placed = [Bool](repeating: false, count: count)
        order.reserveCapacity(count)
        depths.reserveCapacity(count)
        // Depth first with a stack of its own, not recursion: a chain of subtasks as deep as
        // the list is long (an import can hold one) must not run out of the thread's stack.
        var pending: [(index: Int, depth: Int)] = []
        func place(_ top: Int, depth: Int) {
            // Most items have no subtasks: placed at once.
            if childStart[top] == childStart[top + 1], !placed[top] {
                placed[top] = true
                order.append(top)
                depths.append(depth)
                return
            }
            pending.append((top, depth))
            while let (index, depth) = pending.popLast() {
                guard !placed[index] else { continue }
                placed[index] = true
                order.append(index)
                depths.append(depth)
                for child in children[childStart[index]..<childStart[index + 1]].reversed() {
                    pending.append((child, depth + 1))
                }
            }
        }
        for root in roots { place(root, depth: 0) }
        // Items in a loop of parents (a file edited so) have no root: at the top, as they come.
        for index in ids.indices where !placed[index] { place(index, depth: 0) }
        if let positions { return TreeOrder(positions: order.map { positions[$0] }, depths: depths) }
        // Subtasks that already follow their parents (as they are added) leave the items as they are.
        let reordered = order.indices.contains { order[$0] != $0 }
        return TreeOrder(positions: reordered ? order : nil, depths: depths)
    }

    /// A repeat rule given or changed must be one todo reads, and a repeating item needs a due
    /// date; an item read from a file or an import may hold either without (another program's).
    static func checkRepeat(of item: ToDoItem, before old: ToDoItem?) throws(ItemManagerError) {
        guard let text = item.repeatRule else { return }
        if text != old?.repeatRule {
            do { _ = try RepeatRule(text) } catch { throw .invalidRepeatRule(error) }
        }
        if item.due == nil, old == nil || old?.due != nil || old?.repeatRule != text { throw .repeatWithoutDue(item) }
    }

    /// A reminder counted from the due needs a due, and one counted from the start a start or a
    /// due: refused where the reminders or those dates change, though a file may hold one without.
    static func checkAlarms(of item: ToDoItem, before old: ToDoItem?) throws(ItemManagerError) {
        guard !item.alarms.isEmpty,
            old.map({ $0.alarms != item.alarms || $0.due != item.due || $0.start != item.start }) ?? true
        else { return }
        for alarm in item.alarms {
            switch alarm.trigger {
            case .beforeDue where item.due == nil, .beforeStart where item.due == nil && item.start == nil:
                throw .reminderWithoutDue(item)
            default: continue
            }
        }
    }

    /// A place needs a name (a list shows it): refused for what is added or edited, though a file
    /// or an import may hold one without.
    static func checkPlaceHasName(_ location: Location?) throws(ItemManagerError) {
        if let name = location?.name, name.unicodeScalars.allSatisfy(Whitespace.isSpaceOrNewline) {
            throw .emptyLocationName
        }
    }

    mutating func checkNoOpenItemHasContent(of item: ToDoItem, except excludedID: UUID?) throws(ItemManagerError) {
        guard openTitleKeys.mayContain(titleOf: StoredItem(item), among: openStored) else { return }
        if let existing = openStored.first(where: { $0.id != excludedID && $0.hasSameContent(as: item) }) {
            throw .duplicateContent(existing: existing.item)
        }
    }

    /// The time to stamp, in whole seconds: finer is noise in a file meant to be read and diffed.
    func currentTime() -> Double? {
        now.map { $0().timeIntervalSince1970.rounded(.down) }
    }
}

// MARK: - Look-up

extension ItemManager {
    /// Every item: open items first, then done items, each in list order.
    public var allItems: [ToDoItem] { toDoItems + doneItems }

    /// The item with `number`, open or done.
    public func item(withNumber number: Int) -> ToDoItem? {
        if let index = openStored.firstIndex(ofNumber: number) { return openStored[index].item }
        return doneStored.firstIndex(ofNumber: number).map { doneStored[$0].item }
    }

    /// The item with `id`, open or done.
    public func item(withID id: UUID) -> ToDoItem? {
        if let index = openStored.firstIndex(ofID: id) { return openStored[index].item }
        return doneStored.firstIndex(ofID: id).map { doneStored[$0].item }
    }

    /// The one item that `reference` names; throws when none does, or when an id prefix fits several.
    public func resolve(_ reference: ItemReference) throws(ItemManagerError) -> ToDoItem {
        switch reference {
        case .number(let number):
            if let item = item(withNumber: number) { return item }
        case .id(let id):
            if let item = item(withID: id) { return item }
        case .idPrefix(let prefix):
            let prefix = prefix.uppercased()
            let matches = (openStored + doneStored).filter { $0.id.uuidString.hasPrefix(prefix) }.map(\.item)
            if matches.count > 1 { throw .ambiguousReference(reference, matches: matches) }
            if let item = matches.first { return item }
        }
        throw .noSuchItem(reference)
    }

    /// The items that `references` name, in the same order, each named once; throws on the first
    /// reference that names none or several, before anything is changed.
    public func resolve(_ references: [ItemReference]) throws(ItemManagerError) -> [ToDoItem] {
        var items: [ToDoItem] = []
        var seen = Set<UUID>()
        for reference in references {
            let item = try resolve(reference)
            if seen.insert(item.id).inserted { items.append(item) }
        }
        return items
    }

    /// The item at `place`, which must be in the list.
    func item(at place: ItemPlace) -> ToDoItem {
        stored(at: place).item
    }

    /// The item at `place` as the list keeps it, which must be in the list.
    func stored(at place: ItemPlace) -> StoredItem {
        place.done ? doneStored[place.index] : openStored[place.index]
    }

    /// Whether the item with `id` is at `place`.
    func isItem(_ id: UUID, at place: ItemPlace) -> Bool {
        let items = place.done ? doneStored : openStored
        return items.indices.contains(place.index) && items.id(at: place.index) == id
    }

    /// Where the item with `id` is.
    func place(ofID id: UUID) throws(ItemManagerError) -> ItemPlace {
        if let index = openStored.firstIndex(ofID: id) { return ItemPlace(done: false, index: index) }
        if let index = doneStored.firstIndex(ofID: id) { return ItemPlace(done: true, index: index) }
        throw .noSuchItem(.id(id))
    }
}
