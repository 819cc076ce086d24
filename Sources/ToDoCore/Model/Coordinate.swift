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

extension Coordinate: JSONRepresentable {
    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        latitude = try reader.required(reader.double("latitude", in: Self.latitudeRange), "latitude")
        longitude = try reader.required(reader.double("longitude", in: Self.longitudeRange), "longitude")
        unknownFields = reader.unknownFields
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["latitude"] = .number(latitude)
        object["longitude"] = .number(longitude)
        object.merge(unknownFields)
        return .object(object)
    }
}
