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
}
