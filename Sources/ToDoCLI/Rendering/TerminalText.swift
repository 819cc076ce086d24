/// Text from the list or the command line made safe to show on a terminal: control characters,
/// which could move the cursor or change colours, are shown in caret notation (`^[`, `^@`), and the
/// C1 controls as `�`.
enum TerminalText {
    static func printable(_ text: String) -> String {
        guard mayHaveControls(text.utf8), text.unicodeScalars.contains(where: isControl) else { return text }
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
    static func mayHaveControls(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }

    /// Whether UTF-8 `bytes` are all printable ASCII: shown as they are, a column each.
    static func isPlainASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
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

/// How many terminal columns text takes, as terminals draw it: East Asian wide and fullwidth
/// characters and emoji take two, combining marks and other zero-width characters none, the rest
/// one. Counted per grapheme cluster, so that an emoji sequence (`👨‍👩‍👧`, a flag) or a letter with
/// its accents is one character of one width.
enum DisplayWidth {
    /// The width of UTF-8 text without controls: counted from its bytes when every character is
    /// below U+0300 (Latin, as `Grüße an Jörg`), where each takes one column; else by `of(_:)`.
    static func of(_ text: ArraySlice<UInt8>) -> Int {
        // Lead bytes from 0xCC start U+0300 and above: combining marks, CJK, emoji.
        guard text.allSatisfy({ $0 < 0xCC }) else { return of(String(decoding: text, as: UTF8.self)) }
        return text.reduce(0) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 }
    }

    static func of(_ text: String) -> Int {
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        // An emoji presentation selector makes a text-style symbol (☀, ❤) an emoji.
        if first.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") { return 2 }
        if isWide(first.value) { return 2 }
        // A soft hyphen is drawn, as the C library's wcwidth says.
        if first == "\u{AD}" { return 1 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// The start of `text` that fits in `width` columns, ending in `…` when anything was cut.
    static func cut(_ text: String, to width: Int) -> (text: String, width: Int) {
        let whole = of(text)
        guard whole > width else { return (text, whole) }
        guard width > 0 else { return ("", 0) }
        var kept = "", keptWidth = 0
        for character in text {
            let next = of(character)
            if keptWidth + next > width - 1 { break }
            kept.append(character)
            keptWidth += next
        }
        return (kept + "…", keptWidth + 1)
    }

    /// East Asian Width W and F (Unicode 15.1) outside the emoji, which `isEmojiPresentation` tells.
    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD
    ]
}
