/// Members of a stored object that this version of todo does not know (another program's, or a
/// newer todo's), kept as the text they were read as so that the next write puts them back.
struct UnknownMembers: Equatable, Sendable {
    /// The members as compact JSON, `"key":value` each, separated by commas; empty when there are none.
    var text: [UInt8] = []

    var isEmpty: Bool { text.isEmpty }

    /// The members' keys, in order.
    var keys: [String] {
        guard !text.isEmpty, case .object(let members)? = try? JSONValue(parsing: Array("{".utf8) + text + Array("}".utf8)) else { return [] }
        return members.keys
    }

    /// Drops the member `key`, if there is one: a field this version now has takes its place.
    mutating func remove(key: String) {
        guard !text.isEmpty, text.firstRange(of: Array("\"\(key)\"".utf8)) != nil,
              case .object(var members)? = try? JSONValue(parsing: Array("{".utf8) + text + Array("}".utf8)),
              members[key] != nil else { return }
        members[key] = nil
        text = Array(JSONValue.object(members).serializedCompactly().dropFirst().dropLast())
    }
}

extension UnknownMembers {
    /// The members as an object, in order.
    var object: JSONObject {
        guard !text.isEmpty, case .object(let members)? = try? JSONValue(parsing: Array("{".utf8) + text + Array("}".utf8)) else { return JSONObject() }
        return members
    }
}

/// Members other programs gave an item, each program's apart from the others' and from todo's
/// own keys (`"from": {"taskwarrior": {"project": "home", "start": "20200102T120000Z"}}`): a
/// Taskwarrior UDA named `start` or `location`, or Reminders' `dueDate`, can never be read as
/// todo's field, now or when todo grows one, and an export gives each back under its own name.
struct ForeignMembers: Equatable, Sendable {
    /// Where a list of the first form (`ItemForm`) kept other programs' members, beside todo's
    /// own keys, moves them: which program gave them was not said.
    static let firstFormImports = "import"

    /// Each program's name, with its members as an object, in the order they came.
    var sources = JSONObject()

    var isEmpty: Bool { sources.count == 0 }

    /// The members `source` gave, in order; none when it gave none.
    func members(from source: String) -> JSONObject {
        if case .object(let members)? = sources[source] { members } else { JSONObject() }
    }

    /// Keeps a member `source` gave, replacing one of the same name.
    mutating func set(_ key: String, _ value: JSONValue, from source: String) {
        var members = members(from: source)
        members[key] = value
        sources[source] = .object(members)
    }

    /// Every member each source gave, as `source.key`, to say what was kept.
    var namesWithSources: [String] {
        sources.members.flatMap { source, _ in members(from: source).keys.map { "\(source).\($0)" } }
    }
}
