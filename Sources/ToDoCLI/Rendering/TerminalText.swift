/// Text from the list or the command line made safe to show on a terminal: control characters,
/// which could move the cursor or change colours, are shown in caret notation (`^[`, `^@`), and the
/// C1 controls as `�`.
enum TerminalText {
    static func printable(_ text: String) -> String {
        var text = text
        guard text.withUTF8(mayHaveControls), text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: result += "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F: result += "^?"
            case 0x80..<0xA0: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether UTF-8 `bytes` may hold a control character: in UTF-8 the controls are the bytes
    /// below 0x20, 0x7F, and 0xC2 followed by 0x80...0x9F. Looking for those bytes is quicker than
    /// decoding every scalar of every title; `false` means there is none.
    static func mayHaveControls(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }

    /// Whether UTF-8 `bytes` are all printable ASCII: shown as they are, a column each.
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 &- 0x20 < 0x5F }
    }

    /// `printable` applied line by line, keeping the line breaks of a multi-line text.
    /// A line may end in CR LF (iCalendar's line break), kept as it is.
    static func printableLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? printable(String(line.dropLast())) + "\r" : printable(String(line))
        }.joined(separator: "\n")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }
}
