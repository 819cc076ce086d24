/// A point on Earth in degrees, as the book's `Coordinate`.
public struct Coordinate: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Members of the stored JSON object that this version does not know, kept for the next write.
    var unknownFields = JSONObject()

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public static let latitudeRange: ClosedRange<Double> = -90...90
    public static let longitudeRange: ClosedRange<Double> = -180...180

    /// Whether both components are within ±90° latitude and ±180° longitude (so finite).
    public var isValid: Bool {
        Self.latitudeRange.contains(latitude) && Self.longitudeRange.contains(longitude)
    }
}

extension Coordinate: JSONSchema {
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var latitude: Double?, longitude: Double?
        var unknown = JSONObject()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            switch key {
            case "latitude": latitude = try scanner.double(at: field, in: Self.latitudeRange)
            case "longitude": longitude = try scanner.double(at: field, in: Self.longitudeRange)
            default: unknown.appendUnchecked(key: key.string, value: try scanner.unknownValue())
            }
        }
        self.latitude = try required(latitude) { memberPath(path(), "latitude") }
        self.longitude = try required(longitude) { memberPath(path(), "longitude") }
        unknownFields = unknown
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("latitude", latitude)
        writer.field("longitude", longitude)
        writer.unknownFields(unknownFields)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }
}
