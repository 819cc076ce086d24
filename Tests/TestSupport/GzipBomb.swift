/// A gzip stream that inflates to far more than it weighs: spaces, as a literal and then matches
/// of 258 bytes at distance 1 in one fixed-Huffman DEFLATE block (13 bits for every 258 bytes).
/// Written here so that the tests need no compressor; the trailer's checksum is not computed,
/// since a client that takes the bomb whole has already failed.
public enum GzipBomb {
    public static func make(inflatedSize: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]
        writer.write(1, count: 1) // the final block
        writer.write(1, count: 2) // fixed Huffman codes
        writer.writeCode(0x30 + 0x20, count: 8) // the literal ' '
        for _ in 0..<((inflatedSize - 1) / 258) {
            writer.writeCode(0xC0 + 5, count: 8) // length 258 (code 285)
            writer.writeCode(0, count: 5) // distance 1 (code 0)
        }
        writer.writeCode(0, count: 7) // end of block
        writer.flush()
        let size = UInt32(truncatingIfNeeded: 1 + (inflatedSize - 1) / 258 * 258)
        writer.bytes += [0, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
        return writer.bytes
    }

    /// DEFLATE's bit order: values least significant bit first, Huffman codes most significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var pending: UInt64 = 0
        private var pendingCount = 0

        mutating func write(_ value: UInt64, count: Int) {
            pending |= value << UInt64(pendingCount)
            pendingCount += count
            while pendingCount >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                pendingCount -= 8
            }
        }

        mutating func writeCode(_ code: UInt64, count: Int) {
            var reversed: UInt64 = 0
            for bit in 0..<count where code & (1 << UInt64(bit)) != 0 { reversed |= 1 << UInt64(count - 1 - bit) }
            write(reversed, count: count)
        }

        mutating func flush() {
            if pendingCount > 0 { write(0, count: 8 - pendingCount) }
        }
    }
}
