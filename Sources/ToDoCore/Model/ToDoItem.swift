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
    // Every change to a field forgets the written form (see `writtenForm`).

    /// The number the command line shows, assigned by `ItemManager` when the item is added and never
    /// reused; 0 for an item that has not been added to a manager.
    public internal(set) var number: Int { didSet { writtenForm = nil } }
    /// A non-empty single line (`ItemManager` refuses anything else).
    public var title: String { didSet { writtenForm = nil } }
    public var itemDescription: String? { didSet { writtenForm = nil } }
    /// The due date, in seconds since 1970.
    public var timestamp: Double? { didSet { writtenForm = nil } }
    public var location: Location? { didSet { writtenForm = nil } }
    /// Whether the item is checked; changed only by `ItemManager.checkItem` and `uncheckItem`.
    public internal(set) var done: Bool { didSet { writtenForm = nil } }
    /// When the item was added, in seconds since 1970, if the manager was given a clock.
    public internal(set) var createdAt: Double? { didSet { writtenForm = nil } }
    /// When the item was last checked, in seconds since 1970, if the manager was given a clock.
    public internal(set) var completedAt: Double? { didSet { writtenForm = nil } }
    /// Members of the stored JSON object that this version does not know, kept for the next write.
    var unknownFields = JSONObject() { didSet { writtenForm = nil } }
    /// The bytes `write(to:)` would write for the item, when it was read from exactly those bytes
    /// and has not changed since: writing a list copies its unchanged items instead of writing
    /// each anew. Not part of the item's value.
    var writtenForm: WrittenForm?

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

extension ToDoItem: JSONSchema {
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var id: UUID?, idText: String?, number = 0, title: String?, itemDescription: String?, timestamp: Double?
        var location: Location?, done = false, createdAt: Double?, completedAt: Double?
        var unknown = JSONObject()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            switch key {
            case "id":
                let token = try scanner.stringToken(at: field)
                id = token.flatMap { token in token.withUTF8 { UUID(canonical: $0) } }
                idText = id == nil ? token?.string : nil
            case "number": number = try scanner.int(at: field, in: 1...Self.largestNumber) ?? 0
            case "title": title = try scanner.string(at: field)
            case "itemDescription": itemDescription = try scanner.string(at: field)
            case "timestamp": timestamp = try scanner.double(at: field, in: Self.timestampRange)
            case "location": location = try scanner.decode(Location.self, at: field)
            case "done": done = try scanner.bool(at: field) ?? false
            case "createdAt": createdAt = try scanner.double(at: field, in: Self.timestampRange)
            case "completedAt": completedAt = try scanner.double(at: field, in: Self.timestampRange)
            default: unknown.appendUnchecked(key: key.string, value: try scanner.unknownValue())
            }
        }
        if let idText { throw .shape(memberPath(path(), "id"), "\"\(idText)\" is not a UUID") }
        self.id = try required(id) { memberPath(path(), "id") }
        self.number = number
        self.title = try required(title) { memberPath(path(), "title") }
        self.itemDescription = itemDescription
        self.timestamp = timestamp
        self.location = location
        self.done = done
        self.createdAt = createdAt
        self.completedAt = completedAt
        unknownFields = unknown
    }

    func write(to writer: inout JSONWriter) {
        if let writtenForm {
            writer.raw(writtenForm.bytes)
            return
        }
        writer.beginObject()
        writer.key("id")
        writer.uuid(id)
        if number > 0 {
            writer.key("number")
            writer.int(number)
        }
        writer.field("title", title)
        writer.field("itemDescription", itemDescription)
        writer.field("timestamp", timestamp)
        writer.field("location", location)
        writer.key("done")
        writer.bool(done)
        writer.field("createdAt", createdAt)
        writer.field("completedAt", completedAt)
        writer.unknownFields(unknownFields)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }

    /// `items` as a JSON array with one compact item per line (as in the data file), written
    /// straight from the items: fast for long lists, and easy for line-based tools.
    public static func jsonArray<Items: Sequence<ToDoItem>>(_ items: Items) -> [UInt8] {
        var bytes: [UInt8] = []
        writeJSONArray(items) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// `jsonArray(items)` handed to `emit` a piece of about a megabyte at a time, so that a long
    /// list is never held whole in memory.
    public static func writeJSONArray<Items: Sequence<ToDoItem>>(_ items: Items, to emit: ([UInt8]) -> Void) {
        var writer = JSONWriter(capacity: pieceSize + 64 * 1024)
        writeArray(items, indent: "  ", closingIndent: "", into: &writer, emit: emit)
        writer.bytes.append(UInt8(ascii: "\n"))
        emit(writer.bytes)
    }

    /// How much output `writeArray` gathers before handing it on.
    static let pieceSize = 1 << 20

    /// Writes `items` as an array, one compact item per line after `indent`, the closing bracket on
    /// a line of its own after `closingIndent` (or right after `[` when there are none). Whenever a
    /// piece of `pieceSize` has gathered in `writer`, it goes to `emit`; the rest stays for the caller.
    static func writeArray<Items: Sequence<ToDoItem>, Failure: Error>(
        _ items: Items, indent: String, closingIndent: String, into writer: inout JSONWriter,
        emit: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        writer.bytes.append(UInt8(ascii: "["))
        var isEmpty = true
        for item in items {
            writer.bytes.append(contentsOf: (isEmpty ? "\n" : ",\n").utf8)
            writer.bytes.append(contentsOf: indent.utf8)
            isEmpty = false
            item.write(to: &writer)
            if writer.bytes.count >= pieceSize {
                try emit(writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
            }
        }
        if !isEmpty {
            writer.bytes.append(UInt8(ascii: "\n"))
            writer.bytes.append(contentsOf: closingIndent.utf8)
        }
        writer.bytes.append(UInt8(ascii: "]"))
    }
}
