import ToDoModel

extension UUID {
    /// Reads the canonical 36-character form in either letter case, as `UUID(uuidString:)` does,
    /// without the `sscanf` that Foundation uses for it on Linux (a tenth of the time to read a list).
    package init?(canonical text: String) {
        var text = text
        guard let id = text.withUTF8({ UUID(canonical: $0) }) else { return nil }
        self = id
    }

    /// Reads the canonical form from its UTF-8 bytes; with `upperCaseOnly`, only with the hex
    /// letters in upper case (as `uuidString` and the store write them). The 32 digits are read
    /// eight at a time (`hexWord`): every item of a list has an id.
    init?(canonical text: UnsafeBufferPointer<UInt8>, upperCaseOnly: Bool = false) {
        guard text.count == 36, let base = text.baseAddress,
            base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
            base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-")
        else { return nil }
        let raw = UnsafeRawPointer(base)
        func load(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func load4(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // Digits 1-8, 9-12 and 13-16 (around a dash), 17-20 and 21-24, 25-32.
        guard let first = Self.hexWord(load(0), upperCaseOnly),
            let second = Self.hexWord(load4(9) | load4(14) << 32, upperCaseOnly),
            let third = Self.hexWord(load4(19) | load4(24) << 32, upperCaseOnly),
            let fourth = Self.hexWord(load(28), upperCaseOnly)
        else { return nil }
        // The 16 bytes in order, loaded as the id (`init(bytesAt:)`): `init(uuid:)` takes them one by one.
        let bytes = (
            (UInt64(first) | UInt64(second) << 32).littleEndian, (UInt64(third) | UInt64(fourth) << 32).littleEndian
        )
        self = withUnsafeBytes(of: bytes) { UUID(bytesAt: $0.baseAddress!) }
    }

    /// The id whose 16 bytes (`uuid`) are at `bytes`, loaded as they are: an index (`ListIndex`)
    /// holds one for each of 100,000 items, and `init(uuid:)` takes its 16 bytes one by one.
    init(bytesAt bytes: UnsafeRawPointer) {
        self = bytes.loadUnaligned(as: UUID.self)
    }

    /// The four bytes that eight hex digits stand for (the first digit in the lowest byte of
    /// `word`, the first byte in the lowest byte of the result), or `nil` when any is not a hex
    /// digit. All eight are checked and converted at once: for bytes below 0x80, adding
    /// 0x80 - `low` sets a byte's top bit exactly when it is at least `low`, without carries.
    @inline(__always)
    package static func hexWord(_ word: UInt64, _ upperCaseOnly: Bool) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits = ones &* 0x80
        guard word & highBits == 0 else { return nil }
        func within(_ bytes: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
            (bytes &+ ones &* (0x80 - low)) & ~(bytes &+ ones &* (0x7F - high)) & highBits
        }
        let digits = within(word, 0x30, 0x39)
        let letters = upperCaseOnly ? within(word, 0x41, 0x46) : within(word | ones &* 0x20, 0x61, 0x66)
        guard digits | letters == highBits else { return nil }
        // Each byte's value: its low four bits, plus 9 for a letter ('A' is 0x41).
        let nibbles = (word & (ones &* 0x0F)) &+ (letters >> 7) &* 9
        // Pairs of digits into bytes (in the even bytes), then those four bytes side by side.
        var packed = (nibbles << 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        packed = packed | packed >> 16
        return UInt32(truncatingIfNeeded: packed)
    }
}
