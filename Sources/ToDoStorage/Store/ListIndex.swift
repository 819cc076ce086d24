import ToDoModel

/// Where every item of a long list is in its file, and where each of its fields starts there
/// (`items.json.index`): what reading the list finds by scanning every item, kept so that the
/// next commands need not scan them again. Removed before the list is written whole, and made
/// again as it is written (`Builder`, from where each item goes); where there is none, made by the
/// next change, which has to scan the list anyway. Either way under the list's lock, and only of
/// items an `ItemManager` restored, refusing two with one id or number: so items read through it
/// are not checked for that again. Used only for the very file it was
/// made from (the same device, inode, size, modification time, change time and revision: any
/// other write to the list changes them, and the change time, unlike the modification time, no
/// program can put back), and only when its digest is right and every place it names lies within
/// the list's items. Otherwise the list is read as it always was: the index only saves time. It
/// also keeps the digest of the whole list file (`FileSystem.digest(of:)`), which binds the
/// list's journal to the file it continues, so that a command need not read the file to know it.
///
/// Binary, little-endian: a header of 16 words (`TODOIDX4`, the list file's identity and revision,
/// the file's digest, where its items array starts and ends, how many open and done items, the
/// digest of the header and the records (`FileSystem.wideDigest`)), then one record of `recordSize` bytes per item, the open items then the
/// done ones, each in file order: in one word where the item starts in the list (32 bits: a list
/// is at most 1 GiB), its length (16 bits) and its flags (done, exact, has a
/// title key, has a parent), then its number, id, where each of its members starts
/// (`UnsafeWrittenForm.Offsets`, 32 lanes of 16 bits), for an open item the `TitleKey` of an ASCII title, and its
/// parent's id. The items are made from their records when asked for (`UnsafeIndexedItems`), and
/// found by number, id or parent from the records alone.
package enum ListIndex {
    static let magic = Array("TODOIDX5".utf8)
    package static let headerSize = 16 * 8
    package static let recordSize = 120

    /// Where each part of a record is, and the bits of its flags: the one layout the writer
    /// (`store`) and the readers (`item(at:in:within:)`, `UnsafeIndexedItems`) share.
    package enum Record {
        /// The item's place in the list (32 bits), its length (16) and its flags (16), in one word.
        package static let place = 0, number = 8, id = 16, fieldOffsets = 32, titleKey = 96, parent = 104
        static let flagsShift: UInt64 = 48
        static let done: UInt64 = 1, exact: UInt64 = 2, hasTitleKey: UInt64 = 16, hasParent: UInt64 = 32
    }

    /// The index of `items`, read from `text` (the list file with `identity`), whose items array
    /// spans `itemsRange`; `nil` when an item was read without its written form (one of 64 KB or
    /// more): such a list is scanned.
    package static func bytes(
        of items: StoredItems, in text: StoredText, itemsRange: Range<Int>, identity: FileIdentity,
        revision: Int, fileDigest: UInt64
    ) -> [UInt8]? {
        var builder = Builder(capacity: items.open.count + items.done.count)
        for items in [items.open, items.done] {
            for item in items {
                guard let form = item.readForm else {
                    return nil
                }
                builder.add(
                    WrittenItem(
                        id: item.id, number: item.number, done: item.done,
                        range: form.start - text.start..<form.start - text.start + form.count,
                        offsets: form.offsets, isExact: form.isExact), of: item)
            }
        }
        return builder.bytes(itemsRange: itemsRange, identity: identity, revision: revision, fileDigest: fileDigest)
    }

    /// An index made item by item, in the list file's order (the open items, then the done ones),
    /// as they are read or written: the writer of a long list makes its index as it writes it, so
    /// that the next change does not scan the list to make one.
    package struct Builder {
        private var records: [UInt8] = []
        private var openCount = 0, doneCount = 0
        /// False once an item could not be described (not in the written form, or out of order).
        private var isComplete = true

        package init(capacity: Int = 0) {
            records.reserveCapacity(capacity * recordSize)
        }

        /// Adds `item`, whose range is where it is in the file, and of `stored` (the item it was
        /// written from) the `TitleKey` of its title when it is open and the title has an ASCII
        /// key, and its parent.
        package mutating func add(_ item: WrittenItem, of stored: StoredItem) {
            guard isComplete, !(doneCount > 0 && !item.done), item.range.upperBound <= 1 << 32,
                item.range.count < 1 << 16
            else { return isComplete = false }
            if item.done { doneCount += 1 } else { openCount += 1 }
            let start = records.count
            records.append(contentsOf: repeatElement(0, count: recordSize))
            let titleKey = item.done ? nil : stored.asciiTitleKey, parent = stored.parent
            records.withUnsafeMutableBytes {
                store(
                    item, titleKey: titleKey, parent: parent,
                    into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
            }
        }

        /// Notes an item that cannot be described: the list gets no index.
        package mutating func addUndescribable() {
            isComplete = false
        }

        /// The index of the list file with `identity` and `fileDigest` at `revision`, whose
        /// items array spans `itemsRange`; `nil` when an item could not be described.
        package func bytes(
            itemsRange: Range<Int>, identity: FileIdentity, revision: Int, fileDigest: UInt64
        ) -> [UInt8]? {
            guard isComplete else { return nil }
            var bytes = magic
            let words: [UInt64] =
                identityWords(identity, revision: revision) + [
                    fileDigest,
                    UInt64(itemsRange.lowerBound), UInt64(itemsRange.upperBound), UInt64(openCount), UInt64(doneCount)
                ]
            for word in words { appendWord(word, to: &bytes) }
            appendWord(
                bytes.withUnsafeBufferPointer { header in
                    records.withUnsafeBufferPointer { digest(header: header, records: $0) }
                }, to: &bytes)
            bytes.append(contentsOf: repeatElement(0, count: headerSize - bytes.count))
            return bytes + records
        }
    }

    /// The items the index describes, in `text` (the list file with `identity`), made from their
    /// records when asked for (`UnsafeIndexedItems`), where the items array ends and the digest of
    /// the list file it was made from (checked by its maker); `nil` when
    /// the index is not this file's, or not sound (every record is checked now), or its items
    /// array does not start at `arrayStart`. The index is read where it is (mapped,
    /// `FileSystem.mapCompanionFile`), and kept so: its 8.8 MB at 100,000 items are never copied.
    package static func items(
        from index: OwnedBytes, text: StoredText, identity: FileIdentity, revision: Int?,
        arrayStart: Int
    ) -> (items: StoredItems, arrayEnd: Int, fileDigest: UInt64)? {
        let bytes = index.buffer
        guard let revision, bytes.count >= headerSize, bytes.prefix(magic.count).elementsEqual(magic) else {
            return nil
        }
        func word(_ position: Int) -> UInt64 {
            UInt64(
                littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(
                    fromByteOffset: 8 + 8 * position, as: UInt64.self))
        }
        let expected = identityWords(identity, revision: revision)
        guard expected.indices.allSatisfy({ word($0) == expected[$0] }), word(7) == UInt64(arrayStart) else {
            return nil
        }
        let fileDigest = word(6), arrayEnd = word(8), openCount = word(9), doneCount = word(10)
        guard arrayEnd <= UInt64(text.count), UInt64(arrayStart) < arrayEnd, openCount <= UInt64(bytes.count),
            doneCount <= UInt64(bytes.count),
            (openCount + doneCount) * UInt64(recordSize) == UInt64(bytes.count - headerSize)
        else { return nil }
        let records = UnsafeBufferPointer(rebasing: bytes[headerSize...])
        guard digest(header: UnsafeBufferPointer(rebasing: bytes[..<digestOffset]), records: records) == word(11) else {
            return nil
        }
        let array = arrayStart..<Int(arrayEnd)
        // Every record checked, a long list's two halves at once; what the items have, noted.
        let halves = BackgroundWork.inTwoHalves(
            Int(openCount + doneCount), minimumCount: Parallelism.itemsInTwoHalvesMinimumCount
        ) { positions -> StoredItems? in
            var items = StoredItems()
            for position in positions {
                guard let item = item(at: position * recordSize, in: records, within: array),
                    item.done == (position >= Int(openCount)),
                    !hasParent(at: position * recordSize, in: records) || item.offsets.has(.parent)
                else { return nil }
                items.note(item)
                items.highestNumber = max(items.highestNumber, item.number)
            }
            return items
        }
        var items = StoredItems()
        for half in halves {
            guard let half else { return nil }
            items.note(half)
        }
        let openRecords = UnsafeIndexedItems(
            index: index, records: records.baseAddress!, count: Int(openCount), text: text, array: array)
        let doneRecords = UnsafeIndexedItems(
            index: index, records: records.baseAddress! + Int(openCount) * recordSize, count: Int(doneCount),
            text: text, array: array)
        items.open = StoredItemArray(openRecords)
        items.done = StoredItemArray(doneRecords)
        items.idsAndNumbersChecked = true
        return (items, Int(arrayEnd), fileDigest)
    }

    /// Where the digest is: after the magic and the 11 words it covers with the records.
    package static let digestOffset = 8 + 8 * 11

    /// The digest of the header before it and of the records: a damaged index is never used.
    static func digest(header: UnsafeBufferPointer<UInt8>, records: UnsafeBufferPointer<UInt8>) -> UInt64 {
        combined(header: FileSystem.digest(of: header), records: FileSystem.wideDigest(of: records))
    }

    private static func combined(header: UInt64, records: UInt64) -> UInt64 {
        records ^ (header << 29 | header >> 35)
    }

    /// What makes the index this file's: the file's device, inode, size, modification and change
    /// times (in nanoseconds), and the revision it says it has.
    private static func identityWords(_ identity: FileIdentity, revision: Int) -> [UInt64] {
        func nanoseconds(_ time: timespec) -> UInt64 {
            UInt64(bitPattern: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
        }
        return [
            identity.device, identity.inode, UInt64(bitPattern: identity.size), nanoseconds(identity.modified),
            nanoseconds(identity.changed),
            UInt64(revision)
        ]
    }

    /// Writes the record of `item` into `record`, `recordSize` bytes of zeros.
    private static func store(
        _ item: WrittenItem, titleKey: Int?, parent: UUID?, into record: UnsafeMutableRawBufferPointer
    ) {
        let offsets = item.offsets
        let flags =
            (item.done ? Record.done : 0) | (item.isExact ? Record.exact : 0)
            | (titleKey == nil ? 0 : Record.hasTitleKey)
            | (parent == nil ? 0 : Record.hasParent)
        record.storeBytes(
            of: (UInt64(item.range.lowerBound) | UInt64(item.range.count) << 32 | flags << Record.flagsShift)
                .littleEndian,
            toByteOffset: Record.place, as: UInt64.self)
        record.storeBytes(of: UInt64(item.number).littleEndian, toByteOffset: Record.number, as: UInt64.self)
        record.storeBytes(of: item.id.uuid, toByteOffset: Record.id, as: uuid_t.self)
        record.storeBytes(of: littleEndian(offsets.lanes), toByteOffset: Record.fieldOffsets, as: SIMD32<UInt16>.self)
        record.storeBytes(
            of: UInt64(bitPattern: Int64(titleKey ?? 0)).littleEndian, toByteOffset: Record.titleKey, as: UInt64.self)
        if let parent { record.storeBytes(of: parent.uuid, toByteOffset: Record.parent, as: uuid_t.self) }
    }

    /// The item of the record at `position`. Read word by word: a list of 100,000 items reads
    /// every record. (Its parent and title's key are read apart, by those that need them: the
    /// item alone is returned in registers and copied without a call.)
    static func item(
        at position: Int, in records: UnsafeBufferPointer<UInt8>, within array: Range<Int>
    ) -> WrittenItem? {
        let raw = UnsafeRawPointer(records.baseAddress! + position)
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let place = word(Record.place), number = word(Record.number)
        let start = place & 0xFFFF_FFFF, count = Int(place >> 32 & 0xFFFF), flags = place >> Record.flagsShift
        guard start >= UInt64(array.lowerBound), start + UInt64(count) <= UInt64(array.upperBound), count > 0,
            number >= 1, number <= UInt64(ToDoItem.largestNumber)
        else { return nil }
        var offsets = UnsafeWrittenForm.Offsets()
        offsets.lanes = littleEndian(raw.loadUnaligned(fromByteOffset: Record.fieldOffsets, as: SIMD32<UInt16>.self))
        // Every member within the item's bytes, or none: reading one never leaves them.
        guard Int(offsets.lanes.max()) < count else { return nil }
        return WrittenItem(
            id: UUID(bytesAt: raw + Record.id), number: Int(number), done: flags & Record.done != 0,
            range: Int(start)..<Int(start) + count, offsets: offsets, isExact: flags & Record.exact != 0)
    }

    /// Whether the record at `position` says the item has a parent.
    static func hasParent(at position: Int, in records: UnsafeBufferPointer<UInt8>) -> Bool {
        let place = UInt64(
            littleEndian: UnsafeRawPointer(records.baseAddress! + position).loadUnaligned(as: UInt64.self))
        return place >> Record.flagsShift & Record.hasParent != 0
    }

    /// The lanes as little-endian stores them, or reads them back: the same on a little-endian machine.
    private static func littleEndian(_ lanes: SIMD32<UInt16>) -> SIMD32<UInt16> {
        #if _endian(big)
        var swapped = lanes
        for lane in swapped.indices { swapped[lane] = lanes[lane].byteSwapped }
        return swapped
        #else
        return lanes
        #endif
    }

    private static func appendWord(_ word: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
