/// A JSON document as a value: objects keep their keys in file order and numbers keep their literal
/// text, so a file can be read and written back without reordering or rounding anything.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as its JSON literal text (`"12"`, `"-0.5e3"`), so that unknown fields survive exactly.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A number value for `value`, written as an integer when it is one and as the shortest
    /// round-tripping decimal otherwise. `value` must be finite.
    public static func number(_ value: Double) -> JSONValue {
        .number(literal(for: value))
    }

    /// `value` as the shortest decimal that reads back as the same `Double`, without a fraction when
    /// it is whole: `13.405`, `1641772800`, `1e-07`. `value` must be finite.
    public static func literal(for value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A number value for an integer.
    public static func number(_ value: Int) -> JSONValue {
        .number(String(value))
    }

    /// What kind of value this is, as an error message names it ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object whose members keep the order in which they were read or added.
public struct JSONObject: Equatable, Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []

    public init() {}

    /// The number of members.
    public var count: Int { keys.count }

    /// The value for `key`, or `nil`. Setting a new key appends it; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// The members as `(key, value)` pairs, in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    /// Appends every member of `other` whose key this object does not have yet.
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other.members where self[key] == nil {
            keys.append(key)
            values.append(value)
        }
    }

    /// The object without the member `key`.
    package func removing(_ key: String) -> JSONObject {
        var object = self
        object[key] = nil
        return object
    }

    /// Appends a member without checking for an existing key; the parser has already checked.
    package mutating func appendUnchecked(key: String, value: JSONValue) {
        keys.append(key)
        values.append(value)
    }
}

/// The value as a Swift scalar when it is one of that kind, else `nil`.
extension JSONValue {
    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    package var double: Double? {
        if case .number(let literal) = self { return Double(literal) }
        return nil
    }

    package var int: Int? {
        if case .number(let literal) = self { return Int(literal) }
        return nil
    }
}
