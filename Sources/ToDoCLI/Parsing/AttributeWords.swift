import ToDoCore
import ToDoModel

/// Taskwarrior's attribute words, and todo.txt's, among a command's words: `due:fri`,
/// `scheduled:mon` or `wait:mon` (the start; todo.txt's `t:`), `pri:H` (`priority:`),
/// `project:work.admin` (`pro:`), `recur:weekly` (`rec:`), `depends:3`, `status:pending`, `+tag`,
/// `-tag` (without it), and todo.txt's `@context` (the tag `@context`). A name may be shortened
/// to three letters or more where no other name starts so, as Taskwarrior allows. The other words
/// are kept in order: the title, or the words a list searches for. Words after `--` are never read.
///
/// Only lower-case names are read (`Re: budget` and `Note: x` stay text). A name with nothing after
/// its colon (`due:`) is the attribute without a value: `edit` removes the field, `list` keeps the
/// items without it, `add` refuses it. A Taskwarrior attribute todo does not take here (`end:`,
/// `uuid:`…) is an error naming it, so that it never becomes part of a title unseen, and so is a
/// near miss of one it reads (`projet:home`: did you mean `project:`?).
struct AttributeWords {
    /// How a command reads them: as fields of a new item, as changes, or as filters (which read
    /// `-tag`, and the scanner then passes it on as a word rather than an option).
    enum Use: Equatable, Sendable {
        case none, add, edit, filter

        /// Whether `-tag` is a word of the command rather than an unknown option.
        var readsRemovedTags: Bool { self == .edit || self == .filter }
    }

    /// What an attribute word sets or filters by.
    enum Attribute: Equatable {
        case due, start, priority, project, recur, depends, status
        /// `due.before:`, `due.by:` (on or before) and `due.after:`, filters only.
        case dueBefore, dueBy, dueAfter
    }

    /// One attribute word: the word as typed, and its value (empty for `due:` alone, which `edit`
    /// reads as removing and `list` as having none).
    struct Value: Equatable {
        let word: String
        let value: String
    }

    /// The words that are not attributes, in order.
    var words: [String] = []
    /// Each attribute given, once.
    var values: [(attribute: Attribute, value: Value)] = []
    /// `+tag` and `@context`, in order.
    var addedTags: [String] = []
    /// `-tag`.
    var removedTags: [String] = []

    /// The value of `attribute`, if a word gave it.
    func value(_ attribute: Attribute) -> Value? {
        values.first { $0.attribute == attribute }?.value
    }

    /// Taskwarrior's attributes, by name: those todo reads, and those it leaves to Taskwarrior
    /// (`nil`), which are refused rather than kept as text.
    private static let names: [(name: String, attribute: Attribute?)] = [
        ("due", .due), ("scheduled", .start), ("wait", .start), ("priority", .priority), ("project", .project),
        ("recur", .recur), ("depends", .depends), ("status", .status),
        ("until", nil), ("description", nil), ("end", nil), ("entry", nil), ("modified", nil), ("start", nil),
        ("uuid", nil), ("id", nil), ("mask", nil), ("imask", nil), ("parent", nil), ("urgency", nil), ("tags", nil),
        ("annotations", nil)
    ]

    /// The keys of a todo.txt line a quoted title of `add` reads (the others stay text).
    private static let lineKeys: Set<String> = ["due", "t", "rec"]

    /// todo.txt's keys, read the same way, by their exact name.
    private static let todoTxtKeys: [String: Attribute] = ["t": .start, "pri": .priority, "rec": .recur]

    /// The words of `words` read: those before `literalStart` (the index of the first word after
    /// `--`), unless `reads` is false, when every word is kept as it is. A word that cannot be read
    /// throws the error `refusing` makes of it and why.
    /// `addsAnItem`, for `add`'s words: a word with a space in it (a quoted title) is a todo.txt
    /// line, read as todo.sh reads one.
    init(
        _ words: [String], literalStart: Int?, reads: Bool = true, addsAnItem: Bool = false,
        refusing: (_ word: String, _ reason: String) -> CommandError
    ) throws(CommandError) {
        for (index, word) in words.enumerated() {
            guard reads, index < (literalStart ?? words.count) else {
                self.words.append(word)
                continue
            }
            let reason =
                addsAnItem && word.contains(" ")
                ? readLine(word, first: self.words.isEmpty && index == 0) : read(word)
            if let reason { throw refusing(word, reason) }
        }
    }

    /// A quoted title as todo.sh reads a todo.txt line: a priority letter at its start (`(A) `:
    /// A to I are 1 to 9, a later letter 9) and its `+project` and `@context` words, which are
    /// tags and stay in the text, as an import reads the line, and its `due:`, `t:` and `rec:`;
    /// the rest is text. Why it cannot be read, when it cannot.
    private mutating func readLine(_ line: String, first: Bool) -> String? {
        var text = Substring(line)
        let letters = Array(text.utf8.prefix(4))
        if first, letters.count == 4, letters[0] == UInt8(ascii: "("), (65...90).contains(letters[1]),
            letters[2] == UInt8(ascii: ")"), letters[3] == UInt8(ascii: " ")
        {
            if let earlier = values.first(where: { $0.attribute == .priority }) {
                return "'\(earlier.value.word)' gave the priority already"
            }
            let priority = PriorityLevel.priority(ofLetter: String(UnicodeScalar(letters[1]))) ?? 9
            values.append((.priority, Value(word: String(text.prefix(3)), value: String(priority))))
            text = text.dropFirst(4)
        }
        // The text stays whole, its `+project` and `@context` words tags as well, as an import
        // reads the line; todo.txt's `due:`, `t:` and `rec:` are read (and leave the text) as
        // they are among add's words.
        var kept: [Substring] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if let (tag, _) = Tags.tag(inWord: String(word)) { addedTags.append(tag) }
            if let colon = word.firstIndex(of: ":"), Self.lineKeys.contains(String(word[..<colon])) {
                // todo.txt's strict `rec:+1w` repeats from the due, as todo always does.
                let value = word[word.index(after: colon)...]
                let typed = word.hasPrefix("rec:+") ? "rec:" + value.dropFirst() : String(word)
                if let reason = read(typed) { return reason }
                continue
            }
            kept.append(word)
        }
        let title = Whitespace.trimmingSpaces(kept.joined(separator: " "))
        if !title.isEmpty { words.append(title) }
        return nil
    }

    /// The tag a `+tag`, `-tag` or `@context` word names, and whether it takes the tag away; `nil`
    /// for any other word. A sign and a number (`+1`, `-5`) and a sign alone stay words.
    static func tag(in word: String) -> (tag: String, removes: Bool)? {
        Tags.tag(inWord: word, readsRemoval: true)
    }

    /// Whether `word` is one of the attribute words (`+work`, `project:home`): `todo +work` is
    /// `todo list +work`, as `todo` alone is `todo list`.
    static func isAttributeWord(_ word: String) -> Bool {
        if tag(in: word) != nil { return true }
        guard let colon = word.firstIndex(of: ":") else { return false }
        let name = word[..<colon].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return !name.isEmpty && name.allSatisfy { $0.isASCII && $0.isLowercase } && attribute(named: name) != nil
    }

    /// Reads `word`; why it cannot be read, when it cannot.
    private mutating func read(_ word: String) -> String? {
        if let (tag, removes) = Self.tag(in: word) {
            if removes { removedTags.append(tag) } else { addedTags.append(tag) }
            return nil
        }
        guard let colon = word.firstIndex(of: ":") else {
            words.append(word)
            return nil
        }
        let name = word[..<colon], value = String(word[word.index(after: colon)...])
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let base = parts.first, !base.isEmpty, base.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            words.append(word)
            return nil
        }
        guard let (fullName, attribute) = Self.attribute(named: base) else {
            // A near miss of a name todo reads is a slip, not text: `projet:home`, `deu:fri`.
            if let near = Self.nearMiss(base) {
                return "did you mean '\(near):'? (words after -- are kept as text)"
            }
            words.append(word)
            return nil
        }
        guard let attribute else {
            return "todo does not read Taskwarrior's '\(fullName):' here"
                + (fullName == "start" ? "; 'todo start <ref>' begins an item" : "")
        }
        var read = attribute
        if parts.count == 2 {
            switch (attribute, parts[1]) {
            case (.due, "before"), (.due, "below"): read = .dueBefore
            case (.due, "by"): read = .dueBy
            case (.due, "after"), (.due, "above"): read = .dueAfter
            default:
                return "todo reads 'due.before:', 'due.by:' and 'due.after:', and no other modifier"
            }
        }
        if let earlier = values.first(where: { $0.attribute == read }) {
            return "'\(earlier.value.word)' gave it already"
        }
        values.append((read, Value(word: word, value: value)))
        return nil
    }

    /// The name todo reads that `name` is one slip away from (two for the long names: `projcet`,
    /// `prioirty`); `nil` for any other word, which stays text. Only the names todo reads: `task:`
    /// is one letter from Taskwarrior's `mask:`, and is text.
    private static func nearMiss(_ name: Substring) -> String? {
        guard name.count >= 3 else { return nil }
        let candidates = names.compactMap { $0.attribute == nil ? nil : ($0.name, $0.name.count >= 7 ? 2 : 1) }
        return Suggestion.nearest(to: String(name), among: candidates)
    }

    /// The attribute a name (or a start of one, three letters or more) names, and its full name.
    private static func attribute(named name: Substring) -> (String, Attribute?)? {
        if let exact = todoTxtKeys[String(name)] { return (String(name), exact) }
        if let exact = names.first(where: { $0.name == name }) { return (exact.name, exact.attribute) }
        guard name.count >= 3 else { return nil }
        let matching = names.filter { $0.name.hasPrefix(name) }
        // `wait` and `scheduled` both start an item: either counts once.
        guard matching.count == 1 else { return nil }
        return (matching[0].name, matching[0].attribute)
    }
}
