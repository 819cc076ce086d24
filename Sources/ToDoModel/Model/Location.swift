/// Where an item is to be done: a name, and optionally the address it was entered with and its
/// coordinate, as the book's `Location`.
public struct Location: Sendable {
    public var name: String
    /// The address as the user typed it (the book's input form asks for one).
    public var address: String?
    public var coordinate: Coordinate?
    /// What the file held for the location that this version does not know.
    package var unknownMembers = UnknownMembers()

    public init(name: String, address: String? = nil, coordinate: Coordinate? = nil) {
        self.name = name
        self.address = address
        self.coordinate = coordinate
    }
}

extension Location {
    /// Whether the two are the same in every part: the book's equality (coordinates within
    /// `coordinateTolerance`, as a calendar's `GEO` gives them back) and the address too. What a
    /// sync compares, since an address changed on one side must reach the other.
    public func isIdentical(to other: Location?) -> Bool {
        guard let other else { return false }
        return self == other && address == other.address
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
