import Foundation

extension UUID {
    /// Reads the canonical 36-character form in either letter case, as `UUID(uuidString:)` does,
    /// without the `sscanf` that Foundation uses for it on Linux (a tenth of the time to read a list).
    init?(canonical text: String) {
        var text = text
        guard let id = text.withUTF8({ UUID(canonical: $0) }) else { return nil }
        self = id
    }

    /// Reads the canonical form from its UTF-8 bytes; with `upperCaseOnly`, only with the hex
    /// letters in upper case (as `uuidString` and the store write them).
    init?(canonical text: UnsafeBufferPointer<UInt8>, upperCaseOnly: Bool = false) {
        guard text.count == 36, let base = text.baseAddress,
              base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
              base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-")
        else { return nil }
        var value = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Every digit's value is or-ed in: 0xFF, for anything but a hex digit, shows at the end.
        var digits: UInt8 = 0
        withUnsafeMutableBytes(of: &value) { output in
            var position = 0
            for byteIndex in 0..<16 {
                if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 { position += 1 }
                let high = Self.hexValue(base[position], upperCaseOnly), low = Self.hexValue(base[position + 1], upperCaseOnly)
                digits |= high | low
                output[byteIndex] = high << 4 | low
                position += 2
            }
        }
        guard digits < 16 else { return nil }
        self.init(uuid: value)
    }

    /// The value of a hex digit, 0xFF for any other byte.
    @inline(__always)
    private static func hexValue(_ byte: UInt8, _ upperCaseOnly: Bool) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (upperCaseOnly ? byte : byte | 0x20) &- (upperCaseOnly ? UInt8(ascii: "A") : UInt8(ascii: "a"))
        return letter < 6 ? letter + 10 : 0xFF
    }
}
