/// Percent-encoding (RFC 3986), as URLs and todo.txt tags use it.
package enum PercentEncoding {
    /// `text` with every UTF-8 byte of the scalars `shouldEncode` picks written as `%XX`.
    package static func encoded(_ text: String, where shouldEncode: (Unicode.Scalar) -> Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            guard shouldEncode(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            var escaped: [UInt8] = []
            for byte in String(scalar).utf8 { appendEscaped(byte, to: &escaped) }
            result += String(decoding: escaped, as: UTF8.self)
        }
        return result
    }

    /// Appends `byte` as an escape, `%XX` in upper case.
    package static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes += [UInt8(ascii: "%"), HexDigit.upperCase[Int(byte >> 4)], HexDigit.upperCase[Int(byte & 15)]]
    }

    /// Calls `body` with each byte of `bytes` in order: an escape `%XX` as the byte it stands for,
    /// with `true`; any other byte (a `%` that begins no escape too) as itself, with `false`.
    package static func forEachByte(of bytes: [UInt8], _ body: (_ byte: UInt8, _ wasEscaped: Bool) -> Void) {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = HexDigit.value(bytes[index + 1]), let low = HexDigit.value(bytes[index + 2])
            {
                body(high << 4 | low, true)
                index += 3
            } else {
                body(bytes[index], false)
                index += 1
            }
        }
    }
}

extension PercentEncoding {
    /// `text` with each escape `%XX` as the byte it stands for; `nil` when a `%` begins no escape
    /// or the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
    package static func decoded(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        var unescapedPercent = false
        forEachByte(of: Array(text.utf8)) { byte, wasEscaped in
            if !wasEscaped, byte == UInt8(ascii: "%") { unescapedPercent = true }
            bytes.append(byte)
        }
        guard !unescapedPercent else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
