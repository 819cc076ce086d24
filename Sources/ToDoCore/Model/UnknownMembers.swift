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
