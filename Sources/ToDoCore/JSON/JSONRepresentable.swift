/// Why a JSON value does not have the shape a type expects, and where in the document.
public struct JSONShapeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the value is, as `items[3].location.name`; empty for the whole document.
    public let path: String
    /// What is wrong with it, in a few lowercase words.
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// A type that is read from and written as a `JSONValue`. This one mapping defines the type's JSON
/// keys for the store, for `--json` output and for `Codable`, so that they cannot drift apart.
public protocol JSONRepresentable: Codable {
    /// Reads a value from `json`, found at `path` in its document (used in error messages).
    init(json: JSONValue, path: String) throws(JSONShapeError)
    /// The value as JSON, with keys in a stable order and the fields it did not know kept.
    var json: JSONValue { get }
}

extension JSONRepresentable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), path: "")
    }

    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

/// Reads the members of one JSON object by key, remembering which keys it was asked for so that
/// the rest can be kept as fields the program does not know.
struct JSONObjectReader {
    let object: JSONObject
    let path: String
    /// The keys asked for; a few per object, so an array.
    private var knownKeys: [String] = []

    init(_ value: JSONValue, path: String) throws(JSONShapeError) {
        guard case .object(let object) = value else {
            throw JSONShapeError(path: path, reason: "expected an object, found \(value.kindDescription)")
        }
        self.object = object
        self.path = path
    }

    /// The path of the member `key`, for errors about it.
    func path(of key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The raw member `key`, or `nil` when it is absent or `null` (both mean "not set").
    mutating func value(_ key: String) -> JSONValue? {
        knownKeys.append(key)
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String) throws(JSONShapeError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, expected: "a string", found: value) }
        return string
    }

    mutating func bool(_ key: String) throws(JSONShapeError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(key, expected: "a boolean", found: value) }
        return bool
    }

    /// A finite number.
    mutating func double(_ key: String) throws(JSONShapeError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let literal) = value, let double = Double(literal), double.isFinite else {
            throw mismatch(key, expected: "a finite number", found: value)
        }
        return double
    }

    /// A finite number within `range`.
    mutating func double(_ key: String, in range: ClosedRange<Double>) throws(JSONShapeError) -> Double? {
        guard let double = try double(key) else { return nil }
        guard range.contains(double) else {
            throw invalid(key, "\(JSONValue.literal(for: double)) is outside"
                          + " \(JSONValue.literal(for: range.lowerBound))...\(JSONValue.literal(for: range.upperBound))")
        }
        return double
    }

    /// A whole number (`3` or `3.0`).
    mutating func int(_ key: String) throws(JSONShapeError) -> Int? {
        guard let value = value(key) else { return nil }
        if case .number(let literal) = value {
            if let int = Int(literal) { return int }
            if let double = Double(literal), double == double.rounded(), abs(double) < 1e15 { return Int(double) }
        }
        throw mismatch(key, expected: "a whole number", found: value)
    }

    /// A whole number within `range`.
    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(JSONShapeError) -> Int? {
        guard let int = try int(key) else { return nil }
        guard range.contains(int) else {
            throw invalid(key, "\(int) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return int
    }

    /// A member that is itself `JSONRepresentable`.
    mutating func decode<Value: JSONRepresentable>(_ key: String, as type: Value.Type) throws(JSONShapeError) -> Value? {
        guard let value = value(key) else { return nil }
        return try Value(json: value, path: path(of: key))
    }

    /// `value` unwrapped, or an error saying that the required member `key` is missing.
    func required<Value>(_ value: Value?, _ key: String) throws(JSONShapeError) -> Value {
        guard let value else { throw JSONShapeError(path: path(of: key), reason: "missing required field") }
        return value
    }

    /// An error about the member `key`.
    func invalid(_ key: String, _ reason: String) -> JSONShapeError {
        JSONShapeError(path: path(of: key), reason: reason)
    }

    /// The members that no accessor asked for, in their original order.
    var unknownFields: JSONObject {
        var unknown = JSONObject()
        guard object.count > knownKeys.count || !object.keys.allSatisfy(knownKeys.contains) else { return unknown }
        for (key, value) in object.members where !knownKeys.contains(key) {
            unknown.appendUnchecked(key: key, value: value)
        }
        return unknown
    }

    private func mismatch(_ key: String, expected: String, found: JSONValue) -> JSONShapeError {
        invalid(key, "expected \(expected), found \(found.kindDescription)")
    }
}
