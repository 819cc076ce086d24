import ToDoModel
import ToDoStorage

/// The members of one object another program wrote (a Taskwarrior task, a reminder), read one by
/// one: a value todo cannot read is said as a problem of the item, and kept with it as it came.
struct ObjectMembers {
    let object: JSONObject
    /// Where the object is in its source, for the problems (`task 3`, `reminder 2`).
    let origin: String
    var problems: [String] = []
    /// The members kept with the item: those it could not read, and those it has no field for.
    var kept = JSONObject()

    init(_ object: JSONObject, origin: String) {
        self.object = object
        self.origin = origin
    }

    mutating func unreadable(_ key: String, _ why: String) {
        problems.append("\(origin), \(key): \(why); kept as it was")
        if let value = object[key] { kept[key] = value }
    }

    /// The text of `key`; `nil` when it is missing or null, or, said, not text.
    mutating func string(_ key: String) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            unreadable(key, "expected a string, found \(other.kindDescription)")
            return nil
        }
    }

    /// The moment the text of `key` is, as `read` reads it; one it cannot read is said, with what
    /// was `expected`.
    mutating func date(_ key: String, expected: String, _ read: (String) -> Double?) -> Double? {
        guard let text = string(key) else { return nil }
        guard let timestamp = read(text) else {
            unreadable(key, "'\(text)' is not \(expected)")
            return nil
        }
        return timestamp
    }
}
