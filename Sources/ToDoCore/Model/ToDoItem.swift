import Foundation

/// One thing to do, as the book's `ToDoItem`, plus the stable number the command line shows and the
/// times it was created and completed.
///
/// An item read from a list in the exact form todo writes keeps only its id, number and status, and
/// where its other fields are in the file's text; they are read when asked for. A command touches
/// a handful of fields of a few items, and a list holds years of them. Setting any field stores
/// them all decoded.
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
    public internal(set) var number: Int { didSet { matchesWrittenForm = false } }
    /// Whether the item is checked; changed only by `ItemManager.checkItem` and `uncheckItem`.
    public internal(set) var done: Bool { didSet { matchesWrittenForm = false } }
    /// The other fields: decoded, or where they are in the text the item was read from.
    private var storage: Storage
    /// The text a written form points into, kept alive for it. Apart from `storage`, so that
    /// reading a field through the form counts no reference.
    private var text: StoredText?
    /// Whether `write(to:)` may copy the bytes the item was read from: its fields are still those
    /// bytes, and the number and status have not changed since.
    private var matchesWrittenForm: Bool

    /// The fields other than id, number and status.
    struct Fields: Equatable, Sendable {
        var title: String
        var itemDescription: String?
        var timestamp: Double?
        var location: Location?
        var createdAt: Double?
        var completedAt: Double?
        /// Members of the stored JSON object that this version does not know, kept for the next write.
        var unknownFields = JSONObject()
    }

    private enum Storage: Sendable {
        case written(WrittenForm)
        indirect case decoded(Fields)
    }

    public init(
        title: String,
        itemDescription: String? = nil,
        timestamp: Double? = nil,
        location: Location? = nil,
        id: UUID = UUID()
    ) {
        self.init(id: id, number: 0, done: false,
                  fields: Fields(title: title, itemDescription: itemDescription, timestamp: timestamp, location: location))
    }

    init(id: UUID, number: Int, done: Bool, fields: Fields) {
        self.id = id
        self.number = number
        self.done = done
        storage = .decoded(fields)
        matchesWrittenForm = false
    }

    /// An item whose fields stay in `form`, in `text`, until asked for.
    init(id: UUID, number: Int, done: Bool, writtenForm form: WrittenForm, in text: StoredText) {
        self.id = id
        self.number = number
        self.done = done
        storage = .written(form)
        self.text = text
        matchesWrittenForm = true
    }

    /// A non-empty single line (`ItemManager` refuses anything else).
    public var title: String {
        get { if case .written(let form) = storage { form.title } else { fields.title } }
        set { fields.title = newValue }
    }

    public var itemDescription: String? {
        get { if case .written(let form) = storage { form.itemDescription } else { fields.itemDescription } }
        set { fields.itemDescription = newValue }
    }

    /// The due date, in seconds since 1970.
    public var timestamp: Double? {
        get { if case .written(let form) = storage { form.timestamp } else { fields.timestamp } }
        set { fields.timestamp = newValue }
    }

    public var location: Location? {
        get { if case .written(let form) = storage { form.location } else { fields.location } }
        set { fields.location = newValue }
    }

    /// When the item was added, in seconds since 1970, if the manager was given a clock.
    public internal(set) var createdAt: Double? {
        get { if case .written(let form) = storage { form.createdAt } else { fields.createdAt } }
        set { fields.createdAt = newValue }
    }

    /// When the item was last checked, in seconds since 1970, if the manager was given a clock.
    public internal(set) var completedAt: Double? {
        get { if case .written(let form) = storage { form.completedAt } else { fields.completedAt } }
        set { fields.completedAt = newValue }
    }

    /// The name of the item's location: the same as `location?.name`, without reading the rest
    /// of the location from an item's written form (a list shows thousands of names).
    public var locationName: String? {
        if case .written(let form) = storage { form.locationName } else { fields.location?.name }
    }

    /// Calls `body` with the title's UTF-8 bytes: for an item in its written form whose title has
    /// no escapes, straight from the text it was read from, without making a `String` (a list
    /// shows thousands of titles). Not generic, so that a call from another module is not slowed
    /// by an unspecialised generic.
    public func withTitleUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if case .written(let form) = storage, form.withUnescapedTitle(body) != nil { return }
        var title = title
        title.withUTF8(body)
    }

    /// Calls `body` with what `todo list` shows of the item. For an item in its written form, its
    /// strings are read straight from the text it was read from unless they have escapes, and the
    /// rest is not read at all (a list shows thousands of items). Not generic, as `withTitleUTF8`.
    public func withListFields(_ body: (ListFields) -> Void) {
        if case .written(let form) = storage { return form.withListFields(body) }
        var title = fields.title
        let due = ListFields.Due.value(fields.timestamp)
        title.withUTF8 { title in
            guard var name = fields.location?.name else { return body(ListFields(title: title, locationName: nil, due: due)) }
            name.withUTF8 { name in body(ListFields(title: title, locationName: name, due: due)) }
        }
    }

    /// The title's ASCII `TitleKey`, made from its bytes (`withTitleUTF8`), if it has one.
    var asciiTitleKey: Int? {
        var key: Int?
        withTitleUTF8 { key = TitleKey.asciiKey(ofUTF8: $0) }
        return key
    }

    var unknownFields: JSONObject {
        get { fields.unknownFields }
        set { fields.unknownFields = newValue }
    }

    /// All the fields, decoded; setting them drops the written form.
    var fields: Fields {
        get {
            switch storage {
            case .written(let form): return form.fields
            case .decoded(let fields): return fields
            }
        }
        set {
            storage = .decoded(newValue)
            text = nil
            matchesWrittenForm = false
        }
    }

    /// The bytes the item was read from, when writing it anew would give exactly them.
    var writtenForm: WrittenForm? {
        guard matchesWrittenForm, case .written(let form) = storage else { return nil }
        return form
    }

    /// Where the text the written form points into starts: items with the same one were read
    /// from one text.
    var writtenTextStart: UnsafePointer<UInt8>? {
        matchesWrittenForm ? text?.start : nil
    }

    /// The same item with its fields decoded, as an item made in code has them.
    var decoded: ToDoItem {
        var item = self
        item.fields = fields
        return item
    }

    /// Whether the two items have the same content: title, description, due date and location
    /// (locations compared as `Location` equality does). Identity, number and status do not count.
    public func hasSameContent(as other: ToDoItem) -> Bool {
        title == other.title
            && itemDescription == other.itemDescription
            && timestamp == other.timestamp
            && location == other.location
    }

    /// Items are equal when their id, number, status and every field are; whether an item keeps
    /// its written form does not count.
    public static func == (lhs: ToDoItem, rhs: ToDoItem) -> Bool {
        lhs.id == rhs.id && lhs.number == rhs.number && lhs.done == rhs.done && lhs.fields == rhs.fields
    }
}

/// What `todo list` shows of an item (`ToDoItem.withListFields`): its strings as UTF-8 bytes,
/// valid only while the call lasts.
public struct ListFields {
    public let title: UnsafeBufferPointer<UInt8>
    public let locationName: UnsafeBufferPointer<UInt8>?
    /// The due date, or where it is written: read only when asked for.
    let due: Due

    enum Due {
        case value(Double?)
        case written(UnsafeBufferPointer<UInt8>, at: Int)
    }

    /// The due date, in seconds since 1970.
    public var timestamp: Double? {
        switch due {
        case .value(let timestamp): return timestamp
        case .written(let bytes, let index):
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = index
            return ToDoItem.writtenNumber(&scanner, in: ToDoItem.timestampRange)
        }
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
        self.init(
            id: try required(id) { memberPath(path(), "id") }, number: number, done: done,
            fields: Fields(title: try required(title) { memberPath(path(), "title") }, itemDescription: itemDescription,
                           timestamp: timestamp, location: location, createdAt: createdAt, completedAt: completedAt,
                           unknownFields: unknown))
    }

    func write(to writer: inout JSONWriter) {
        if let writtenForm {
            writer.raw(writtenForm.bytes)
            return
        }
        let fields = fields
        writer.beginObject()
        writer.key("id")
        writer.uuid(id)
        if number > 0 {
            writer.key("number")
            writer.int(number)
        }
        writer.field("title", fields.title)
        writer.field("itemDescription", fields.itemDescription)
        writer.field("timestamp", fields.timestamp)
        writer.field("location", fields.location)
        writer.key("done")
        writer.bool(done)
        writer.field("createdAt", fields.createdAt)
        writer.field("completedAt", fields.completedAt)
        writer.unknownFields(fields.unknownFields)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }

    /// `items` as a JSON array with one compact item per line (as in the data file), written
    /// straight from the items: fast for long lists, and easy for line-based tools.
    public static func jsonArray(_ items: [ToDoItem]) -> [UInt8] {
        var bytes: [UInt8] = []
        writeJSONArray([items], to: { bytes.append(contentsOf: $0) })
        return bytes
    }

    /// `jsonArray` of the items of `sections` one after another, handed to `emit` a piece of about
    /// a megabyte at a time, so that a long list is never held whole in memory. (Arrays rather
    /// than any sequence: a generic call from another module would not be specialised, and would
    /// look up type metadata for every item.)
    public static func writeJSONArray(_ sections: [[ToDoItem]], to emit: ([UInt8]) -> Void) {
        var writer = JSONWriter(capacity: pieceSize + 64 * 1024)
        writeArray(sections.joined(), indent: "  ", closingIndent: "", into: &writer, emit: emit)
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
        // What goes before each item, as bytes once rather than as strings for every item.
        let first = Array("\n\(indent)".utf8), separator = Array(",\n\(indent)".utf8)
        /// Unchanged items that lie one after another in the text they were read from, with this
        /// separator between them, are copied as one run of bytes: most of a list, for most changes.
        var run: (text: UnsafePointer<UInt8>, bytes: UnsafeBufferPointer<UInt8>)?
        func copyRun() throws(Failure) {
            guard var bytes = run?.bytes else { return }
            run = nil
            while !bytes.isEmpty {
                let count = min(bytes.count, max(pieceSize - writer.bytes.count, 0))
                writer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<count]))
                bytes = UnsafeBufferPointer(rebasing: bytes[count...])
                if writer.bytes.count >= pieceSize {
                    try emit(writer.bytes)
                    writer.bytes.removeAll(keepingCapacity: true)
                }
            }
        }
        for item in items {
            if let text = item.writtenTextStart, let form = item.writtenForm {
                if let current = run, current.text == text, let end = current.bytes.baseAddress.map({ $0 + current.bytes.count }),
                   form.start == end + separator.count, separator.elementsEqual(UnsafeBufferPointer(start: end, count: separator.count)) {
                    run = (text, UnsafeBufferPointer(start: current.bytes.baseAddress, count: current.bytes.count + separator.count + form.count))
                    continue
                }
                try copyRun()
                writer.bytes.append(contentsOf: isEmpty ? first : separator)
                isEmpty = false
                run = (text, form.bytes)
                continue
            }
            try copyRun()
            writer.bytes.append(contentsOf: isEmpty ? first : separator)
            isEmpty = false
            item.write(to: &writer)
            if writer.bytes.count >= pieceSize {
                try emit(writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
            }
        }
        try copyRun()
        if !isEmpty {
            writer.bytes.append(UInt8(ascii: "\n"))
            writer.bytes.append(contentsOf: closingIndent.utf8)
        }
        writer.bytes.append(UInt8(ascii: "]"))
    }
}
