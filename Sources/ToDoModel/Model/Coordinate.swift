/// A point on Earth in degrees, as the book's `Coordinate`.
public struct Coordinate: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// What the file held for the coordinate that this version does not know.
    package var unknownMembers = UnknownMembers()

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
