/// A dated note on an item (`todo annotate 3 Called, no answer`; Taskwarrior's annotations,
/// iCalendar's `COMMENT`): one line of text, and when it was written, when that is known.
public struct Annotation: Equatable, Hashable, Sendable {
    /// When it was written, in seconds since 1970; `nil` when the source did not say.
    public var time: Double?
    public var text: String

    public init(time: Double?, text: String) {
        self.time = time
        self.text = text
    }

    /// As the file and `--json` keep it: `{"time": 1795765610, "text": "Called, no answer"}`.
    public var json: JSONValue {
        var object = JSONObject()
        if let time { object["time"] = .number(JSONValue.literal(for: time)) }
        object["text"] = .string(text)
        return .object(object)
    }

    /// The annotations of the file's `"annotations"` array; `nil` for anything else (kept as
    /// another program's member).
    public static func list(from value: JSONValue) -> [Annotation]? {
        guard case .array(let elements) = value else { return nil }
        var annotations: [Annotation] = []
        for element in elements {
            guard case .object(let object) = element, case .string(let text)? = object["text"],
                ItemField.isOneLine(text)
            else { return nil }
            var time: Double?
            switch object["time"] {
            case nil, .null?: break
            case .number(let literal)?:
                guard let seconds = Double(literal), ToDoItem.timestampRange.contains(seconds) else { return nil }
                time = seconds
            default: return nil
            }
            annotations.append(Annotation(time: time, text: text))
        }
        return annotations
    }
}
