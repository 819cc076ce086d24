import Foundation

extension UUID {
    /// Reads the canonical 36-character form in either letter case, as `UUID(uuidString:)` does,
    /// without the `sscanf` that Foundation uses for it on Linux (a tenth of the time to read a list).
    init?(canonical text: String) {
        var text = text
        guard let id = text.withUTF8({ UUID(canonical: $0) }) else { return nil }
        self = id
    }

    /// Reads the canonical form from its UTF-8 bytes.
    init?(canonical text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        var nibbles = 0
        for (position, character) in text.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if nibbles < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            nibbles += 1
        }
        let h = high.bigEndian, l = low.bigEndian
        var value = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            withUnsafeBytes(of: h) { raw.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 8) }
            withUnsafeBytes(of: l) { (raw.baseAddress! + 8).copyMemory(from: $0.baseAddress!, byteCount: 8) }
        }
        self.init(uuid: value)
    }
}
