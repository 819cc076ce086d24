/// Up to 16 bytes held inline, as two words: a value with no reference to count, so that a
/// row of the list that holds one (the due date's text) copies as plain bytes.
package struct ShortBytes: Sendable {
    package static let capacity = 16
    private var words: (UInt64, UInt64) = (0, 0)
    /// How many bytes it holds.
    package private(set) var count = 0

    package init() {}

    /// The first `capacity` bytes of `bytes`.
    package init(_ bytes: ArraySlice<UInt8>) {
        count = min(bytes.count, Self.capacity)
        for (offset, byte) in bytes.prefix(count).enumerated() {
            if offset < 8 {
                words.0 |= UInt64(byte) << (8 * offset)
            } else {
                words.1 |= UInt64(byte) << (8 * (offset - 8))
            }
        }
    }

    /// Appends the bytes to `array`.
    package func append(to array: inout [UInt8]) {
        for offset in 0..<count {
            array.append(UInt8(truncatingIfNeeded: (offset < 8 ? words.0 : words.1) >> (8 * (offset % 8))))
        }
    }
}
