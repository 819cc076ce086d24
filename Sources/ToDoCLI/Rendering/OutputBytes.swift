/// Bytes for an output, gathered in a buffer of its own and handed on whenever it fills: a long
/// list is written without a `String` per cell and without holding the whole text in memory.
struct OutputBytes {
    private static let capacity = 1 << 16
    private let output: TextOutput
    private var buffer: [UInt8] = []

    /// Bytes for `output`; whoever makes one calls `flush()` when done. A value, passed `inout`,
    /// so that appending a byte costs no check of exclusive access at run time.
    init(_ output: TextOutput) {
        self.output = output
        buffer.reserveCapacity(Self.capacity)
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        if bytes.count > Self.capacity - buffer.count {
            flush()
            guard bytes.count <= Self.capacity else { return output.write(bytes: Array(bytes)) }
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        if bytes.count > Self.capacity - buffer.count {
            flush()
            guard bytes.count <= Self.capacity else { return output.write(bytes: bytes) }
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ text: String) {
        if text.utf8.count > Self.capacity - buffer.count { flush() }
        buffer.append(contentsOf: text.utf8)
    }

    mutating func append(_ byte: UInt8) {
        if buffer.count == Self.capacity { flush() }
        buffer.append(byte)
    }

    /// `count` spaces, or none when it is not positive.
    mutating func append(spaces: Int) {
        guard spaces > 0 else { return }
        if spaces > Self.capacity - buffer.count { flush() }
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
    }

    /// The decimal digits of a number that is not negative, without making a `String`.
    mutating func append(digitsOf number: Int) {
        var divisor = 1
        while divisor <= number / 10 { divisor *= 10 }
        if 20 > Self.capacity - buffer.count { flush() }
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(number / divisor % 10))
            divisor /= 10
        }
    }

    /// Hands what was gathered to the output.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        output.write(bytes: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// How many decimal digits `append(digitsOf:)` writes for `number`.
    static func digitCount(of number: Int) -> Int {
        var value = number, count = 1
        while value >= 10 {
            value /= 10
            count += 1
        }
        return count
    }
}
