/// Bytes for an output, gathered in a buffer of its own and handed on whenever it fills: a long
/// list is written without a `String` per cell and without holding the whole text in memory.
final class OutputBytes {
    private static let capacity = 1 << 16
    private let output: TextOutput
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    private var count = 0

    init(_ output: TextOutput) {
        self.output = output
    }

    deinit {
        flush()
        buffer.deallocate()
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        if bytes.count > Self.capacity - count {
            flush()
            guard bytes.count <= Self.capacity else { return output.write(bytes: Array(bytes)) }
        }
        (buffer + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    func append(_ bytes: [UInt8]) {
        guard bytes.count > Self.capacity - count else { return bytes.withUnsafeBufferPointer(append) }
        flush()
        output.write(bytes: bytes)
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer(append)
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8(append)
    }

    func append(_ byte: UInt8) {
        if count == Self.capacity { flush() }
        buffer[count] = byte
        count += 1
    }

    /// `count` spaces, or none when it is not positive.
    func append(spaces: Int) {
        guard spaces > 0 else { return }
        if spaces > Self.capacity - count {
            flush()
            guard spaces <= Self.capacity else { return output.write(bytes: Array(repeating: UInt8(ascii: " "), count: spaces)) }
        }
        (buffer + count).initialize(repeating: UInt8(ascii: " "), count: spaces)
        count += spaces
    }

    /// Calls `body` with the decimal digits of a number that is not negative, without making a
    /// `String`.
    static func withDigits(of number: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var value = UInt(number), start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Hands what was gathered to the output.
    func flush() {
        guard count > 0 else { return }
        output.write(bytes: Array(UnsafeBufferPointer(start: buffer, count: count)))
        count = 0
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
