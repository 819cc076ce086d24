import ToDoModel

/// The line `e` opens with: the item's title, as one word (quoted when it holds a space or
/// looks like one of `edit`'s words), then its fields in Taskwarrior's words. What `todo edit` is
/// given is only what the user changed, so that a field another process changed meanwhile is
/// not put back.
struct EditLine: Equatable {
    var title: String
    var attributes: [String]

    var text: String {
        // A title that would read as a field or an option is quoted too: quoted, it is the title.
        let shownTitle = ShellWords.quoted(title, always: Self.isAttribute(title) || title.hasPrefix("-"))
        return ([shownTitle] + attributes).joined(separator: " ")
    }

    /// Whether `word` is one `edit` reads as a field: `+tag`, `-tag`, `@context`, `key:value`.
    static func isAttribute(_ word: String) -> Bool {
        guard word.count > 1 else { return false }
        if word.hasPrefix("+") || word.hasPrefix("@") { return true }
        if word.hasPrefix("-") { return word.dropFirst().first?.isLetter == true && !word.hasPrefix("--") }
        guard let colon = word.firstIndex(of: ":") else { return false }
        let key = word[..<colon]
        return !key.isEmpty && key.allSatisfy { $0.isLetter || $0 == "." }
    }

    /// The words of `todo edit` that make the item what the typed `words` say: the title (as
    /// `--title=`, so that no word of it is read as an option or a field) when it changed, the
    /// fields that changed, and those erased taken away (`due:`, `-home`). The title is the
    /// words that are not fields, as `todo edit` reads them, and the first word whatever it is
    /// when the line starts with a quote.
    func changes(to words: [String], startsQuoted: Bool) -> [String] {
        let rest = startsQuoted ? words.dropFirst() : words[...]
        let newTitle = ((startsQuoted ? [words[0]] : []) + rest.filter { !Self.isAttribute($0) }).joined(separator: " ")
        let fields = rest.filter(Self.isAttribute)
        var changes: [String] = []
        if !newTitle.isEmpty, newTitle != title { changes.append("--title=" + newTitle) }
        changes += fields.filter { !attributes.contains($0) }
        for word in attributes where !fields.contains(word) {
            if word.hasPrefix("+") {
                changes.append("-" + word.dropFirst())
            } else if let colon = word.firstIndex(of: ":") {
                let key = String(word[...colon])
                if !fields.contains(where: { $0.hasPrefix(key) }) { changes.append(key) }
            }
        }
        return changes
    }
}
