import ToDoModel

// The store's item schema: how items, locations and coordinates are read from JSON and written to
// it, keys in a stable order, members this version does not know kept (`UnknownMembers`). Items
// in the exact form written here are read by a shortcut (`WrittenFormReader`) and copied back
// unchanged (`writeArray`).

extension ToDoItem {
    /// The keys todo itself reads in an item of its file: another program's member of one of
    /// these names, written as it came, would be read as todo's own field, or make the file one
    /// todo refuses: other programs' members are kept apart (`ForeignMembers`).
    package static let ownKeys = Set(
        ["id", "number", "allDay", "createdAt", "completedAt", "modifiedAt", "uid", "icalendar", "from"]
            + ItemField.allCases.flatMap(\.fileKeys))

    /// The field each of the fields' keys belongs to (`ItemField.fileKeys`).
    private static let fieldsByKey = Dictionary(
        uniqueKeysWithValues: ItemField.allCases.flatMap { field in field.fileKeys.map { ($0, field) } })
}

extension ToDoItem: JSONSchema {
    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var id: UUID?, idText: String?, number = 0, title: String?, done = false, allDay: Bool?
        var fields = ItemFields(title: "")
        var unknown = UnknownMembers()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            switch key {
            case "id":
                let token = try scanner.stringToken(at: field)
                id = token.flatMap { token in token.withUTF8 { UUID(canonical: $0) } }
                idText = id == nil ? token?.string : nil
            case "number": number = try scanner.int(at: field, in: 1...Self.largestNumber) ?? 0
            case "allDay": allDay = try scanner.bool(at: field)
            case "createdAt": fields.createdAt = try scanner.double(at: field, in: Self.timestampRange)
            case "completedAt": fields.completedAt = try scanner.double(at: field, in: Self.timestampRange)
            case "modifiedAt": fields.modifiedAt = try scanner.double(at: field, in: Self.timestampRange)
            case "uid": fields.originalUID = try scanner.string(at: field)
            case "from": fields.foreignMembers = try Self.foreignMembers(&scanner, at: field)
            // Kept as it was when of another kind, as the fields below that another program may use.
            case "icalendar":
                fields.icalendarLines = try Self.ownValue(&scanner, "icalendar", &unknown, Self.strings) ?? []
            default:
                let name = key.string
                guard let itemField = Self.fieldsByKey[name] else {
                    return unknown.append(key: name, value: try scanner.unknownValue())
                }
                if itemField == .title {
                    title = try scanner.string(at: field)
                } else if itemField == .status {
                    done = try scanner.bool(at: field) ?? false
                } else {
                    try Self.read(itemField, key: name, &scanner, into: &fields, unknown: &unknown, at: field)
                }
            }
        }
        if let idText { throw .shape(memberPath(path(), "id"), "\"\(idText)\" is not a UUID") }
        fields.title = try required(title) { memberPath(path(), "title") }
        fields.legacyAllDay = fields.due?.isDay == false ? allDay : nil
        fields.unknownMembers = unknown
        // A project an earlier version kept as another program's is the field now, and so are
        // the alarms it kept as a calendar's lines.
        if fields.project == nil, !fields.foreignMembers.isEmpty {
            fields.project = fields.foreignMembers.takeProject()
        }
        if !fields.icalendarLines.isEmpty { fields.takeAlarmsFromCalendarLines() }
        self.init(id: try required(id) { memberPath(path(), "id") }, number: number, done: done, fields: fields)
    }

    /// Reads the value of `field` under `key` into `fields`. A value of another kind where another
    /// program may use the key (Reminders' `"priority": 0`, a word) is kept as it was, beside
    /// todo's own fields.
    private static func read(
        _ field: ItemField, key: String, _ scanner: inout JSONScanner, into fields: inout ItemFields,
        unknown: inout UnknownMembers, at path: () -> String
    ) throws(JSONDecodingError) {
        switch field {
        // Read by the caller: the item is made with them.
        case .title, .status: break
        case .description: fields.itemDescription = try scanner.string(at: path)
        // A due and a start are each a time in seconds or a day, never both.
        case .due:
            try checkOne(fields.due, key == "timestamp" ? "dueDate" : "timestamp", path)
            fields.due =
                key == "timestamp"
                ? try scanner.double(at: path, in: timestampRange).map(ItemDate.time) : try day(&scanner, at: path)
        case .start:
            try checkOne(fields.start, key == "start" ? "startDate" : "start", path)
            fields.start =
                key == "start"
                ? try scanner.double(at: path, in: timestampRange).map(ItemDate.time) : try day(&scanner, at: path)
        case .repeatRule where key == "repeatZone":
            fields.repeatZone = try ownValue(&scanner, key, &unknown) { value in value.string }
        case .repeatRule: fields.repeatRule = try ownValue(&scanner, key, &unknown) { value in value.string }
        case .place: fields.location = try scanner.decode(Location.self, at: path)
        case .priority:
            fields.priority = try ownValue(&scanner, key, &unknown) { value in
                guard case .number(let literal) = value, let number = Int(literal), priorityRange.contains(number)
                else { return nil }
                return number
            }
        case .tags: fields.tags = try ownValue(&scanner, key, &unknown, strings) ?? []
        case .parent:
            fields.parent = try ownValue(&scanner, key, &unknown) { value in
                guard case .string(let text) = value else { return nil }
                return text.utf8.withContiguousStorageIfAvailable { UUID(canonical: $0) } ?? nil
            }
        case .progress:
            if key == "inProgress" {
                fields.inProgress = try scanner.bool(at: path) ?? false
            } else {
                fields.percentComplete = try scanner.int(at: path, in: percentRange)
            }
        case .url, .project, .list: fields[text: field] = try scanner.string(at: path)
        case .annotations: fields.annotations = try ownValue(&scanner, key, &unknown, Annotation.list) ?? []
        case .alarms: fields.alarms = try ownValue(&scanner, key, &unknown, Alarm.list) ?? []
        }
    }

    /// Other programs' members: an object of objects, one per program.
    private static func foreignMembers(
        _ scanner: inout JSONScanner, at field: () -> String
    ) throws(JSONDecodingError) -> ForeignMembers {
        let value = try scanner.unknownValue()
        if value == .null { return ForeignMembers() }
        guard case .object(let sources) = value,
            sources.values.allSatisfy({ if case .object = $0 { true } else { false } })
        else {
            throw .shape(
                field(), "expected an object of each program's members, as {\"taskwarrior\": {\"project\": \"home\"}}")
        }
        return ForeignMembers(sources: sources)
    }

    /// A day written `"2026-12-03"`; `null` is none.
    private static func day(_ scanner: inout JSONScanner, at field: () -> String) throws(JSONDecodingError) -> ItemDate?
    {
        guard let text = try scanner.string(at: field) else { return nil }
        guard let day = Day(iso: Array(text.utf8)) else {
            throw .shape(field(), "\"\(text)\" is not a date written YYYY-MM-DD in the years 1 to 9999")
        }
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
    private static func ownValue<Value>(
        _ scanner: inout JSONScanner, _ key: String, _ unknown: inout UnknownMembers,
        _ own: (JSONValue) -> Value?
    ) throws(JSONDecodingError) -> Value? {
        let value = try scanner.unknownValue()
        if let mine = own(value) { return mine }
        if value != .null { unknown.append(key: key, value: value) }
        return nil
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.uuid(id)
        if number > 0 {
            writer.key("number")
            writer.int(number)
        }
        for field in ItemField.inFileOrder { Self.write(field, of: fields, done: done, to: &writer) }
        writer.field("createdAt", fields.createdAt)
        writer.field("completedAt", fields.completedAt)
        writer.field("modifiedAt", fields.modifiedAt)
        writer.field("uid", fields.originalUID)
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

    /// Writes `field` under its keys (`ItemField.fileKeys`); nothing for a field the item lacks.
    private static func write(_ field: ItemField, of fields: ItemFields, done: Bool, to writer: inout JSONWriter) {
        switch field {
        case .title: writer.field("title", fields.title)
        case .description: writer.field("itemDescription", fields.itemDescription)
        case .due: writer.date(fields.due, time: "timestamp", day: "dueDate")
        case .start: writer.date(fields.start, time: "start", day: "startDate")
        case .repeatRule:
            writer.field("repeat", fields.repeatRule)
            writer.field("repeatZone", fields.repeatZone)
        case .place: writer.field("location", fields.location)
        case .priority:
            guard let priority = fields.priority else { return }
            writer.key("priority")
            writer.int(priority)
        case .tags:
            guard !fields.tags.isEmpty else { return }
            writer.key("tags")
            writer.strings(fields.tags)
        case .parent:
            guard let parent = fields.parent else { return }
            writer.key("parent")
            writer.uuid(parent)
        case .status:
            writer.key("done")
            writer.bool(done)
        case .progress:
            if fields.inProgress {
                writer.key("inProgress")
                writer.bool(true)
            }
            if let percent = fields.percentComplete {
                writer.key("percentComplete")
                writer.int(percent)
            }
        case .annotations:
            guard !fields.annotations.isEmpty else { return }
            writer.key("annotations")
            writer.value(.array(fields.annotations.map(\.json)))
        case .alarms:
            guard !fields.alarms.isEmpty else { return }
            writer.key("alarms")
            writer.value(.array(fields.alarms.map(\.json)))
        case .url, .project, .list:
            guard let text = fields[text: field] else { return }
            writer.key(field.fileKey)
            writer.string(text)
        }
    }

    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        self = try Self.decoded(from: json, path: path)
    }

    public var json: JSONValue { jsonValue }
}

extension StoredItem {
    /// Reads the item that comes next, decoded (`ToDoItem.init(scanning:path:)`).
    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        self.init(try ToDoItem(scanning: &scanner, path: path))
    }

    /// Writes the item: the bytes it was read from when they are what writing it anew would give.
    package func write(to writer: inout JSONWriter) {
        if let writtenForm {
            writer.raw(writtenForm.bytes)
        } else {
            item.write(to: &writer)
        }
    }
}

extension Location: JSONSchema {
    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
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
        self.init(name: try required(name) { memberPath(path(), "name") }, address: address, coordinate: coordinate)
        unknownMembers = unknown
    }

    package func write(to writer: inout JSONWriter) {
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
    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
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
        self.init(
            latitude: try required(latitude) { memberPath(path(), "latitude") },
            longitude: try required(longitude) { memberPath(path(), "longitude") })
        unknownMembers = unknown
    }

    package func write(to writer: inout JSONWriter) {
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

extension JSONWriter {
    /// A time as seconds under `time`, a day as `"2026-12-03"` under `day`; nothing for none.
    package mutating func date(_ date: ItemDate?, time: StaticString, day: StaticString) {
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
    package mutating func unknownMembers(_ unknown: UnknownMembers) {
        for (key, value) in unknown.object.members {
            self.key(key)
            self.value(value)
        }
    }
}
