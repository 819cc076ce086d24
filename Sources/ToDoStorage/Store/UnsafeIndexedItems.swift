import ToDoModel

/// The open or the done items of a long list as its index's records describe them
/// (`ListIndex`), each made when asked for, its fields left in the list's text: what backs a
/// `StoredItemArray` until a change needs the array. Unsafe: reads the records where the index
/// file is mapped, which this keeps mapped, and which `ListIndex.items` checked, every record, before
/// making this. (The list and its index are only ever replaced by renaming; a program writing
/// into the index file in place meanwhile makes its item read as having no fields, never a read
/// outside the file.)
struct UnsafeIndexedItems: @unchecked Sendable {
    /// The index's bytes, kept mapped while items are made from them.
    private let index: OwnedBytes
    /// The first of this part's records.
    private let records: UnsafePointer<UInt8>
    package let count: Int
    package var indices: Range<Int> { 0..<count }
    /// The list's text, which the records point into.
    private let text: StoredText
    /// Where the list's items array is in `text`: every record's item lies within it.
    private let array: Range<Int>

    init(index: OwnedBytes, records: UnsafePointer<UInt8>, count: Int, text: StoredText, array: Range<Int>) {
        self.index = index
        self.records = records
        self.count = count
        self.text = text
        self.array = array
    }

    /// Lets go of the records' pages once every item was made from them
    /// (`OwnedBytes.releasePages(in:)`); a record read later is mapped again.
    package func releasePages() {
        let offset = UnsafeRawPointer(records) - UnsafeRawPointer(index.start)
        index.releasePages(in: offset..<offset + count * ListIndex.recordSize)
    }

    /// Holders of the list's text for items made one after the other (`StoredText.Holders`).
    package var holders: StoredText.Holders { StoredText.Holders(text) }

    /// The item of the record at `position`, holding its text through `holder`.
    package func item(at position: Int, in holder: StoredText? = nil) -> StoredItem {
        let buffer = UnsafeBufferPointer(start: records, count: count * ListIndex.recordSize)
        guard let item = ListIndex.item(at: position * ListIndex.recordSize, in: buffer, within: array) else {
            return StoredItem(
                id: id(at: position), number: number(at: position),
                done: flags(of: position) & ListIndex.Record.done != 0,
                storage: ItemStorage(ItemFields(title: "")))
        }
        return StoredItem(item, in: holder ?? text)
    }

    /// The id of the item at `position`, read from its record alone.
    package func id(at position: Int) -> UUID {
        UUID(bytesAt: UnsafeRawPointer(record(position) + ListIndex.Record.id))
    }

    /// The number of the item at `position`, read from its record alone.
    package func number(at position: Int) -> Int {
        Int(truncatingIfNeeded: word(ListIndex.Record.number, of: position))
    }

    /// The id of the parent of the item at `position`, read from its record alone.
    package func parent(at position: Int) -> UUID? {
        flags(of: position) & ListIndex.Record.hasParent != 0
            ? UUID(bytesAt: UnsafeRawPointer(record(position) + ListIndex.Record.parent)) : nil
    }

    /// The ASCII `TitleKey` of the title of the item at `position`, when its record has one (an
    /// open item's).
    package func asciiTitleKey(at position: Int) -> Int? {
        flags(of: position) & ListIndex.Record.hasTitleKey != 0
            ? Int(truncatingIfNeeded: word(ListIndex.Record.titleKey, of: position)) : nil
    }

    private func record(_ position: Int) -> UnsafePointer<UInt8> {
        records + position * ListIndex.recordSize
    }

    private func word(_ offset: Int, of position: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(record(position)).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private func flags(of position: Int) -> UInt64 {
        word(ListIndex.Record.place, of: position) >> ListIndex.Record.flagsShift
    }
}
