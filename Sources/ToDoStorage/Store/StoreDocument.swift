import ToDoModel

/// The data file's contents: `{"version": 2, "nextNumber": N, "items": [...]}` plus any top-level
/// fields a newer or other program wrote, or the book app's bare array of items.
package struct StoreDocument {
    /// The format version of the items this program writes. Version 2 keeps whole days as dates
    /// (`ItemForm`).
    package static let currentVersion = 2
    /// Version 2's items, with the list going on in its journal after its revision
    /// (`ListJournal`): what a long list's file says, so that a todo that does not know the
    /// journal refuses the file instead of losing the changes the journal holds. The newest
    /// version this program reads.
    package static let journaledVersion = 3

    /// The version the file was read as: 1 for the book app's bare array.
    package var readVersion = currentVersion
    /// Whether the list goes on in its journal: read from the version, and written as it.
    package var continuesInJournal = false

    package var nextNumber: Int?
    /// How many changes todo has written to the file; the history numbers its changes by it.
    package var revision: Int?
    /// The digest of the list file whose journal this file took in, when it was written whole
    /// from a journaled list (`"folded"`): lines of a journal bound to that file are what a crash
    /// before the journal was removed left, already in this file.
    package var foldedJournalOf: UInt64?
    package var items: StoredItems
    package var unknownFields = JSONObject()
    /// Where the items array is in the text read (`ListIndex`); `nil` for a document not read from
    /// a text, or whose items came before its version.
    package var itemsRange: Range<Int>?

    /// Gives the items a `ListIndex` describes, for an items array starting at the offset given in
    /// a document of the revision given, and where the array ends; `nil` to scan them.
    package typealias IndexedItems = (_ arrayStart: Int, _ revision: Int?) -> (items: StoredItems, arrayEnd: Int)?

    package init(items: StoredItems = StoredItems(), nextNumber: Int? = nil) {
        self.items = items
        self.nextNumber = nextNumber
    }

    /// Reads a document from the file's bytes, throwing `invalidJSON`, `invalidContent` or
    /// `unsupportedVersion` naming `file`. Items are read straight into `ToDoItem`s. A long list's
    /// second half is looked through on another core meanwhile, from where `secondHalf` says in
    /// the list's bytes (tests try every place).
    package init(bytes: [UInt8], file: String) throws(StoreError) {
        try self.init(bytes: bytes, file: file, secondHalf: BackgroundItemScan.secondHalfStart)
    }

    init(bytes: [UInt8], file: String, secondHalf: SecondHalfStart) throws(StoreError) {
        try self.init(text: StoredText(bytes), file: file, secondHalf: secondHalf, indexed: nil)
    }

    /// Reads a document from a text the items read from it will share (and write their unchanged
    /// bytes back from, `UnsafeWrittenForm`).
    package init(text: StoredText, file: String, indexed: IndexedItems? = nil) throws(StoreError) {
        try self.init(text: text, file: file, secondHalf: BackgroundItemScan.secondHalfStart, indexed: indexed)
    }

    init(text: StoredText, file: String, secondHalf: SecondHalfStart, indexed: IndexedItems?) throws(StoreError) {
        do {
            self = try withExtendedLifetime(text) { () throws(JSONDecodingError) in
                var scanner = JSONScanner(bytes: text.buffer)
                return try scanner.scanDocument { scanner throws(JSONDecodingError) in
                    try Self(scanning: &scanner, text: text, secondHalf: secondHalf, indexed: indexed)
                }
            }
        } catch {
            switch error {
            case .syntax(let syntax): throw .invalidJSON(file: file, syntax)
            case .shape(let shape): throw .invalidContent(file: file, reason: shape.description)
            case .newerVersion(let version):
                throw .unsupportedVersion(file: file, version: version, supported: Self.journaledVersion)
            }
        }
    }

    typealias SecondHalfStart = (_ bytes: UnsafeBufferPointer<UInt8>, _ list: Range<Int>) -> Int?

    private init(
        scanning scanner: inout JSONScanner, text: StoredText, secondHalf: SecondHalfStart, indexed: IndexedItems?
    ) throws(JSONDecodingError) {
        try scanner.checkValueStartsForDecoding()
        if scanner.nextKind() == "an array" {
            items = try Self.items(&scanner, path: "", text: text, secondHalf: secondHalf)
            readVersion = 1
            return
        }
        var version: Int?
        var nextNumber: Int?
        var revision: Int?
        var folded: UInt64?
        var items: StoredItems?
        var itemsRange: Range<Int>?
        /// Items met before the version is known, or after a newer one, kept as they are: a newer
        /// format must be reported as such, not as items of the wrong shape.
        var heldItems: JSONValue?
        var unknown = JSONObject()
        try scanner.scanObject(mismatch: { _ in .shape("", "expected an object or an array of items") }) {
            scanner, key throws(JSONDecodingError) in
            switch key {
            case "version": version = try scanner.int(at: { "version" }, in: Int.min...Int.max)
            case "nextNumber": nextNumber = try scanner.int(at: { "nextNumber" }, in: 1...ToDoItem.largestNumber + 1)
            case "revision": revision = try scanner.int(at: { "revision" }, in: 0...ToDoItem.largestNumber)
            case "folded":
                guard let text = try scanner.string(at: { "folded" }), let digest = HexDigit.digest(text) else {
                    throw .shape("folded", "expected the digest of a list file, 16 hexadecimal digits")
                }
                folded = digest
            case "items":
                if let version, version > Self.journaledVersion {
                    heldItems = try scanner.unknownValue()
                } else if version != nil {
                    scanner.skipWhitespace()
                    let start = scanner.index
                    if let (indexedItems, end) = indexed?(start, revision) {
                        items = indexedItems
                        scanner.index = end
                    } else {
                        items = try Self.items(&scanner, path: "items", text: text, secondHalf: secondHalf)
                    }
                    itemsRange = start..<scanner.index
                } else {
                    // Before the version, as in a file written with sorted keys: read as items
                    // (the version is checked before they are used), and held as they are only
                    // when that fails, so that the error is the one the version calls for.
                    let start = scanner.index
                    do {
                        items = try Self.items(&scanner, path: "items", text: text, secondHalf: secondHalf)
                    } catch {
                        scanner.index = start
                        heldItems = try scanner.unknownValue()
                    }
                }
            default: unknown.appendUnchecked(key: key.string, value: try scanner.unknownValue())
            }
        }
        let readVersion = version ?? 1
        if readVersion > Self.journaledVersion { throw .newerVersion(readVersion) }
        guard readVersion >= 1 else { throw .shape("version", "\(readVersion) is not a format version") }
        if let heldItems {
            let bytes = heldItems.serializedCompactly()
            items = try bytes.withUnsafeBufferPointer { buffer throws(JSONDecodingError) in
                var itemScanner = JSONScanner(bytes: buffer)
                return try Self.items(&itemScanner, path: "items")
            }
        }
        self.nextNumber = nextNumber
        self.revision = revision
        foldedJournalOf = folded
        self.readVersion = readVersion
        continuesInJournal = readVersion == Self.journaledVersion
        self.items = items ?? StoredItems()
        self.itemsRange = itemsRange
        unknownFields = unknown
    }

    private static func items(
        _ scanner: inout JSONScanner, path: String, text: StoredText? = nil,
        secondHalf: SecondHalfStart = { _, _ in nil }
    ) throws(JSONDecodingError) -> StoredItems {
        var items = StoredItems()
        // An item takes 100 bytes or more: reserving for that many avoids copying the array as it
        // grows, and pages reserved but never filled cost nothing.
        items.open.reserveCapacity((scanner.bytes.count - scanner.index) / 100)
        let secondHalf =
            text == nil
            ? nil
            : secondHalf(scanner.bytes, scanner.index..<scanner.bytes.count)
                .map { BackgroundItemScan(bytes: scanner.bytes, start: $0) }
        // The other thread reads the buffer, which lasts only as long as this call.
        defer { secondHalf?.cancel() }
        /// How many more items than elements counted so far were read at once from the second half.
        var itemsTakenAtOnce = 0
        var holders = text.map(StoredText.Holders.init)
        try scanner.scanArray(mismatch: { kind in .shape(path, "expected an array, found \(kind)") }) {
            scanner, element throws(JSONDecodingError) in
            let index = element + itemsTakenAtOnce
            if holders != nil, let secondHalf, scanner.index == secondHalf.start {
                let (found, end) = secondHalf.finish()
                if !found.isEmpty {
                    for item in found {
                        items.note(item)
                        items.append(StoredItem(item, in: holders!.next()))
                    }
                    itemsTakenAtOnce += found.count - 1
                    scanner.index = end
                    return
                }
            }
            if holders != nil, let item = WrittenFormReader.item(&scanner) {
                items.note(item)
                items.append(StoredItem(item, in: holders!.next()))
            } else {
                let item = try StoredItem(scanning: &scanner, path: { "\(path)[\(index)]" })
                items.note(item)
                items.append(item)
            }
        }
        return items
    }

    /// The document as the store writes it: the version, the next number, one item per line (so a
    /// diff shows which items changed), then the fields other programs added.
    package func serialized() -> [UInt8] {
        var contents: [UInt8] = []
        _ = try? write(items: [items.open.array, items.done.array]) { chunk throws(StoreError) in
            contents.append(contentsOf: chunk)
        }
        return contents
    }

    /// Writes the document with the items of `sections`, one after another, in place of its own,
    /// handing `emit` a piece of about a megabyte at a time: a list of any size needs little memory
    /// to write. (Arrays rather than any sequence: a generic call from another module would not be
    /// specialised, and would look up type metadata for every item.)
    /// `noting` is told where each item went (see `StoredItem.writeArray`); returns where the items
    /// array is in the output.
    @discardableResult
    package func write(
        items sections: [[StoredItem]], _ emit: ([UInt8]) throws(StoreError) -> Void,
        noting: ((StoredItem, WrittenItem?) -> Void)? = nil
    ) throws(StoreError) -> Range<Int> {
        var writer = JSONWriter(capacity: StoredItem.pieceSize + 64 * 1024)
        writer.bytes.append(
            contentsOf: "{\n  \"version\": \(continuesInJournal ? Self.journaledVersion : Self.currentVersion),\n".utf8)
        if let nextNumber {
            writer.bytes.append(contentsOf: "  \"nextNumber\": \(nextNumber),\n".utf8)
        }
        if let revision {
            writer.bytes.append(contentsOf: "  \"revision\": \(revision),\n".utf8)
        }
        if let foldedJournalOf {
            writer.bytes.append(contentsOf: "  \"folded\": \"\(HexDigit.digestText(foldedJournalOf))\",\n".utf8)
        }
        writer.bytes.append(contentsOf: "  \"items\": ".utf8)
        let arrayStart = writer.bytes.count
        let emitted = try StoredItem.writeArray(
            sections.joined(), indent: "    ", closingIndent: "  ", into: &writer, emit: emit, noting: noting)
        let itemsRange = arrayStart..<emitted + writer.bytes.count
        for (key, value) in unknownFields.members {
            writer.bytes.append(contentsOf: ",\n  ".utf8)
            JSONValue.writeString(key, to: &writer.bytes)
            writer.bytes.append(contentsOf: ": ".utf8)
            writer.value(value)
        }
        writer.bytes.append(contentsOf: "\n}\n".utf8)
        try emit(writer.bytes)
        return itemsRange
    }
}
