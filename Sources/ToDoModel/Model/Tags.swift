/// The rules of an item's tags: each one word, none repeated ignoring case.
public enum Tags {
    /// A tag is one word: not empty, without white space or control characters, so that it reads
    /// back from todo.txt's `+tag` and Taskwarrior's tags as it was.
    public static func isValid(_ tag: String) -> Bool {
        !tag.isEmpty
            && !tag.unicodeScalars.contains {
                Whitespace.isSpaceOrNewline($0) || $0.properties.generalCategory == .control
            }
    }

    /// `tags` without repeats, compared ignoring case: the first spelling stays, in the order given.
    public static func normalized(_ tags: [String]) -> [String] {
        var seen = Set<String>(), kept: [String] = []
        for tag in tags where seen.insert(tag.lowercased()).inserted { kept.append(tag) }
        return kept
    }

    /// Another program's tag or category as a tag: trimmed, each run of white space or control
    /// characters inside it a `-` (`Work stuff` is `Work-stuff`); empty when nothing is left.
    public static func asTag(_ text: String) -> String {
        var tag = "", pendingDash = false
        for scalar in text.unicodeScalars {
            if Whitespace.isSpaceOrNewline(scalar) || scalar.properties.generalCategory == .control {
                pendingDash = !tag.isEmpty
            } else {
                if pendingDash { tag += "-" }
                pendingDash = false
                tag.unicodeScalars.append(scalar)
            }
        }
        return tag
    }

    /// The tag a `+tag` or `@context` word names (`-tag` too, which takes it away, when
    /// `readsRemoval`); `nil` for any other word. A sign and a number (`+1`, `-5`) and a sign
    /// alone are words, not tags; a context keeps its `@` (`@phone` is the tag `@phone`).
    public static func tag(inWord word: String, readsRemoval: Bool = false) -> (tag: String, removes: Bool)? {
        guard let first = word.first, first == "+" || first == "@" || (readsRemoval && first == "-"), word.count > 1
        else { return nil }
        let tag = first == "@" ? word : String(word.dropFirst())
        let body = first == "@" ? tag.dropFirst() : Substring(tag)
        guard isValid(tag), let start = body.first, start.isLetter || start.isNumber, !body.allSatisfy(\.isNumber)
        else { return nil }
        return (tag, first == "-")
    }

    /// A tag as todo shows it and todo.txt writes it: `+home`; a context (`@phone`, todo.txt's
    /// kind of tag) as it is.
    public static func shown(_ tag: String) -> String {
        tag.hasPrefix("@") ? tag : "+" + tag
    }

    /// `tags` without those the title holds as words (`+family` in `Call Mom +family`, as a
    /// todo.txt line keeps them): what is shown after a title, so that no tag shows twice.
    public static func notInTitle(_ tags: [String], title: String) -> [String] {
        guard !tags.isEmpty, mayHoldTagWords(title) else { return tags }
        let words = Set(title.split(separator: " ").map { $0.lowercased() })
        return tags.filter { !words.contains(shown($0).lowercased()) }
    }

    /// `title` without the words that are `tags` (`+home`, `@phone`, any case), as todo.sh's line
    /// loses a project taken away; `title` itself when nothing else would be left.
    public static func title(_ title: String, without tags: [String]) -> String {
        guard !tags.isEmpty, mayHoldTagWords(title) else { return title }
        let removed = Set(tags.map { shown($0).lowercased() })
        let kept = title.split(separator: " ", omittingEmptySubsequences: false).filter {
            !removed.contains($0.lowercased())
        }
        let result = kept.joined(separator: " ")
        return result.unicodeScalars.allSatisfy(Whitespace.isSpace) ? title : result
    }

    /// Whether `title` has a `+` or an `@`: only then may a tag stand in it as a word.
    private static func mayHoldTagWords(_ title: String) -> Bool {
        title.utf8.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "@") }
    }

    /// The tag a word `shown` gives back: `+home` is `home`, `@phone` itself.
    public static func tag(shown word: Substring) -> String {
        word.hasPrefix("+") ? String(word.dropFirst()) : String(word)
    }

    /// Whether `tags` has `tag`, ignoring case.
    public static func contains(_ tags: [String], _ tag: String) -> Bool {
        let tag = tag.lowercased()
        return tags.contains { $0.lowercased() == tag }
    }
}

/// The levels people name priorities by, over iCalendar's 1 (highest) to 9 (lowest), as RFC 5545
/// groups them: 1–4 high, 5 medium, 6–9 low. A level given by name is stored as 1, 5 or 9.
public enum PriorityLevel: String, CaseIterable, Sendable {
    case high, medium, low

    public init(_ priority: Int) {
        self = priority <= 4 ? .high : priority == 5 ? .medium : .low
    }

    /// `H`, `M` or `L`, as a list shows the level.
    public var letter: Unicode.Scalar {
        switch self {
        case .high: return "H"
        case .medium: return "M"
        case .low: return "L"
        }
    }

    /// The priority a level given by name is stored as.
    public var priority: Int {
        switch self {
        case .high: return 1
        case .medium: return 5
        case .low: return 9
        }
    }

    /// The priority a word names: `high`, `medium`, `low` (or `H`, `M`, `L`), or `1`–`9`, in any
    /// letter case; `none` is `.some(nil)`, anything else `nil`.
    public static func priority(named word: String) -> Int?? {
        let word = word.lowercased()
        if word == "none" { return .some(nil) }
        if let level = allCases.first(where: { $0.rawValue == word || String($0.rawValue.prefix(1)) == word }) {
            return level.priority
        }
        if word.count == 1, let digit = Int(word), ToDoItem.priorityRange.contains(digit) { return digit }
        return nil
    }

    /// A priority as typed: a word `priority(named:)` reads, else a todo.txt letter (`B` is 2);
    /// `none` is `.some(nil)`, anything else `nil`.
    public static func priority(typed word: String) -> Int?? {
        if let named = priority(named: word) { return named }
        return priority(todoTxtLetter: word).map { .some($0) }
    }

    /// A todo.txt priority letter as a priority: `A` to `I` are 1 to 9, a later letter 9, as an
    /// import reads them. `H`, `M` and `L` are not read here: typed as a priority they are
    /// Taskwarrior's levels (`priority(named:)`). `nil` for anything else.
    public static func priority(todoTxtLetter word: String) -> Int? {
        ["H", "M", "L"].contains(word.uppercased()) ? nil : priority(ofLetter: word)
    }

    /// Any letter as todo.sh reads it (`todo pri 1 H` is its eighth): `A` to `I` are 1 to 9, a
    /// later letter 9, either case; `nil` for anything else.
    public static func priority(ofLetter word: String) -> Int? {
        guard word.count == 1, let letter = word.uppercased().unicodeScalars.first, ("A"..."Z").contains(letter)
        else { return nil }
        return min(Int(letter.value - UnicodeScalar("A").value) + 1, 9)
    }

    /// todo.txt's letter for a priority: `A` for 1 to `I` for 9.
    public static func todoTxtLetter(of priority: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(ascii: "A") + UInt8(min(max(priority, 1), 9) - 1))
    }

    /// Whether `priority` is one a level names (1, 5, 9): a list whose priorities are all such
    /// shows levels (`H`, `M`, `L`); one with any other shows todo.txt's letters.
    @inlinable public static func isLevel(_ priority: Int) -> Bool {
        priority == 1 || priority == 5 || priority == 9
    }
}
