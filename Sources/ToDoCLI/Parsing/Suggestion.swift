/// Finds the candidate nearest to a mistyped word, for "Did you mean '…'?".
enum Suggestion {
    /// The candidate within a small edit distance of `word` (two edits, or one for words of one or two characters),
    /// preferring the nearest and then the earliest; `nil` when none is close.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        nearest(to: word, among: candidates.map { ($0, 2) })
    }

    /// The same, each candidate with the most edits it may be away (fewer for short words).
    static func nearest(to word: String, among candidates: [(String, Int)]) -> String? {
        var best: (candidate: String, distance: Int)?
        for (candidate, most) in candidates {
            let limit = min(word.count <= 2 ? 1 : 2, most)
            let distance = editDistance(word, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The number of single-character insertions, deletions, substitutions and swaps of adjacent
    /// characters that turn `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
