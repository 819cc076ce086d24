/// Where an item is to be done: a name, and optionally the address it was entered with and its
/// coordinate, as the book's `Location`.
public struct Location: Sendable {
    public var name: String
    /// The address as the user typed it (the book's input form asks for one).
    public var address: String?
    public var coordinate: Coordinate?
    /// Members of the stored JSON object that this version does not know, kept for the next write.
    var unknownFields = JSONObject()

    public init(name: String, address: String? = nil, coordinate: Coordinate? = nil) {
        self.name = name
        self.address = address
        self.coordinate = coordinate
    }
}

extension Location: Equatable {
    /// The largest difference in degrees at which two coordinate components still count as equal.
    public static let coordinateTolerance = 0.000_000_1

    /// The book's equality: the same name, and either no coordinates or coordinates whose components
    /// each differ by at most `coordinateTolerance`. The address does not take part.
    public static func == (lhs: Location, rhs: Location) -> Bool {
        guard lhs.name == rhs.name else { return false }
        switch (lhs.coordinate, rhs.coordinate) {
        case (nil, nil):
            return true
        case let (left?, right?):
            return abs(left.latitude - right.latitude) <= coordinateTolerance
                && abs(left.longitude - right.longitude) <= coordinateTolerance
        default:
            return false
        }
    }
}

extension Location: JSONSchema {
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var name: String?, address: String?, coordinate: Coordinate?
        var unknown = JSONObject()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            switch key {
            case "name": name = try scanner.string(at: field)
            case "address": address = try scanner.string(at: field)
            case "coordinate": coordinate = try scanner.decode(Coordinate.self, at: field)
            default: unknown.appendUnchecked(key: key.string, value: try scanner.unknownValue())
            }
        }
        self.name = try required(name) { memberPath(path(), "name") }
        self.address = address
        self.coordinate = coordinate
        unknownFields = unknown
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("name", name)
        writer.field("address", address)
        writer.field("coordinate", coordinate)
        writer.unknownFields(unknownFields)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }
}
