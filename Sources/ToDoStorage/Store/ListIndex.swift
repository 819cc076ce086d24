import ToDoModel

/// Where every item of a long list is in its file, and where each of its fields starts there
/// (`items.json.index`): what reading the list finds by scanning every item, kept so that the
/// next commands need not scan them again. Removed before the list is written whole, and made
/// again as it is written (`Builder`, from where each item goes); where there is none, made by the
/// next change, which has to scan the list anyway. Either way under the list's lock, and only of
/// items an `ItemManager` restored, refusing two with one id or number: so items read through it
/// are not checked for that again. Used only for the very file it was
/// made from (the same device, inode, size, modification time and revision: any other write to
/// the list changes them, as `rsync` and `make` judge a file unchanged), and only when its digest
/// is right and every place it names lies within the list's items. Otherwise the list is read as
/// it always was: the index only saves time.
///
/// Binary, little-endian: a header of 16 words (`TODOIDX2`, the list file's identity, where its
/// items array starts and ends, how many open and done items, the digest of the records (`FileSystem.wideDigest`), the
/// list's revision), then one record of `recordSize` bytes per item, the open items then the
/// done ones, each in file order: where the item starts in the list and its length, its flags
/// (done, exact, due or start a day, has a title key), number, id, where its 16 fields start
/// (`UnsafeWrittenForm.Offsets`), and for an open item the `TitleKey` of an ASCII title.
package enum ListIndex {
    static let magic = Array("TODOIDX2".utf8)
    package static let headerSize = 16 * 8
    static let recordSize = 80

    /// The index of `items`, read from `text` (the list file with `identity`), whose items array
    /// spans `itemsRange`; `nil` when an item was read without its written form (one of 64 KB or
    /// more): such a list is scanned.
    package static func bytes(of items: StoredItems, in text: StoredText, itemsRange: Range<Int>, identity: FileIdentity,
                              revision: Int) -> [UInt8]? {
        var builder = Builder(capacity: items.open.count + items.done.count)
        for items in [items.open, items.done] {
            for item in items {
                guard let form = item.storage.readForm, form.number == item.number, form.done == item.done else { return nil }
                builder.add(WrittenItem(id: item.id, number: form.number, done: form.done, range: form.start - text.start..<form.start - text.start + form.count,
                                        offsets: form.offsets, isExact: form.isExact), titleKey: item.done ? nil : item.asciiTitleKey)
            }
        }
        return builder.bytes(itemsRange: itemsRange, identity: identity, revision: revision)
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

        /// Adds `item`, whose range is where it is in the file, and the `TitleKey` of its title
        /// when it is open and the title has an ASCII key.
        package mutating func add(_ item: WrittenItem, titleKey: Int?) {
            guard isComplete, !(doneCount > 0 && !item.done) else { return isComplete = false }
            if item.done { doneCount += 1 } else { openCount += 1 }
            let start = records.count
            records.append(contentsOf: repeatElement(0, count: recordSize))
            records.withUnsafeMutableBytes { store(item, titleKey: titleKey, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        }

        /// Notes an item that cannot be described: the list gets no index.
        package mutating func addUndescribable() {
            isComplete = false
        }

        /// The index of the list file with `identity` at `revision`, whose items array spans
        /// `itemsRange`; `nil` when an item could not be described.
        package func bytes(itemsRange: Range<Int>, identity: FileIdentity, revision: Int) -> [UInt8]? {
            guard isComplete else { return nil }
            var bytes = magic
            let words: [UInt64] = identityWords(identity, revision: revision) + [
                UInt64(itemsRange.lowerBound), UInt64(itemsRange.upperBound), UInt64(openCount), UInt64(doneCount)]
            for word in words { appendWord(word, to: &bytes) }
            appendWord(bytes.withUnsafeBufferPointer { header in records.withUnsafeBufferPointer { digest(header: header, records: $0) } }, to: &bytes)
            bytes.append(contentsOf: repeatElement(0, count: headerSize - bytes.count))
            return bytes + records
        }
    }

    /// The items the index describes, read into `text` (the list file with `identity`) with no
    /// scanning, and where the items array ends; `nil` when the index is not this file's, or not
    /// sound, or its items array does not start at `arrayStart`. The index is read where it is
    /// (mapped, `FileSystem.mapCompanionFile`): its 8 MB at 100,000 items are never copied.
    package static func items(from index: UnsafeBufferPointer<UInt8>, text: StoredText, identity: FileIdentity, revision: Int?,
                              arrayStart: Int) -> (items: StoredItems, arrayEnd: Int)? {
        guard let revision, index.count >= headerSize, index.prefix(magic.count).elementsEqual(magic) else { return nil }
        func word(_ position: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawBufferPointer(index).loadUnaligned(fromByteOffset: 8 + 8 * position, as: UInt64.self))
        }
        let expected = identityWords(identity, revision: revision)
        guard expected.indices.allSatisfy({ word($0) == expected[$0] }), word(7) == UInt64(arrayStart) else { return nil }
        let arrayEnd = word(8), openCount = word(9), doneCount = word(10)
        guard arrayEnd <= UInt64(text.count), UInt64(arrayStart) < arrayEnd, openCount <= UInt64(index.count), doneCount <= UInt64(index.count),
              (openCount + doneCount) * UInt64(recordSize) == UInt64(index.count - headerSize) else { return nil }
        let records = UnsafeBufferPointer(rebasing: index[headerSize...])
        guard digest(header: UnsafeBufferPointer(rebasing: index[..<digestOffset]), records: records) == word(11) else { return nil }
        var items = StoredItems()
        var holders = StoredText.Holders(text)
        var titleKeys: [Int] = []
        titleKeys.reserveCapacity(Int(openCount))
        var sound = true
        // Each array made in place: appending would copy each item (and count a reference to its text).
        func stored(_ positions: Range<Int>, done: Bool) -> [StoredItem] {
            [StoredItem](unsafeUninitializedCapacity: positions.count) { buffer, initialized in
                for position in positions {
                    guard let (item, titleKey) = item(at: position * recordSize, in: records, within: arrayStart..<Int(arrayEnd)),
                          item.done == done else {
                        sound = false
                        return
                    }
                    items.note(item)
                    items.highestNumber = max(items.highestNumber, item.number)
                    buffer.initializeElement(at: initialized, to: StoredItem(item, in: holders.next()))
                    initialized += 1
                    if let titleKey { titleKeys.append(titleKey) }
                }
            }
        }
        items.open = stored(0..<Int(openCount), done: false)
        guard sound else { return nil }
        items.done = stored(Int(openCount)..<Int(openCount + doneCount), done: true)
        guard sound else { return nil }
        items.openASCIITitleKeys = titleKeys
        items.idsAndNumbersChecked = true
        return (items, Int(arrayEnd))
    }

    /// Where the digest is: after the magic and the 11 words it covers with the records.
    package static let digestOffset = 8 + 8 * 11

    /// The digest of the header before it and of the records: a damaged index is never used.
    package static func digest(header: UnsafeBufferPointer<UInt8>, records: UnsafeBufferPointer<UInt8>) -> UInt64 {
        combined(header: FileSystem.digest(of: header), records: FileSystem.wideDigest(of: records))
    }

    private static func combined(header: UInt64, records: UInt64) -> UInt64 {
        records ^ (header << 29 | header >> 35)
    }

    /// What makes the index this file's: the file's device, inode, size and modification time,
    /// and the revision it says it has.
    private static func identityWords(_ identity: FileIdentity, revision: Int) -> [UInt64] {
        [identity.device, identity.inode, UInt64(bitPattern: identity.size),
         UInt64(bitPattern: Int64(identity.modified.tv_sec)), UInt64(bitPattern: Int64(identity.modified.tv_nsec)),
         UInt64(revision), 0]
    }

    /// Writes the record of `item` into `record`, `recordSize` bytes of zeros.
    private static func store(_ item: WrittenItem, titleKey: Int?, into record: UnsafeMutableRawBufferPointer) {
        let offsets = item.offsets
        let flags = (item.done ? 1 : 0) | (item.isExact ? 2 : 0) | (offsets.dueIsDay ? 4 : 0) | (offsets.startIsDay ? 8 : 0) | (titleKey == nil ? 0 : 16)
        record.storeBytes(of: UInt64(item.range.lowerBound).littleEndian, toByteOffset: 0, as: UInt64.self)
        record.storeBytes(of: (UInt64(item.range.count) | UInt64(flags) << 32).littleEndian, toByteOffset: 8, as: UInt64.self)
        record.storeBytes(of: UInt64(item.number).littleEndian, toByteOffset: 16, as: UInt64.self)
        record.storeBytes(of: item.id.uuid, toByteOffset: 24, as: uuid_t.self)
        for (field, offset) in [offsets.title, offsets.itemDescription, offsets.due, offsets.allDay, offsets.start, offsets.repeatRule,
                                offsets.location, offsets.priority, offsets.tags, offsets.parent, offsets.project, offsets.list,
                                offsets.alarms, offsets.createdAt, offsets.completedAt, offsets.modifiedAt].enumerated() {
            record.storeBytes(of: offset.littleEndian, toByteOffset: 40 + 2 * field, as: UnsafeWrittenForm.Offset.self)
        }
        record.storeBytes(of: UInt64(bitPattern: Int64(titleKey ?? 0)).littleEndian, toByteOffset: 72, as: UInt64.self)
    }

    /// The item of the record at `position`, and the key of its title when the record has it.
    /// Read word by word: a list of 100,000 items reads every record.
    private static func item(at position: Int, in records: UnsafeBufferPointer<UInt8>, within array: Range<Int>) -> (WrittenItem, Int?)? {
        let raw = UnsafeRawPointer(records.baseAddress! + position)
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        let start = word(0), countAndFlags = word(8), number = word(16)
        let count = Int(countAndFlags & 0xFFFF_FFFF), flags = UInt32(truncatingIfNeeded: countAndFlags >> 32)
        guard start >= UInt64(array.lowerBound), start + UInt64(count) <= UInt64(array.upperBound), count > 0,
              number >= 1, number <= UInt64(ToDoItem.largestNumber) else { return nil }
        // The 16 offsets are four words of four.
        let fields = (word(40), word(48), word(56), word(64))
        func offset(_ word: UInt64, _ index: UInt64) -> UnsafeWrittenForm.Offset { UnsafeWrittenForm.Offset(truncatingIfNeeded: word >> (16 * index)) }
        // Every field within the item's bytes, or none: reading one never leaves them.
        func furthest(_ word: UInt64) -> UnsafeWrittenForm.Offset { max(offset(word, 0), offset(word, 1), offset(word, 2), offset(word, 3)) }
        guard Int(max(furthest(fields.0), furthest(fields.1), furthest(fields.2), furthest(fields.3))) < count else { return nil }
        var offsets = UnsafeWrittenForm.Offsets()
        (offsets.title, offsets.itemDescription, offsets.due, offsets.allDay) = (offset(fields.0, 0), offset(fields.0, 1), offset(fields.0, 2), offset(fields.0, 3))
        (offsets.start, offsets.repeatRule, offsets.location, offsets.priority) = (offset(fields.1, 0), offset(fields.1, 1), offset(fields.1, 2), offset(fields.1, 3))
        (offsets.tags, offsets.parent, offsets.project, offsets.list) = (offset(fields.2, 0), offset(fields.2, 1), offset(fields.2, 2), offset(fields.2, 3))
        (offsets.alarms, offsets.createdAt, offsets.completedAt, offsets.modifiedAt) = (offset(fields.3, 0), offset(fields.3, 1), offset(fields.3, 2), offset(fields.3, 3))
        offsets.dueIsDay = flags & 4 != 0
        offsets.startIsDay = flags & 8 != 0
        let item = WrittenItem(id: UUID(bytesAt: raw + 24), number: Int(number), done: flags & 1 != 0, range: Int(start)..<Int(start) + count,
                               offsets: offsets, isExact: flags & 2 != 0)
        return (item, flags & 16 != 0 ? Int(truncatingIfNeeded: word(72)) : nil)
    }

    private static func appendWord(_ word: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
