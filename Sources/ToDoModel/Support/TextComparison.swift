// The standard library's canonical decomposition (NFD), which Foundation's comparison works on.
@_spi(_Unicode) import Swift
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How titles are searched and sorted, without ICU (Foundation's `range(of:options:)` and
/// `compare(_:options:)` are not in FoundationEssentials): letters ignoring case, numbers by value.
public enum TextComparison {
    /// Whether `text` contains `part`, ignoring case (`ß` matches `SS`, as full case folding does).
    public static func contains(_ text: String, ignoringCase part: String) -> Bool {
        if part.isEmpty { return true }
        let textBytes = text.utf8, partBytes = part.utf8
        if textBytes.allSatisfy({ $0 < 0x80 }), partBytes.allSatisfy({ $0 < 0x80 }) {
            return containsASCII(Array(textBytes), Array(partBytes))
        }
        return decomposed(folded(text)).containsText(decomposed(folded(part)))
    }

    /// `left` against `right` ignoring case, a run of digits against a run of digits by its
    /// value (`Item 9` before `item 10`), letters in their decomposed form (`é` as `e` and its
    /// accent: `éclair` before `Item`), as Foundation's `compare(_:options: [.caseInsensitive, .numeric])`.
    public static func compare(_ left: String, _ right: String) -> ComparisonResult {
        let left = Array(folded(left)._nfd), right = Array(folded(right)._nfd)
        var i = 0, j = 0
        while i < left.count, j < right.count {
            if isDigit(left[i]), isDigit(right[j]) {
                let leftEnd = left[i...].firstIndex { !isDigit($0) } ?? left.count
                let rightEnd = right[j...].firstIndex { !isDigit($0) } ?? right.count
                let order = compareNumbers(left[i..<leftEnd], right[j..<rightEnd])
                if order != .orderedSame { return order }
                (i, j) = (leftEnd, rightEnd)
            } else {
                if left[i] != right[j] { return left[i].value < right[j].value ? .orderedAscending : .orderedDescending }
                (i, j) = (i + 1, j + 1)
            }
        }
        let leftLeft = left.count - i, rightLeft = right.count - j
        return leftLeft == rightLeft ? .orderedSame : leftLeft < rightLeft ? .orderedAscending : .orderedDescending
    }

    /// The canonical decomposition (NFD): one spelling of text that Unicode calls the same.
    private static func decomposed(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text._nfd)
        return String(result)
    }

    /// Upper case, then lower: a fold that takes `ß` and `SS`, `ς` and `Σ` alike.
    private static func folded(_ text: String) -> String {
        text.uppercased().lowercased()
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func compareNumbers(_ left: ArraySlice<Unicode.Scalar>, _ right: ArraySlice<Unicode.Scalar>) -> ComparisonResult {
        let left = left.drop { $0 == "0" }, right = right.drop { $0 == "0" }
        if left.count != right.count { return left.count < right.count ? .orderedAscending : .orderedDescending }
        for (a, b) in zip(left, right) where a != b { return a.value < b.value ? .orderedAscending : .orderedDescending }
        return .orderedSame
    }

    private static func containsASCII(_ text: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= text.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let part = part.map(lower)
        for start in 0...(text.count - part.count) where lower(text[start]) == part[0] {
            var matched = 1
            while matched < part.count, lower(text[start + matched]) == part[matched] { matched += 1 }
            if matched == part.count { return true }
        }
        return false
    }
}
