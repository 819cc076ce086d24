import ToDoModel

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

/// A type that is read from and written as a `JSONValue`, and so is `Codable` with the same keys.
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

/// Why a document could not be decoded: not JSON at all, JSON of the wrong shape, or a format
/// version newer than this program reads.
package enum JSONDecodingError: JSONScanFailure {
    case syntax(JSONSyntaxError)
    case shape(JSONShapeError)
    case newerVersion(Int)

    package init(_ syntaxError: JSONSyntaxError) {
        self = .syntax(syntaxError)
    }

    package static func shape(_ path: String, _ reason: String) -> JSONDecodingError {
        .shape(JSONShapeError(path: path, reason: reason))
    }
}

/// A value read straight from the bytes and written straight to them, that a member of a record or
/// an element of an array can hold (`JSONForm.of`): an item, a location, a record of todo's own.
package protocol JSONStreamable {
    /// Reads the value that comes next; `path` names it for errors and is only called for one.
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError)
    /// Writes the value.
    func write(to writer: inout JSONWriter)
}

/// A type with one JSON mapping, read straight from the bytes and written straight to them, with
/// no tree in between: the store's items take this path. Its `JSONValue` form and `Codable`
/// conformance are derived from the same mapping (`decoded(from:path:)` and `jsonValue`). Its
/// writer writes keys in their stable order, then the fields it did not know.
package protocol JSONSchema: JSONRepresentable, JSONStreamable {}

extension JSONSchema {
    /// Reads the value from a `JSONValue` through the one mapping.
    package static func decoded(from json: JSONValue, path: String) throws(JSONShapeError) -> Self {
        let bytes = json.serializedCompactly()
        do {
            return try JSONScanner.scanDocument(in: bytes) { scanner throws(JSONDecodingError) in
                try Self(scanning: &scanner, path: { path })
            }
        } catch {
            switch error {
            case .shape(let shape): throw shape
            case .syntax(let syntax): throw JSONShapeError(path: path, reason: syntax.description)
            case .newerVersion(let version):
                throw JSONShapeError(path: path, reason: "format version \(version) is too new")
            }
        }
    }

    /// The value as a `JSONValue`, through the one mapping.
    package var jsonValue: JSONValue {
        var writer = JSONWriter()
        write(to: &writer)
        return (try? JSONValue(parsing: writer.bytes)) ?? .null
    }
}

/// The path of the member `key` of the value at `path`: `items[3].title`.
package func memberPath(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
}

// MARK: - Reading fields

extension JSONScanner {
    /// The string that comes next; `nil` for `null`, which means "not set".
    package mutating func string(at path: () -> String) throws(JSONDecodingError) -> String? {
        try stringToken(at: path)?.string
    }

    /// The string that comes next as it stands in the text; `nil` for `null`.
    package mutating func stringToken(at path: () -> String) throws(JSONDecodingError) -> JSONStringToken? {
        try scalar(at: path, expected: "a string") { scanner throws(JSONSyntaxError) in try scanner.scanString() }
    }

    /// The boolean that comes next; `nil` for `null`.
    package mutating func bool(at path: () -> String) throws(JSONDecodingError) -> Bool? {
        try scalar(at: path, expected: "a boolean") { scanner throws(JSONSyntaxError) in try scanner.scanBool() }
    }

    /// The finite number within `range` that comes next; `nil` for `null`.
    package mutating func double(
        at path: () -> String, in range: ClosedRange<Double>? = nil
    ) throws(JSONDecodingError) -> Double? {
        let expected = "a finite number"
        guard
            let number = try scalar(
                at: path, expected: expected,
                { scanner throws(JSONSyntaxError) in
                    try scanner.scanNumber()
                })
        else { return nil }
        guard let double = number.finiteValue else { throw .shape(path(), "expected \(expected), found a number") }
        if let range, !range.contains(double) {
            throw .shape(
                path(),
                "\(JSONValue.literal(for: double)) is outside"
                    + " \(JSONValue.literal(for: range.lowerBound))...\(JSONValue.literal(for: range.upperBound))")
        }
        return double
    }

    /// The whole number (`3` or `3.0`) within `range` that comes next; `nil` for `null`.
    package mutating func int(at path: () -> String, in range: ClosedRange<Int>) throws(JSONDecodingError) -> Int? {
        let expected = "a whole number"
        guard
            let number = try scalar(
                at: path, expected: expected,
                { scanner throws(JSONSyntaxError) in
                    try scanner.scanNumber()
                })
        else { return nil }
        var value: Int?
        switch number {
        case .integer(let integer): value = integer
        case .literal(let literal):
            value = Int(literal)
            if value == nil, let double = Double(literal), double == double.rounded(), abs(double) < 1e15 {
                value = Int(double)
            }
        }
        guard let value else { throw .shape(path(), "expected \(expected), found a number") }
        guard range.contains(value) else {
            throw .shape(path(), "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// The value `scan` reads; `nil` for `null`. When something else comes, the error says it
    /// expected `expected` and names what was found (or is the syntax error, if no value starts).
    @inline(__always)
    private mutating func scalar<Value>(
        at path: () -> String, expected: String, _ scan: (inout JSONScanner) throws(JSONSyntaxError) -> Value?
    ) throws(JSONDecodingError) -> Value? {
        do {
            if try consumeNull() { return nil }
            if let value = try scan(&self) { return value }
        } catch {
            throw .syntax(error)
        }
        try checkValueStartsForDecoding()
        throw .shape(path(), "expected \(expected), found \(nextKind())")
    }

    /// The value of a `JSONSchema` type that comes next; `nil` for `null`.
    package mutating func decode<Value: JSONSchema>(
        _ type: Value.Type, at path: () -> String
    ) throws(JSONDecodingError) -> Value? {
        do {
            if try consumeNull() { return nil }
        } catch {
            throw .syntax(error)
        }
        return try Value(scanning: &self, path: path)
    }

    /// Whatever value comes next, kept as it is: a field this program does not know.
    package mutating func unknownValue() throws(JSONDecodingError) -> JSONValue {
        do {
            return try parseValue()
        } catch {
            throw .syntax(error)
        }
    }

    /// Reads the object that comes next member by member; anything but an object is a shape error.
    @inline(__always)
    package mutating func decodeObject(
        at path: () -> String, _ body: (inout JSONScanner, JSONStringToken) throws(JSONDecodingError) -> Void
    )
        throws(JSONDecodingError)
    {
        try scanObject(mismatch: { kind in .shape(path(), "expected an object, found \(kind)") }, body)
    }

    /// `checkValueStarts` for decoders.
    package func checkValueStartsForDecoding() throws(JSONDecodingError) {
        do { try checkValueStarts() } catch { throw .syntax(error) }
    }

}

/// `value` unwrapped, or an error that the required member at `path` is missing.
package func required<Value>(_ value: Value?, at path: () -> String) throws(JSONDecodingError) -> Value {
    guard let value else { throw .shape(path(), "missing required field") }
    return value
}
