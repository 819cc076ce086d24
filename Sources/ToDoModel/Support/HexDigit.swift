/// Hexadecimal digits as bytes: what `\u` escapes of JSON and `%XX` escapes of URLs are written in.
package enum HexDigit {
    /// The digits 0 to F, upper case (`%2F`, as RFC 3986 prefers).
    package static let upperCase = Array("0123456789ABCDEF".utf8)

    /// The value of a hex digit in either case; `nil` for any other byte.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// A 64-bit digest as the list's files spell it: 16 upper-case hexadecimal digits.
    package static func digestText(_ digest: UInt64) -> String {
        String(
            decoding: stride(from: 60, through: 0, by: -4).map { upperCase[Int(digest >> UInt64($0) & 0xF)] },
            as: UTF8.self)
    }

    /// The digest `digestText` spells; `nil` for anything but 16 hexadecimal digits.
    package static func digest(_ text: String) -> UInt64? {
        digest(spelledBy: text.utf8)
    }

    /// The digest 16 hexadecimal digits spell, as bytes (a line's own digest, read in place).
    package static func digest(spelledBy bytes: some Collection<UInt8>) -> UInt64? {
        guard bytes.count == 16 else { return nil }
        var digest: UInt64 = 0
        for byte in bytes {
            guard let value = value(byte) else { return nil }
            digest = digest << 4 | UInt64(value)
        }
        return digest
    }
}
