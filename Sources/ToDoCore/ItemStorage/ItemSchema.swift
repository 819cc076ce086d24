import Foundation

// The store's item schema: how items, locations and coordinates are read from JSON and written to
// it, keys in a stable order, members this version does not know kept (`UnknownMembers`). Items
// in the exact form written here are read by a shortcut (`WrittenFormReader`) and copied back
// unchanged (`writeArray`).

extension ToDoItem {
    /// The keys todo itself reads in an item of its file: another program's member of one of
    /// these names, written as it came, would be read as todo's own field, or make the file one
    /// todo refuses: other programs' members are kept apart (`ForeignMembers`).
    static let ownKeys = Set<String>([
        "id", "number", "title", "itemDescription", "timestamp", "dueDate", "allDay", "start", "startDate", "repeat", "location", "priority", "tags",
        "parent", "done", "inProgress", "percentComplete", "createdAt", "completedAt", "modifiedAt", "uid", "icalendar", "from",
    ]).union(ItemField.texts.map(\.fileKey))

    /// The text field (`ItemField.texts`) the file keeps under `key`.
    private static let textFields = Dictionary(uniqueKeysWithValues: ItemField.texts.map { ($0.fileKey, $0) })
}

extension ToDoItem: JSONSchema {
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var id: UUID?, idText: String?, number = 0, title: String?, itemDescription: String?, due: ItemDate?, start: ItemDate?
        var location: Location?, done = false, createdAt: Double?, completedAt: Double?, modifiedAt: Double?
        var priority: Int?, tags: [String] = [], parent: UUID?, allDay: Bool?, repeatRule: String?, originalUID: String?
        var icalendarLines: [String] = []
        var inProgress = false, percentComplete: Int?
        var foreign = ForeignMembers()
        var texts: [(ItemField, String)] = []
        var unknown = UnknownMembers()
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
            // A due and a start are each a time in seconds or a day, never both.
            case "timestamp":
                try Self.checkOne(due, "dueDate", field)
                due = try scanner.double(at: field, in: Self.timestampRange).map(ItemDate.time)
            case "dueDate":
                try Self.checkOne(due, "timestamp", field)
                due = try Self.day(&scanner, at: field)
            case "allDay": allDay = try scanner.bool(at: field)
            case "start":
                try Self.checkOne(start, "startDate", field)
                start = try scanner.double(at: field, in: Self.timestampRange).map(ItemDate.time)
            case "startDate":
                try Self.checkOne(start, "start", field)
                start = try Self.day(&scanner, at: field)
            case "location": location = try scanner.decode(Location.self, at: field)
            case "done": done = try scanner.bool(at: field) ?? false
            case "inProgress": inProgress = try scanner.bool(at: field) ?? false
            case "percentComplete": percentComplete = try scanner.int(at: field, in: Self.percentRange)
            case "createdAt": createdAt = try scanner.double(at: field, in: Self.timestampRange)
            case "completedAt": completedAt = try scanner.double(at: field, in: Self.timestampRange)
            case "modifiedAt": modifiedAt = try scanner.double(at: field, in: Self.timestampRange)
            case "uid": originalUID = try scanner.string(at: field)
            case "from": foreign = try Self.foreignMembers(&scanner, at: field)
            // Keys another program may use for a value of another kind (Reminders' `"priority": 0`,
            // a word): such a value is kept as it was, beside todo's own fields.
            case "icalendar":
                icalendarLines = try Self.ownValue(&scanner, key, &unknown, Self.strings) ?? []
            case "priority":
                priority = try Self.ownValue(&scanner, key, &unknown) { value in
                    guard case .number(let literal) = value, let number = Int(literal), Self.priorityRange.contains(number) else { return nil }
                    return number
                }
            case "parent":
                parent = try Self.ownValue(&scanner, key, &unknown) { value in
                    guard case .string(let text) = value else { return nil }
                    return text.utf8.withContiguousStorageIfAvailable { UUID(canonical: $0) } ?? nil
                }
            case "tags":
                tags = try Self.ownValue(&scanner, key, &unknown, Self.strings) ?? []
            case "repeat":
                repeatRule = try Self.ownValue(&scanner, key, &unknown) { value in value.string }
            default:
                if let text = Self.textFields[key.string] {
                    if let value = try scanner.string(at: field) { texts.append((text, value)) }
                } else {
                    unknown.append(key: key.string, value: try scanner.unknownValue())
                }
            }
        }
        if let idText { throw .shape(memberPath(path(), "id"), "\"\(idText)\" is not a UUID") }
        var fields = ItemFields(
            title: try required(title) { memberPath(path(), "title") }, itemDescription: itemDescription,
            due: due, start: start, legacyAllDay: due?.isDay == false ? allDay : nil, repeatRule: repeatRule, location: location,
            priority: priority, tags: tags, parent: parent, inProgress: inProgress, percentComplete: percentComplete,
            createdAt: createdAt, completedAt: completedAt, modifiedAt: modifiedAt, originalUID: originalUID,
            icalendarLines: icalendarLines, foreignMembers: foreign, unknownMembers: unknown)
        for (field, text) in texts { fields[text: field] = text }
        self.init(id: try required(id) { memberPath(path(), "id") }, number: number, done: done, storage: ItemStorage(fields))
    }

    /// Other programs' members: an object of objects, one per program.
    private static func foreignMembers(_ scanner: inout JSONScanner, at field: () -> String) throws(JSONDecodingError) -> ForeignMembers {
        let value = try scanner.unknownValue()
        if value == .null { return ForeignMembers() }
        guard case .object(let sources) = value, sources.values.allSatisfy({ if case .object = $0 { true } else { false } }) else {
            throw .shape(field(), "expected an object of each program's members, as {\"taskwarrior\": {\"project\": \"home\"}}")
        }
        return ForeignMembers(sources: sources)
    }

    /// A day written `"2026-12-03"`; `null` is none.
    private static func day(_ scanner: inout JSONScanner, at field: () -> String) throws(JSONDecodingError) -> ItemDate? {
        guard let text = try scanner.string(at: field) else { return nil }
        guard let day = Day(iso: Array(text.utf8)) else { throw .shape(field(), "\"\(text)\" is not a date written YYYY-MM-DD in the years 1 to 9999") }
        return .day(day)
    }

    /// Refuses a due or start given both in seconds and as a day.
    private static func checkOne(_ date: ItemDate?, _ other: String, _ field: () -> String) throws(JSONDecodingError) {
        guard date != nil else { return }
        throw .shape(field(), "the item also has \(other): a date is a time or a day, not both")
    }

    /// An array of strings, else `nil`.
    private static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else { return nil }
        let strings = elements.compactMap(\.string)
        return strings.count == elements.count ? strings : nil
    }

    /// The member's value as todo's own field, when `own` reads it; any other value but `null` is
    /// another program's, kept with the item as it was.
    private static func ownValue<Value>(_ scanner: inout JSONScanner, _ key: JSONStringToken, _ unknown: inout UnknownMembers,
                                        _ own: (JSONValue) -> Value?) throws(JSONDecodingError) -> Value? {
        let value = try scanner.unknownValue()
        if let mine = own(value) { return mine }
        if value != .null { unknown.append(key: key.string, value: value) }
        return nil
    }

    func write(to writer: inout JSONWriter) {
        if let writtenForm {
            writer.raw(writtenForm.bytes)
            return
        }
        let fields = storage.fields
        writer.beginObject()
        writer.key("id")
        writer.uuid(id)
        if number > 0 {
            writer.key("number")
            writer.int(number)
        }
        writer.field("title", fields.title)
        writer.field("itemDescription", fields.itemDescription)
        writer.date(fields.due, time: "timestamp", day: "dueDate")
        writer.date(fields.start, time: "start", day: "startDate")
        writer.field("repeat", fields.repeatRule)
        writer.field("location", fields.location)
        if let priority = fields.priority {
            writer.key("priority")
            writer.int(priority)
        }
        if !fields.tags.isEmpty {
            writer.key("tags")
            writer.strings(fields.tags)
        }
        if let parent = fields.parent {
            writer.key("parent")
            writer.uuid(parent)
        }
        writer.key("done")
        writer.bool(done)
        if fields.inProgress {
            writer.key("inProgress")
            writer.bool(true)
        }
        if let percent = fields.percentComplete {
            writer.key("percentComplete")
            writer.int(percent)
        }
        writer.field("createdAt", fields.createdAt)
        writer.field("completedAt", fields.completedAt)
        writer.field("modifiedAt", fields.modifiedAt)
        writer.field("uid", fields.originalUID)
        for field in ItemField.texts {
            guard let text = fields[text: field] else { continue }
            writer.key(field.fileKey)
            writer.string(text)
        }
        if !fields.icalendarLines.isEmpty {
            writer.key("icalendar")
            writer.strings(fields.icalendarLines)
        }
        if !fields.foreignMembers.isEmpty {
            writer.key("from")
            writer.value(.object(fields.foreignMembers.sources))
        }
        writer.unknownMembers(fields.unknownMembers)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }
}

extension Location: JSONSchema {
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var name: String?, address: String?, coordinate: Coordinate?
        var unknown = UnknownMembers()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            switch key {
            case "name": name = try scanner.string(at: field)
            case "address": address = try scanner.string(at: field)
            case "coordinate": coordinate = try scanner.decode(Coordinate.self, at: field)
            default: unknown.append(key: key.string, value: try scanner.unknownValue())
            }
        }
        self.name = try required(name) { memberPath(path(), "name") }
        self.address = address
        self.coordinate = coordinate
        unknownMembers = unknown
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("name", name)
        writer.field("address", address)
        writer.field("coordinate", coordinate)
        writer.unknownMembers(unknownMembers)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }
}

extension Coordinate: JSONSchema {
    init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var latitude: Double?, longitude: Double?
        var unknown = UnknownMembers()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            switch key {
            case "latitude": latitude = try scanner.double(at: field, in: Self.latitudeRange)
            case "longitude": longitude = try scanner.double(at: field, in: Self.longitudeRange)
            default: unknown.append(key: key.string, value: try scanner.unknownValue())
            }
        }
        self.latitude = try required(latitude) { memberPath(path(), "latitude") }
        self.longitude = try required(longitude) { memberPath(path(), "longitude") }
        unknownMembers = unknown
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("latitude", latitude)
        writer.field("longitude", longitude)
        writer.unknownMembers(unknownMembers)
        writer.endObject()
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }
}

extension UnknownMembers {
    /// Appends a member; the scanner has refused a key met twice.
    mutating func append(key: String, value: JSONValue) {
        if !text.isEmpty { text.append(UInt8(ascii: ",")) }
        JSONValue.writeString(key, to: &text)
        text.append(UInt8(ascii: ":"))
        text.append(contentsOf: value.serializedCompactly())
    }
}

extension JSONWriter {
    /// A time as seconds under `time`, a day as `"2026-12-03"` under `day`; nothing for none.
    mutating func date(_ date: ItemDate?, time: StaticString, day: StaticString) {
        switch date {
        case .time(let seconds)?: field(time, seconds)
        case .day(let date)?:
            key(day)
            // Digit by digit: a list writes thousands (`Day.isoText` spells the same).
            let parts = date.calendarDay
            func put(_ value: Int, from divisor: Int) {
                var divisor = divisor
                while divisor > 0 {
                    bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            bytes.append(UInt8(ascii: "\""))
            put(parts.year, from: 1000)
            bytes.append(UInt8(ascii: "-"))
            put(parts.month, from: 10)
            bytes.append(UInt8(ascii: "-"))
            put(parts.day, from: 10)
            bytes.append(UInt8(ascii: "\""))
        case nil: break
        }
    }

    /// The members of the object being written that this version does not know, after its own.
    mutating func unknownMembers(_ unknown: UnknownMembers) {
        members(unknown.text)
    }
}
