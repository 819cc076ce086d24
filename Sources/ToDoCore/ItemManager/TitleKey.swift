/// A number that is the same for any two titles `==` calls equal, made without `String`'s seeded
/// hash and, for a title still in its written form, without making a `String` at all: adding an
/// item looks up the titles of every open item.
///
/// `String` equality is canonical equivalence. A title whose normalized form is plain ASCII is
/// keyed by those bytes: ASCII text is its own normalized form, and the only other characters that
/// normalize to ASCII are the three in `asciiEquivalents` (a test checks every Unicode scalar), so
/// replacing them gives the normalized form. Any other title is keyed by `String`'s own hash, which
/// hashes the normalized form; it never equals an ASCII title. Unequal titles may share a key: the
/// key only says which titles need comparing.
enum TitleKey {
    /// The non-ASCII scalars whose canonical decomposition is ASCII: KELVIN SIGN, GREEK QUESTION
    /// MARK and GREEK VARIA.
    static let asciiEquivalents: [UInt32: UInt8] = [0x212A: UInt8(ascii: "K"), 0x037E: UInt8(ascii: ";"), 0x1FEF: UInt8(ascii: "`")]

    static func key(of title: String) -> Int {
        var title = title
        return title.withUTF8(keyIfASCII) ?? nonASCIIKey(title)
    }

    /// The key of the title with these UTF-8 bytes.
    static func key(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        keyIfASCII(bytes) ?? nonASCIIKey(String(decoding: bytes, as: UTF8.self))
    }

    private static func keyIfASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.allSatisfy { $0 < 0x80 } ? asciiKey(bytes) : nil
    }

    /// The key of a title that is not ASCII as written: its normalized ASCII bytes when it has
    /// them, else `String`'s hash.
    private static func nonASCIIKey(_ title: String) -> Int {
        var folded: [UInt8] = []
        for scalar in title.unicodeScalars {
            if scalar.isASCII {
                folded.append(UInt8(scalar.value))
            } else if let ascii = asciiEquivalents[scalar.value] {
                folded.append(ascii)
            } else {
                return title.hashValue
            }
        }
        return folded.withUnsafeBufferPointer(asciiKey)
    }

    /// The key of a title that is the ASCII `bytes`: FNV-1a over eight bytes at a time.
    static func asciiKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var offset = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while bytes.count - offset >= 8 {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
        hash = (hash ^ tail ^ UInt64(bytes.count) << 56) &* 0x0000_0100_0000_01B3
        return Int(truncatingIfNeeded: hash ^ hash >> 29)
    }
}
