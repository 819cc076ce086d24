import ToDoModel

/// A file's text, shared by the items read from it, which point into it (`UnsafeWrittenForm`).
package final class StoredText: @unchecked Sendable {
    /// The bytes, in memory they own: valid for as long as this holder (or another of the same
    /// bytes) lives, which every item read from them keeps.
    private let storage: OwnedBytes
    /// Where the bytes are, kept here so that items read them without counting references.
    let start: UnsafePointer<UInt8>
    package let count: Int

    /// Holds `storage`, which must not change from now on.
    package init(owning storage: OwnedBytes) {
        self.storage = storage
        start = UnsafePointer(storage.start)
        count = storage.count
    }

    /// A copy of `bytes`.
    package convenience init(_ bytes: [UInt8]) {
        self.init(owning: OwnedBytes(copying: bytes))
    }

    /// Another holder of the same bytes.
    private init(sharing text: StoredText) {
        storage = text.storage
        start = text.start
        count = text.count
    }

    /// The whole text; valid while this holder lives.
    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// Reads the text as one JSON document with `readValue`; the text lives while it reads.
    package func scanDocument<Value, Failure: JSONScanFailure>(
        _ readValue: (inout JSONScanner) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try withExtendedLifetime(self) { () throws(Failure) in
            var scanner = JSONScanner(bytes: buffer)
            return try scanner.scanDocument(readValue)
        }
    }

    /// Holders of one text for the items read from it, a new one for every few hundred items.
    /// Every copy of an item counts a reference to its holder, and a count changed by two cores at
    /// once is slow (the cores pass it to and fro): items read or shown on different cores then
    /// mostly have different holders.
    package struct Holders {
        private static let itemsPerHolder = 512
        private let text: StoredText
        private var current: StoredText
        private var handedOut = 0

        package init(_ text: StoredText) {
            self.text = text
            current = text
        }

        /// The holder for the next item.
        package mutating func next() -> StoredText {
            if handedOut == Self.itemsPerHolder {
                current = StoredText(sharing: text)
                handedOut = 0
            }
            handedOut += 1
            return current
        }
    }
}
