/// White space as Foundation's `CharacterSet.whitespaces` and `.whitespacesAndNewlines` define
/// it, found without Foundation: its `trimmingCharacters` goes through `NSString`, whose first use
/// in a process costs more than a whole command (tests compare every scalar with `CharacterSet`).
public enum Whitespace {
    /// ZERO WIDTH SPACE: no longer a space separator in Unicode, still one in Foundation's sets.
    private static let zeroWidthSpace: Unicode.Scalar = "\u{200B}"

    /// `CharacterSet.whitespaces`: the space separators (Zs), the tab and U+200B.
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator || scalar == zeroWidthSpace
    }

    /// A control character (C0, DEL or C1): a line break or an escape, never part of one line of text.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `CharacterSet.whitespacesAndNewlines`: Unicode's White_Space (the spaces, line and
    /// paragraph separators, U+000A to U+000D and U+0085), and U+200B.
    public static func isSpaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == zeroWidthSpace
    }

    /// `text` without the spaces (`isSpace`) at either end.
    public static func trimmingSpaces(_ text: some StringProtocol) -> String {
        trimming(text, where: isSpace)
    }

    /// `text` without spaces and line breaks (`isSpaceOrNewline`) at either end.
    public static func trimmingSpacesAndNewlines(_ text: some StringProtocol) -> String {
        trimming(text, where: isSpaceOrNewline)
    }

    private static func trimming(_ text: some StringProtocol, where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        // Most text starts and ends with a visible ASCII character: nothing to look up.
        let text = Substring(text)
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first),
            (0x21...0x7E).contains(last)
        {
            return String(text)
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return String(text) }
        return String(Substring(scalars[first...last]))
    }
}
