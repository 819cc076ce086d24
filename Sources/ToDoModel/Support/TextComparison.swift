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
        part.isEmpty || comparable(text).containsText(comparable(part))
    }

    /// `left` against `right` ignoring case, a run of digits against a run of digits by its
    /// value (`Item 9` before `item 10`), letters in their decomposed form (`é` as `e` and its
    /// accent: `éclair` before `Item`), as Foundation's `compare(_:options: [.caseInsensitive, .numeric])`.
    public static func compare(_ left: String, _ right: String) -> ComparisonResult {
        let left = Array(comparable(left).unicodeScalars), right = Array(comparable(right).unicodeScalars)
        var i = 0, j = 0
        while i < left.count, j < right.count {
            if isDigit(left[i]), isDigit(right[j]) {
                let leftEnd = left[i...].firstIndex { !isDigit($0) } ?? left.count
                let rightEnd = right[j...].firstIndex { !isDigit($0) } ?? right.count
                let order = compareNumbers(left[i..<leftEnd], right[j..<rightEnd])
                if order != .orderedSame { return order }
                (i, j) = (leftEnd, rightEnd)
            } else {
                if left[i] != right[j] {
                    return left[i].value < right[j].value ? .orderedAscending : .orderedDescending
                }
                (i, j) = (i + 1, j + 1)
            }
        }
        let leftLeft = left.count - i, rightLeft = right.count - j
        return leftLeft == rightLeft ? .orderedSame : leftLeft < rightLeft ? .orderedAscending : .orderedDescending
    }

    /// The form text is compared in: case folded (upper case, then lower: `ß` and `SS`, `ς` and `Σ`
    /// alike) and canonically decomposed (`é` as `e` and its accent). ASCII text needs only lower case.
    private static func comparable(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text.uppercased().lowercased()._nfd)
        return String(result)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func compareNumbers(
        _ left: ArraySlice<Unicode.Scalar>, _ right: ArraySlice<Unicode.Scalar>
    ) -> ComparisonResult {
        let left = left.drop { $0 == "0" }, right = right.drop { $0 == "0" }
        if left.count != right.count { return left.count < right.count ? .orderedAscending : .orderedDescending }
        for (a, b) in zip(left, right) where a != b {
            return a.value < b.value ? .orderedAscending : .orderedDescending
        }
        return .orderedSame
    }
}
