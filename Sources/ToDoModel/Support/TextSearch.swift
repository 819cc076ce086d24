/// Finding and replacing text by its UTF-8 bytes. The standard library's `contains(_:)`,
/// `firstRange(of:)` and `replacing(_:with:)` for strings live in `_StringProcessing`, which brings
/// the whole regex engine (800 KB) into the binary with its first use.
extension StringProtocol {
    /// Where `part` first occurs, byte for byte; `nil` when it does not (or is empty).
    package func occurrence(of part: some StringProtocol) -> Range<Index>? {
        let text = utf8, needle = Array(part.utf8)
        guard let first = needle.first, needle.count <= text.count else { return nil }
        var start = text.startIndex
        while let candidate = text[start...].firstIndex(of: first) {
            var matched = 1, position = text.index(after: candidate)
            while matched < needle.count, position != text.endIndex, text[position] == needle[matched] {
                matched += 1
                position = text.index(after: position)
            }
            if matched == needle.count { return candidate..<position }
            guard position != text.endIndex || matched == 0 else { return nil }
            start = text.index(after: candidate)
        }
        return nil
    }

    /// Whether `part` occurs, byte for byte.
    package func containsText(_ part: some StringProtocol) -> Bool {
        part.isEmpty || occurrence(of: part) != nil
    }
}

extension String {
    /// The text with every occurrence of `old` (not empty) replaced by `new`, left to right.
    package func replacingText(_ old: String, with new: String) -> String {
        guard occurrence(of: old) != nil else { return self }
        var result = "", rest = self[...]
        while let found = rest.occurrence(of: old) {
            result += rest[..<found.lowerBound] + new
            rest = rest[found.upperBound...]
        }
        return result + rest
    }
}
