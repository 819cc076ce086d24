import ToDoModel

/// The second half of a long list, looked through on another core while this one reads the first
/// half: reading the list is most of what every command does when it is long.
///
/// It starts where an item seems to start near the middle, and finds where each item that the
/// shortcut reads is (`WrittenFormReader`: todo's own layout, or another program's), one after
/// another, for as long as such items follow each other. The reader of the first half takes what
/// it found only when an item of the list starts exactly there, and goes on from the end of the
/// last item found. The items read are then the same as if read in one go, whatever the text
/// holds: the items found are those the reader would have found one by one, and anything else (a
/// point inside a string or another value, an item for the general reader, an error) is left to
/// the reader (`StoreDocumentTests`).
package struct BackgroundItemScan {
    /// How far past the middle an item's start is looked for: an item is far shorter.
    package static let searchLength = 64 * 1024

    /// Where the first item it looks at starts.
    package let start: Int
    private let work: BackgroundWork<(items: [WrittenItem], end: Int)>

    /// Where to start in a list in `range` of `bytes`: the first item start after the middle, or
    /// `nil` for a short list.
    static func secondHalfStart(in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int? {
        guard range.count >= Parallelism.readItemsInTwoHalvesMinimumBytes else { return nil }
        let middle = range.lowerBound + range.count / 2
        return itemStart(in: bytes, after: middle, before: min(range.upperBound, middle + searchLength))
    }

    /// Starts looking at the items of `bytes` from `start`. `bytes` must stay valid until
    /// `finish()` returns, and `finish()` must be called.
    init(bytes: UnsafeBufferPointer<UInt8>, start: Int) {
        self.start = start
        work = BackgroundWork { Self.scan(bytes, from: start) }
    }

    /// Waits for the scan to end. The items found, in order, and where the last one ends.
    package func finish() -> (items: [WrittenItem], end: Int) {
        work.result()
    }

    /// Stops the scan from beginning, or waits for it to end, when its items are not wanted (the
    /// reader never came to them). `finish()` may not be called after.
    package func cancel() {
        work.cancel()
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (items: [WrittenItem], end: Int) {
        var found: [WrittenItem] = []
        var end = start
        guard (0..<bytes.count).contains(start) else { return (found, end) }
        var scanner = JSONScanner(bytes: bytes)
        scanner.index = start
        found.reserveCapacity((bytes.count - start) / 100)
        while let item = WrittenFormReader.item(&scanner) {
            found.append(item)
            end = scanner.index
            // Items are separated as in any JSON array.
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: ",")) else { break }
            scanner.skipWhitespace()
        }
        return (found, end)
    }

    /// The first `{` from `index` on that follows a comma and white space (how items are
    /// separated in an array), before `limit`.
    private static func itemStart(in bytes: UnsafeBufferPointer<UInt8>, after index: Int, before limit: Int) -> Int? {
        var index = index
        while index + 1 < limit {
            if bytes[index] == UInt8(ascii: ",") {
                var brace = index + 1
                while brace < limit, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[brace]) { brace += 1 }
                if brace < limit, bytes[brace] == UInt8(ascii: "{") { return brace }
            }
            index += 1
        }
        return nil
    }
}
