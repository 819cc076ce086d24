/// Members of a stored object that this version of todo does not know (another program's, or a
/// newer todo's), kept as they were read so that the next write puts them back.
package struct UnknownMembers: Equatable, Sendable {
    /// The members, in the order they were read.
    package var object = JSONObject()

    package init() {}

    package var isEmpty: Bool { object.count == 0 }

    /// The members' keys, in order.
    package var keys: [String] { object.keys }

    /// Drops the member `key`, if there is one: a field this version now has takes its place.
    package mutating func remove(key: String) {
        if object[key] != nil { object[key] = nil }
    }

    /// Appends a member; the reader has refused a key met twice.
    package mutating func append(key: String, value: JSONValue) {
        object.appendUnchecked(key: key, value: value)
    }
}

/// Members other programs gave an item, each program's apart from the others' and from todo's
/// own keys (`"from": {"taskwarrior": {"project": "home", "start": "20200102T120000Z"}}`): a
/// Taskwarrior UDA named `start` or `location`, or Reminders' `dueDate`, can never be read as
/// todo's field, now or when todo grows one, and an export gives each back under its own name.
package struct ForeignMembers: Equatable, Sendable {
    /// Where a list of the first form (`ItemForm`) kept other programs' members, beside todo's
    /// own keys, moves them: which program gave them was not said.
    package static let firstFormImports = "import"
    /// Taskwarrior's members (`TaskwarriorFormat`).
    package static let taskwarrior = "taskwarrior"
    /// Apple Reminders' members (`RemindersFormat`).
    package static let reminders = "reminders"
    /// todo.txt's: the words of a line todo has no field for (`h:1`, topydo's `id:1`), a
    /// priority letter after I, a `rec:` that repeats from the completion (`TodoTxtFormat`).
    package static let todoTxt = "todotxt"

    /// Each program's name, with its members as an object, in the order they came.
    package var sources = JSONObject()

    package init(sources: JSONObject = JSONObject()) {
        self.sources = sources
    }

    package var isEmpty: Bool { sources.count == 0 }

    /// The members `source` gave, in order; none when it gave none.
    package func members(from source: String) -> JSONObject {
        if case .object(let members)? = sources[source] { members } else { JSONObject() }
    }

    /// Keeps a member `source` gave, replacing one of the same name.
    package mutating func set(_ key: String, _ value: JSONValue, from source: String) {
        var members = members(from: source)
        members[key] = value
        sources[source] = .object(members)
    }

    /// Takes out a project an earlier version kept as Taskwarrior's or an import's member, before
    /// todo had the field, and returns it.
    package mutating func takeProject() -> String? {
        for source in [Self.taskwarrior, Self.firstFormImports] {
            var members = members(from: source)
            guard case .string(let project)? = members["project"], !project.isEmpty, ItemField.isOneLine(project) else {
                continue
            }
            members["project"] = nil
            sources[source] = members.count == 0 ? nil : .object(members)
            return project
        }
        return nil
    }

    /// Every member each source gave, as `source.key`, to say what was kept.
    package var namesWithSources: [String] {
        sources.members.flatMap { source, _ in members(from: source).keys.map { "\(source).\($0)" } }
    }
}
