/// Bytes for an output (the CLI's, `OutputBytes(_:)` there), gathered in a buffer of its own and handed on whenever it fills: a long
/// list is written without a `String` per cell and without holding the whole text in memory.
/// Unsafe inside: the buffer is memory this value allocates and frees itself, never shared (the
/// value cannot be copied), so that appending a cell is a copy of its bytes, not an array's
/// checks of capacity and sharing, byte by byte.
package struct OutputBytes: ~Copyable {
    private static let capacity = 1 << 16
    private let write: ([UInt8]) -> Void
    private let start: UnsafeMutablePointer<UInt8>
    private var count = 0

    /// Bytes handed to `write` as they fill the buffer; whoever makes one calls `flush()` when
    /// done. Passed `inout`, so that appending a byte costs no check of exclusive access at run time.
    package init(flushingTo write: @escaping ([UInt8]) -> Void) {
        self.write = write
        start = .allocate(capacity: Self.capacity)
    }

    deinit {
        start.deallocate()
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if bytes.count > Self.capacity - count {
            flush()
            guard bytes.count <= Self.capacity else { return write(Array(bytes)) }
        }
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    package mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    package mutating func append(_ byte: UInt8) {
        if count == Self.capacity { flush() }
        start[count] = byte
        count += 1
    }

    /// `count` spaces, or none when it is not positive.
    package mutating func append(spaces: Int) {
        var left = spaces
        while left > 0 {
            if count == Self.capacity { flush() }
            let written = min(left, Self.capacity - count)
            (start + count).update(repeating: UInt8(ascii: " "), count: written)
            count += written
            left -= written
        }
    }

    /// The decimal digits of a number that is not negative, without making a `String`.
    package mutating func append(digitsOf number: Int) {
        var divisor = 1
        while divisor <= number / 10 { divisor *= 10 }
        if 20 > Self.capacity - count { flush() }
        while divisor > 0 {
            start[count] = UInt8(ascii: "0") + UInt8(number / divisor % 10)
            count += 1
            divisor /= 10
        }
    }

    /// Hands what was gathered to the output.
    package mutating func flush() {
        guard count > 0 else { return }
        write(Array(UnsafeBufferPointer(start: start, count: count)))
        count = 0
    }

    /// How many decimal digits `append(digitsOf:)` writes for `number`.
    package static func digitCount(of number: Int) -> Int {
        var value = number, count = 1
        while value >= 10 {
            value /= 10
            count += 1
        }
        return count
    }
}
