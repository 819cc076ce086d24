import Foundation

/// One thing to do, as the book's `ToDoItem`, plus the stable number the command line shows and the
/// times it was created and completed.
public struct ToDoItem: Equatable, Sendable {
    /// The largest item number: 2^53 − 1, the largest integer that every JSON reader keeps exactly.
    public static let largestNumber = 9_007_199_254_740_991
    /// Due, created and completed times lie within the years 1 to 9999, the dates that can be typed
    /// and shown: from 1 January of year 1 in Foundation's calendar (Julian before 1582) to the end of
    /// 9999, each with a day to spare for time zones.
    public static let timestampRange: ClosedRange<Double> = -62_135_856_000 ... 253_402_387_199

    /// Identifies the item for as long as it exists, in this file and in any export of it.
    public let id: UUID
    /// The number the command line shows, assigned by `ItemManager` when the item is added and never
    /// reused; 0 for an item that has not been added to a manager.
    public internal(set) var number: Int
    /// A non-empty single line (`ItemManager` refuses anything else).
    public var title: String
    public var itemDescription: String?
    /// The due date, in seconds since 1970.
    public var timestamp: Double?
    public var location: Location?
    /// Whether the item is checked; changed only by `ItemManager.checkItem` and `uncheckItem`.
    public internal(set) var done: Bool
    /// When the item was added, in seconds since 1970, if the manager was given a clock.
    public internal(set) var createdAt: Double?
    /// When the item was last checked, in seconds since 1970, if the manager was given a clock.
    public internal(set) var completedAt: Double?
    /// Members of the stored JSON object that this version does not know, kept for the next write.
    var unknownFields = JSONObject()

    public init(
        title: String,
        itemDescription: String? = nil,
        timestamp: Double? = nil,
        location: Location? = nil,
        id: UUID = UUID()
    ) {
        self.id = id
        self.number = 0
        self.title = title
        self.itemDescription = itemDescription
        self.timestamp = timestamp
        self.location = location
        self.done = false
    }

    /// Whether the two items have the same content: title, description, due date and location
    /// (locations compared as `Location` equality does). Identity, number and status do not count.
    public func hasSameContent(as other: ToDoItem) -> Bool {
        title == other.title
            && itemDescription == other.itemDescription
            && timestamp == other.timestamp
            && location == other.location
    }
}

extension ToDoItem: JSONRepresentable {
    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        let idText = try reader.required(reader.string("id"), "id")
        guard let id = UUID(canonical: idText) else {
            throw reader.invalid("id", "\"\(idText)\" is not a UUID")
        }
        self.id = id
        number = try reader.int("number", in: 1...Self.largestNumber) ?? 0
        title = try reader.required(reader.string("title"), "title")
        itemDescription = try reader.string("itemDescription")
        timestamp = try reader.double("timestamp", in: Self.timestampRange)
        location = try reader.decode("location", as: Location.self)
        done = try reader.bool("done") ?? false
        createdAt = try reader.double("createdAt", in: Self.timestampRange)
        completedAt = try reader.double("completedAt", in: Self.timestampRange)
        unknownFields = reader.unknownFields
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["id"] = .string(id.uuidString)
        object["number"] = number > 0 ? .number(number) : nil
        object["title"] = .string(title)
        object["itemDescription"] = itemDescription.map(JSONValue.string)
        object["timestamp"] = timestamp.map(JSONValue.number)
        object["location"] = location?.json
        object["done"] = .bool(done)
        object["createdAt"] = createdAt.map(JSONValue.number)
        object["completedAt"] = completedAt.map(JSONValue.number)
        object.merge(unknownFields)
        return .object(object)
    }
}
