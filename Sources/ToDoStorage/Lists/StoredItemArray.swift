import ToDoModel

/// The open or the done items of a list, in order: an array of `StoredItem`s, or, for a list
/// read through its index (`ListIndex`), the index's records, each item made from its record when
/// asked for, with the few changes a command makes kept beside them. A change to one item of
/// 100,000 then neither makes nor frees 100,000 items (11 MB), and looking an item up by number,
/// id or parent reads the records alone. Any other change (an insert before the end, many
/// removals, a reordering) makes the array first, as reading a list without an index does.
package struct StoredItemArray: Sendable {
    /// The records the first items come from; `nil` once the array is made (or for a list read
    /// without an index).
    private var indexed: UnsafeIndexedItems?
    /// The records taken out, as positions among all of `indexed`'s, in order.
    private var removed: [Int] = []
    /// The records' items replaced, by position among all of `indexed`'s, in order.
    private var replaced: [(record: Int, item: StoredItem)] = []
    /// The items after the records' (all the items once the array is made).
    private var items: [StoredItem]

    /// How many records may be taken out or replaced before the array is made: finding a
    /// record's item passes each of them.
    private static let changesKept = 16

    package init() {
        items = []
    }

    package init(_ items: [StoredItem]) {
        self.items = items
    }

    /// The items of `indexed`, made when asked for.
    init(_ indexed: UnsafeIndexedItems) {
        self.indexed = indexed
        items = []
    }

    /// The records the items come from, when they are all the records' items unchanged.
    var unchangedRecords: UnsafeIndexedItems? {
        removed.isEmpty && replaced.isEmpty && items.isEmpty ? indexed : nil
    }

    /// The items in a plain array: made from the records when they back them (as long as reading
    /// the list without its index takes), else the array itself, with no copy.
    package var array: [StoredItem] {
        guard let indexed else { return items }
        // Every record read: the index's pages need not count while the items are used.
        defer { indexed.releasePages() }
        // Made in place: appending would copy each item (and count a reference to its text).
        return [StoredItem](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = buffer.baseAddress
            // A long list's records in two halves at once, each with holders of its own
            // (`StoredText.Holders`), into the buffer's two parts; then the items added after.
            _ = BackgroundWork.inTwoHalves(indexed.count, minimumCount: Parallelism.itemsInTwoHalvesMinimumCount) {
                records in
                var holders = indexed.holders
                _ = scan(records: records, of: indexed) { indexed, position, record in
                    (base! + position).initialize(to: indexed.item(at: record, in: holders.next()))
                    return true
                } item: { position, item in
                    (base! + position).initialize(to: item.pointee)
                    return true
                }
            }
            let first = recordCount
            items.withUnsafeBufferPointer { items in
                for index in items.indices { (base! + first + index).initialize(to: items[index]) }
            }
            initialized = count
        }
    }

    /// Makes the array from the records, for a change the records cannot keep beside them.
    private mutating func makeArray() {
        guard indexed != nil else { return }
        items = array
        indexed = nil
        removed = []
        replaced = []
    }

    /// How many of the first items come from the records.
    private var recordCount: Int { (indexed?.count ?? 0) - removed.count }

    /// The position among all the records of the item at `position` (below `recordCount`).
    private func recordPosition(_ position: Int) -> Int {
        var recordPosition = position
        for taken in removed {
            guard taken <= recordPosition else { break }
            recordPosition += 1
        }
        return recordPosition
    }

    /// Calls `record` with the records, the position of each item a record gives as it is, and
    /// where the record is, and `item` with the position of each other item and where it is (valid
    /// for the call alone), in order, until one returns false. Inlined where it is called, so that
    /// the closures are too: a list of thousands is scanned this way for each look-up. The records
    /// are handed to `record` unwrapped once: a closure that unwrapped them for each record would
    /// copy them, counting references, at every step. An item is handed as where it is, not as a
    /// value: one handed as a (borrowed) value was copied for each call, its references counted
    /// (Benchmarks/README.md, "Why the code is as it is").
    @inline(__always)
    private func scan(record: (UnsafeIndexedItems, Int, Int) -> Bool, item: (Int, UnsafePointer<StoredItem>) -> Bool) {
        guard let indexed else {
            // The array alone, through its buffer: iterating it would copy (and retain) every item.
            return items.withUnsafeBufferPointer { items in
                for index in items.indices { guard item(index, items.baseAddress! + index) else { return } }
            }
        }
        guard scan(records: 0..<indexed.count, of: indexed, record: record, item: item) else { return }
        let position = recordCount
        // Through the buffer: iterating the array would copy (and retain) every item.
        items.withUnsafeBufferPointer { items in
            for index in items.indices { guard item(position + index, items.baseAddress! + index) else { return } }
        }
    }

    /// `scan` of the records in `records` (positions among all of `indexed`'s) alone: the items
    /// that replace some of them, none of those taken out, none added after. False when stopped.
    @inline(__always)
    private func scan(
        records: Range<Int>, of indexed: UnsafeIndexedItems, record: (UnsafeIndexedItems, Int, Int) -> Bool,
        item: (Int, UnsafePointer<StoredItem>) -> Bool
    ) -> Bool {
        // The changes before the first record, passed.
        var nextRemoved = removed.firstIndex { $0 >= records.lowerBound } ?? removed.count
        var nextReplaced = replaced.firstIndex { $0.record >= records.lowerBound } ?? replaced.count
        var position = records.lowerBound - nextRemoved
        for index in records {
            if nextRemoved < removed.count, removed[nextRemoved] == index {
                nextRemoved += 1
                continue
            }
            if nextReplaced < replaced.count, replaced[nextReplaced].record == index {
                guard withUnsafePointer(to: replaced[nextReplaced].item, { item(position, $0) }) else { return false }
                nextReplaced += 1
            } else {
                guard record(indexed, position, index) else { return false }
            }
            position += 1
        }
        return true
    }

    // MARK: Reading the records alone

    /// The id of the item at `position`.
    package func id(at position: Int) -> UUID {
        guard let indexed, position < recordCount else { return items[position - recordCount].id }
        let record = recordPosition(position)
        return replaced.first { $0.record == record }?.item.id ?? indexed.id(at: record)
    }

    /// The position of the first item with `number`.
    package func firstIndex(ofNumber number: Int) -> Int? {
        firstIndex { $0 == number }
    }

    /// The position of the first item whose number `matches`.
    package func firstIndex(whereNumber matches: (Int) -> Bool) -> Int? {
        firstIndex { indexed, record in
            matches(indexed.number(at: record))
        } where: {
            matches($0.pointee.number)
        }
    }

    /// The positions of the items whose id and number `match`, read from the records where they
    /// back the items: finding a few items among 100,000 makes only those.
    package func indices(whereIDAndNumber match: (UUID, Int) -> Bool) -> [Int] {
        var found: [Int] = []
        scan { indexed, position, record in
            if match(indexed.id(at: record), indexed.number(at: record)) { found.append(position) }
            return true
        } item: { position, item in
            if match(item.pointee.id, item.pointee.number) { found.append(position) }
            return true
        }
        return found
    }

    /// The position of the first item with `id`.
    package func firstIndex(ofID id: UUID) -> Int? {
        firstIndex { indexed, record in
            indexed.id(at: record) == id
        } where: {
            $0.pointee.id == id
        }
    }

    /// The position of the first item whose record (when a record gives it as it is) or whose
    /// item matches.
    private func firstIndex(
        whereRecord recordMatches: (UnsafeIndexedItems, Int) -> Bool,
        where itemMatches: (UnsafePointer<StoredItem>) -> Bool
    ) -> Int? {
        var found: Int?
        scan { indexed, position, record in
            guard recordMatches(indexed, record) else { return true }
            found = position
            return false
        } item: { position, item in
            guard itemMatches(item) else { return true }
            found = position
            return false
        }
        return found
    }

    /// The id and the parent of each item, in one pass through their memory (or records): a list
    /// puts thousands in tree order, and reading each through the array would copy it.
    package func idsAndParents() -> (ids: [UUID], parents: [UUID?]) {
        var ids: [UUID] = [], parents: [UUID?] = []
        ids.reserveCapacity(count)
        parents.reserveCapacity(count)
        forEachIDAndParent { _, id, parent in
            ids.append(id)
            parents.append(parent)
        }
        return (ids, parents)
    }

    /// The positions of the subtasks whose parent `matches`, read from the records (which say
    /// whether an item has a parent before its id is read) where they back the items.
    package func indices(whereParent matches: (UUID) -> Bool) -> [Int] {
        var found: [Int] = []
        scan { indexed, position, record in
            if let parent = indexed.parent(at: record), matches(parent) { found.append(position) }
            return true
        } item: { position, item in
            if let parent = item.pointee.parent, matches(parent) { found.append(position) }
            return true
        }
        return found
    }

    /// Calls `body` with each item's id, in order.
    package func forEachID(_ body: (UUID) -> Void) {
        scan { indexed, _, record in
            body(indexed.id(at: record))
            return true
        } item: { _, item in
            body(item.pointee.id)
            return true
        }
    }

    /// Calls `body` with each item's position, id and parent, in order.
    private func forEachIDAndParent(_ body: (Int, UUID, UUID?) -> Void) {
        scan { indexed, position, record in
            body(position, indexed.id(at: record), indexed.parent(at: record))
            return true
        } item: { position, item in
            body(position, item.pointee.id, item.pointee.parent)
            return true
        }
    }

    /// The positions of the items without an ASCII `TitleKey`, read from the records where they can be.
    package func indicesWithoutASCIITitleKey() -> [Int] {
        var found: [Int] = []
        scan { indexed, position, record in
            if indexed.asciiTitleKey(at: record) == nil { found.append(position) }
            return true
        } item: { position, item in
            if item.pointee.asciiTitleKey == nil { found.append(position) }
            return true
        }
        return found
    }

    /// Calls `body` with the items laid out one after the other in memory: the array's own, or,
    /// where records back them, an array made for the call. Reading an item there copies nothing.
    package func withItemsInMemory<Result, Failure: Error>(
        _ body: (Span<StoredItem>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let items = indexed == nil ? items : array
        return try body(items.span)
    }

    /// As `withItemsInMemory`, through a buffer that may be handed to other threads while `body` runs.
    func withItemsInBuffer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<StoredItem>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let items = indexed == nil ? items : array
        return try items.withUnsafeBufferPointer { buffer throws(Failure) in try body(buffer) }
    }

    /// Reads each item's dates as `form` says (`StoredItem.inCurrentForm`); returns how many
    /// dues became whole days.
    package mutating func bringToCurrentForm(_ form: ItemForm, local: CivilTime) -> Int {
        makeArray()
        return items.bringToCurrentForm(form, local: local)
    }
}

extension StoredItemArray: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { recordCount + items.count }

    package subscript(position: Int) -> StoredItem {
        get {
            guard let indexed, position < recordCount else { return items[position - recordCount] }
            let record = recordPosition(position)
            return replaced.first { $0.record == record }?.item ?? indexed.item(at: record)
        }
        set {
            guard indexed != nil, position < recordCount else { return items[position - recordCount] = newValue }
            let record = recordPosition(position)
            if let index = replaced.firstIndex(where: { $0.record >= record }), replaced[index].record == record {
                replaced[index].item = newValue
            } else if removed.count + replaced.count < Self.changesKept {
                replaced.insert((record, newValue), at: replaced.firstIndex { $0.record > record } ?? replaced.endIndex)
            } else {
                makeArray()
                items[position] = newValue
            }
        }
    }

    package mutating func replaceSubrange<Replacement: Collection<StoredItem>>(
        _ subrange: Range<Int>, with replacement: Replacement
    ) {
        if indexed != nil {
            if subrange.lowerBound >= recordCount {
                // Within the items after the records: an append, or a change to one added since.
                let offset = recordCount
                items.replaceSubrange(subrange.lowerBound - offset..<subrange.upperBound - offset, with: replacement)
                return
            }
            if subrange == 0..<count, replacement.isEmpty {
                self = StoredItemArray()
                return
            }
            if subrange.count == 1, replacement.isEmpty, removed.count + replaced.count < Self.changesKept {
                let record = recordPosition(subrange.lowerBound)
                replaced.removeAll { $0.record == record }
                removed.insert(record, at: removed.firstIndex { $0 > record } ?? removed.endIndex)
                return
            }
            makeArray()
        }
        items.replaceSubrange(subrange, with: replacement)
    }

    package mutating func append(_ item: consuming StoredItem) {
        items.append(consume item)
    }

    package mutating func reserveCapacity(_ minimumCapacity: Int) {
        if indexed == nil { items.reserveCapacity(minimumCapacity) }
    }
}
