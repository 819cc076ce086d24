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

    /// Whether both components are finite and within ±90° latitude and ±180° longitude.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

extension Coordinate: JSONRepresentable {
    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        latitude = try reader.required(reader.double("latitude"), "latitude")
        longitude = try reader.required(reader.double("longitude"), "longitude")
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
