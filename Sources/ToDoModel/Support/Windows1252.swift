/// Windows' Latin code page (ISO 8859-1 with printable characters at 0x80 to 0x9F), in which every
/// byte is a character: what text that is not UTF-8 is read as, since older programs wrote it.
package enum Windows1252 {
    /// The characters of 0x80 to 0x9F; the five bytes Windows leaves undefined stand for the C1
    /// control of their value, as Python's and WHATWG's decoders have them.
    private static let high: [Unicode.Scalar] = [
        "\u{20AC}", "\u{81}", "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", "\u{8D}", "\u{017D}", "\u{8F}",
        "\u{90}", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", "\u{9D}", "\u{017E}", "\u{0178}"
    ]

    /// The text of `bytes`, each byte one character.
    package static func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text = String.UnicodeScalarView()
        for byte in bytes {
            text.append((0x80...0x9F).contains(byte) ? high[Int(byte - 0x80)] : Unicode.Scalar(byte))
        }
        return String(text)
    }

    /// The text of `bytes` as UTF-8 when they are, else as Windows-1252.
    package static func decodeUTF8OrLatin<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(validating: bytes, as: UTF8.self) ?? decode(bytes)
    }
}
