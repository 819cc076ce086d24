/// The name of a list (`Work`, `Home`): one line of text, told apart from another ignoring case.
/// The default list has none; `default` names it where a name is typed.
public enum ListName {
    /// What names the default list where a name is typed, and shows it.
    public static let defaultName = "default"

    /// The list a typed name means: `nil` for the default list (`default`, any case).
    public static func stored(_ typed: String) -> String? {
        typed.lowercased() == defaultName ? nil : typed
    }

    /// The list a name typed or read (a calendar's, a folder's) means: `.some(nil)` for the default
    /// list (`default`), `nil` for text that names none (empty, or more than one line).
    public static func typed(_ text: String) -> String?? {
        guard !text.isEmpty, ItemField.isOneLine(text) else { return nil }
        return .some(stored(text))
    }

    /// Whether `a` and `b` name the same list (ignoring case; `nil` is the default list).
    public static func same(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.lowercased() == b.lowercased()
        default: false
        }
    }

    /// The name as lines show it: `default` for the default list.
    public static func shown(_ name: String?) -> String {
        name ?? defaultName
    }
}
