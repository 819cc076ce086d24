/// The name of a list (`Work`, `Home`): one line of text, told apart from another ignoring case.
/// The default list has none; `default` names it where a name is typed.
public enum ListName {
    /// What names the default list where a name is typed, and shows it.
    public static let defaultName = "default"

    /// What tells one list from another: its name without spaces (or line breaks) at either end,
    /// ignoring case; `nil` for the default list (no name, `default` in any case, or nothing but
    /// spaces). Spaces at either end are no part of a name, wherever it comes from (typed, another
    /// program's file, a calendar): `default ` is the default list everywhere, never a list of
    /// its own shown as it.
    public static func key(_ name: String?) -> String? {
        guard let name else { return nil }
        let key = hasSpaceAtAnEnd(name) ? Whitespace.trimmingSpacesAndNewlines(name).lowercased() : name.lowercased()
        return key.isEmpty || key == defaultName ? nil : key
    }

    private static func hasSpaceAtAnEnd(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last else { return false }
        return Whitespace.isSpaceOrNewline(first) || Whitespace.isSpaceOrNewline(last)
    }

    /// The list a typed name means, without spaces at either end: `nil` for the default list.
    public static func stored(_ typed: String) -> String? {
        guard key(typed) != nil else { return nil }
        return hasSpaceAtAnEnd(typed) ? Whitespace.trimmingSpacesAndNewlines(typed) : typed
    }

    /// The list a name typed or read (a calendar's, a folder's) means: `.some(nil)` for the default
    /// list (`default`), `nil` for text that names none (nothing but spaces, or more than one line).
    public static func typed(_ text: String) -> String?? {
        let name = Whitespace.trimmingSpacesAndNewlines(text)
        guard !name.isEmpty, ItemField.isOneLine(name) else { return nil }
        return .some(stored(name))
    }

    /// Whether `a` and `b` name the same list (`key`).
    public static func same(_ a: String?, _ b: String?) -> Bool {
        key(a) == key(b)
    }

    /// The name as lines show it: `default` for the default list.
    public static func shown(_ name: String?) -> String {
        name.flatMap(stored) ?? defaultName
    }
}
