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

    /// `CharacterSet.whitespacesAndNewlines`: Unicode's White_Space (the spaces, line and
    /// paragraph separators, U+000A to U+000D and U+0085), and U+200B.
    public static func isSpaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == zeroWidthSpace
    }

    /// `text` without the spaces (`isSpace`) at either end.
    public static func trimmingSpaces(_ text: some StringProtocol) -> String {
        let scalars = Substring(text).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}
