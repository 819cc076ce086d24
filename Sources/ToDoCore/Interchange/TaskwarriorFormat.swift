import Foundation

/// The JSON that Taskwarrior's `task export` writes: an array of tasks (or one task per line)
/// with `description`, `uuid`, `status`, `entry`, `due`, `end` and `annotations`.
public enum TaskwarriorFormat {
    /// Reads the tasks: `pending` and `waiting` ones are open, `completed` ones done; `deleted`
    /// tasks and `recurring` templates (whose instances are tasks of their own) are skipped.
    /// Annotations become the description, one per line.
    public static func read(_ json: JSONValue) throws(ImportError) -> [ImportedItem] {
        let tasks: [JSONValue]
        switch json {
        case .array(let array): tasks = array
        case .object: tasks = [json]
        default: throw ImportError(at: "", "expected an array of tasks, found \(json.kindDescription)")
        }
        var items: [ImportedItem] = []
        for (index, value) in tasks.enumerated() {
            items.append(try item(value, origin: "task \(index + 1)"))
        }
        return items
    }

    /// Whether `json` looks like Taskwarrior's export rather than todo's items: tasks have a
    /// `description` and a `uuid` or `status`, and no `title`.
    static func looksLikeTasks(_ json: JSONValue) -> Bool {
        let first: JSONValue?
        switch json {
        case .array(let array): first = array.first
        case .object: first = json
        default: first = nil
        }
        guard case .object(let task)? = first else { return false }
        return task["title"] == nil && task["description"] != nil && (task["uuid"] != nil || task["status"] != nil)
    }

    private static func item(_ value: JSONValue, origin: String) throws(ImportError) -> ImportedItem {
        guard case .object(let task) = value else { throw ImportError(at: origin, "expected a task object, found \(value.kindDescription)") }
        func string(_ key: String) throws(ImportError) -> String? {
            switch task[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw ImportError(at: "\(origin), \(key)", "expected a string, found \(other.kindDescription)")
            }
        }
        func date(_ key: String, in object: JSONObject? = nil, at path: String? = nil) throws(ImportError) -> Double? {
            let field = path ?? "\(origin), \(key)"
            guard let value = (object ?? task)[key], value != .null else { return nil }
            guard case .string(let text) = value, let parsed = CivilTime.parseBasic(Substring(text)), parsed.utc || !parsed.hasTime,
                  let timestamp = CivilTime.utc.timestamp(of: parsed.fields), ToDoItem.timestampRange.contains(timestamp) else {
                throw ImportError(at: field, "expected a date as 20231110T230000Z")
            }
            return timestamp
        }
        guard let description = try string("description") else { throw ImportError(at: "\(origin), description", "the task has no description") }
        var id = UUID()
        if let uuid = try string("uuid") {
            guard let parsed = UUID(uuidString: uuid) else { throw ImportError(at: "\(origin), uuid", "'\(uuid)' is not a UUID") }
            id = parsed
        }
        var notes: [String] = []
        if let annotations = task["annotations"] {
            guard case .array(let list) = annotations else {
                throw ImportError(at: "\(origin), annotations", "expected an array, found \(annotations.kindDescription)")
            }
            for (index, annotation) in list.enumerated() {
                guard case .object(let note) = annotation, case .string(let text)? = note["description"] else {
                    throw ImportError(at: "\(origin), annotation \(index + 1)", "expected an object with a description")
                }
                notes.append(text)
            }
        }
        let status = try string("status") ?? "pending"
        let done = status == "completed"
        let item = ToDoItem.imported(
            id: id, title: ToDoItem.singleLine(description), itemDescription: notes.isEmpty ? nil : notes.joined(separator: "\n"),
            timestamp: try date("due"), done: done, createdAt: try date("entry"), completedAt: done ? try date("end") : nil)
        let ignored: String? = switch status {
        case "deleted": "deleted in Taskwarrior"
        case "recurring": "a recurring template in Taskwarrior (its instances are imported)"
        default: nil
        }
        return ImportedItem(item: item, origin: origin, ignoredBecause: ignored)
    }
}
