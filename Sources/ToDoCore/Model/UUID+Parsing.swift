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
        guard text.count == 36, let base = text.baseAddress,
              base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
              base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-")
        else { return nil }
        var value = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { output -> Bool in
            var position = 0
            for byteIndex in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 { position += 1 }
                let high = Self.hexValues[Int(base[position])], low = Self.hexValues[Int(base[position + 1])]
                guard high < 16, low < 16 else { return false }
                output[byteIndex] = high << 4 | low
                position += 2
            }
            return true
        }
        guard valid else { return nil }
        self.init(uuid: value)
    }

    /// The value of each hex digit by its ASCII code; 0xFF for everything else.
    private static let hexValues: [UInt8] = (0..<256).map { code in
        switch UInt8(code) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(code) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(code) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt8(code) - UInt8(ascii: "A") + 10
        default: return 0xFF
        }
    }
}
