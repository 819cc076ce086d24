import ToDoModel

// The store's item schema: how items, locations and coordinates are read from JSON and written to
// it, keys in a stable order, members this version does not know kept (`UnknownMembers`). Items
// in the exact form written here are read by a shortcut (`WrittenFormReader`) and copied back
// unchanged (`writeArray`).

extension ToDoItem {
    /// The keys todo itself reads in an item of its file (`ItemMember`): another program's member
    /// of one of these names, written as it came, would be read as todo's own field, or make the
    /// file one todo refuses: other programs' members are kept apart (`ForeignMembers`).
    package static let ownKeys = Set(ItemMember.allCases.map(\.key.description))
}

extension ToDoItem: JSONSchema {
    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        var id: UUID?, idText: String?, number = 0, title: String?, done = false
        var fields = ItemFields(title: "")
        var unknown = UnknownMembers()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            func field() -> String { memberPath(path(), key.string) }
            guard let member = key.withUTF8({ MemberKeys.table.member(for: $0) }) else {
                return unknown.append(key: key.string, value: try scanner.unknownValue())
            }
            switch member {
            case .id:
                let token = try scanner.stringToken(at: field)
                id = token.flatMap { token in token.withUTF8 { UUID(canonical: $0) } }
                idText = id == nil ? token?.string : nil
            case .number: number = try scanner.int(at: field, in: 1...Self.largestNumber) ?? 0
            case .title: title = try scanner.string(at: field)
            case .done: done = try scanner.bool(at: field) ?? false
            default: try Self.read(member, &scanner, into: &fields, unknown: &unknown, at: field)
            }
        }
        if let idText { throw .shape(memberPath(path(), "id"), "\"\(idText)\" is not a UUID") }
        fields.title = try required(title) { memberPath(path(), "title") }
        fields.unknownMembers = unknown
        Self.finishReading(&fields)
        self.init(id: try required(id) { memberPath(path(), "id") }, number: number, done: done, fields: fields)
    }

    /// Reads the value of `member` into `fields` (the item's id, number and status are the
    /// caller's). A value of another kind where another program may use the key
    /// (`ItemMember.keepsOtherKinds`: Reminders' `"priority": 0`, a word) is kept as it was, beside
    /// todo's own fields. The written form reads its fields with this too (`UnsafeWrittenForm.fields`).
    static func read(
        _ member: ItemMember, _ scanner: inout JSONScanner, into fields: inout ItemFields,
        unknown: inout UnknownMembers, at path: () -> String
    ) throws(JSONDecodingError) {
        /// The value as todo's own, if `own` reads it; else kept as another program's.
        func ownValue<Value>(_ own: (JSONValue) -> Value?) throws(JSONDecodingError) -> Value? {
            let value = try scanner.unknownValue()
            if let mine = own(value) { return mine }
            if value != .null { unknown.append(key: member.key.description, value: value) }
            return nil
        }
        switch member {
        case .id, .number, .done: break
        case .title: fields.title = try scanner.string(at: path) ?? ""
        case .itemDescription: fields.itemDescription = try scanner.string(at: path)
        // A due and a start are each a time in seconds or a day, never both.
        case .timestamp, .dueDate: fields.due = try date(member, besides: fields.due, &scanner, at: path)
        case .start, .startDate: fields.start = try date(member, besides: fields.start, &scanner, at: path)
        case .repeatRule: fields.repeatRule = try ownValue { value in value.string }
        case .repeatZone: fields.repeatZone = try ownValue { value in value.string }
        case .location:
            fields.location = try writtenOrElse(&scanner, WrittenFormReader.checkedLocation) {
                scanner throws(JSONDecodingError) in
                try scanner.decode(Location.self, at: path)
            }
        case .priority:
            fields.priority = try ownValue { value in
                guard case .number(let literal) = value, let number = Int(literal), priorityRange.contains(number)
                else { return nil }
                return number
            }
        case .tags:
            let start = scanner.index
            if let tags = WrittenFormReader.checkedStrings(&scanner) {
                fields.tags = tags
            } else {
                scanner.index = start
                fields.tags = try ownValue(strings) ?? []
            }
        case .parent:
            fields.parent = try ownValue { value in
                guard case .string(let text) = value else { return nil }
                return text.utf8.withContiguousStorageIfAvailable { UUID(canonical: $0) } ?? nil
            }
        case .inProgress: fields.inProgress = try scanner.bool(at: path) ?? false
        case .percentComplete: fields.percentComplete = try scanner.int(at: path, in: percentRange)
        case .project: fields.project = try scanner.string(at: path)
        case .url: fields.url = try scanner.string(at: path)
        case .list: fields.list = try scanner.string(at: path)
        case .alarms: fields.alarms = try ownValue(Alarm.list) ?? []
        case .annotations: fields.annotations = try ownValue(Annotation.list) ?? []
        case .createdAt: fields.createdAt = try time(&scanner, at: path)
        case .completedAt: fields.completedAt = try time(&scanner, at: path)
        case .modifiedAt: fields.modifiedAt = try time(&scanner, at: path)
        case .uid: fields.originalUID = try scanner.string(at: path)
        // Kept as it was when of another kind, as the fields that another program may use.
        case .icalendar: fields.icalendarLines = try ownValue(strings) ?? []
        case .from: fields.foreignMembers = try foreignMembers(&scanner, at: path)
        case .allDay: fields.legacyAllDay = try scanner.bool(at: path)
        }
    }

    /// What reading an item's members leaves to do: the first format's `allDay` is said only of a
    /// due in seconds, and a project an earlier version kept as another program's is the field
    /// now, as are the alarms it kept as a calendar's lines.
    static func finishReading(_ fields: inout ItemFields) {
        if fields.legacyAllDay != nil, fields.due?.isDay != false { fields.legacyAllDay = nil }
        if fields.project == nil, !fields.foreignMembers.isEmpty {
            fields.project = fields.foreignMembers.takeProject()
        }
        if !fields.icalendarLines.isEmpty { fields.takeAlarmsFromCalendarLines() }
    }

    /// The value `written` reads when it is in the form todo writes (in one pass: a list's items
    /// are), else what `general` reads from the same place.
    private static func writtenOrElse<Value>(
        _ scanner: inout JSONScanner, _ written: (inout JSONScanner) -> Value?,
        _ general: (inout JSONScanner) throws(JSONDecodingError) -> Value?
    ) throws(JSONDecodingError) -> Value? {
        let start = scanner.index
        if let value = written(&scanner) { return value }
        scanner.index = start
        return try general(&scanner)
    }

    /// A time in seconds: as the writer spells it, read in one pass (`WrittenFormReader.number`),
    /// or any other spelling the general scanner reads.
    private static func time(_ scanner: inout JSONScanner, at path: () -> String) throws(JSONDecodingError) -> Double? {
        try writtenOrElse(&scanner, { WrittenFormReader.number(&$0, in: timestampRange) }) {
            scanner throws(JSONDecodingError) in try scanner.double(at: path, in: timestampRange)
        }
    }

    /// A due or a start under `member`: a time in seconds, or a day (`ItemMember.alternative`);
    /// refused when the item has `date` already under the other.
    private static func date(
        _ member: ItemMember, besides date: ItemDate?, _ scanner: inout JSONScanner, at path: () -> String
    ) throws(JSONDecodingError) -> ItemDate? {
        if date != nil, let other = member.alternative {
            throw .shape(path(), "the item also has \(other.key): a date is a time or a day, not both")
        }
        guard member.value == .day else { return try time(&scanner, at: path).map(ItemDate.time) }
        guard let text = try scanner.string(at: path) else { return nil }
        guard let day = Day(iso: Array(text.utf8)) else {
            throw .shape(path(), "\"\(text)\" is not a date written YYYY-MM-DD in the years 1 to 9999")
        }
        return .day(day)
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

    /// An array of strings, else `nil`.
    private static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else { return nil }
        let strings = elements.compactMap(\.string)
        return strings.count == elements.count ? strings : nil
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        for (member, key) in Self.writtenMembers { write(member, key, to: &writer) }
        writer.unknownMembers(fields.unknownMembers)
        writer.endObject()
    }

    /// The members the writer writes, in its order, with their keys (each a `switch` in another
    /// module, asked once rather than for every member of every item).
    private static let writtenMembers = ItemMember.allCases.filter(\.isWritten).map { ($0, $0.key) }

    /// Writes `member` under `key`, its key; nothing for one the item lacks (the writer writes no
    /// empty list, and no `inProgress` but `true`).
    private func write(_ member: ItemMember, _ key: StaticString, to writer: inout JSONWriter) {
        switch member {
        case .id:
            writer.key(key)
            writer.uuid(id)
        case .number where number > 0:
            writer.key(key)
            writer.int(number)
        case .title: writer.field(key, fields.title)
        case .itemDescription: writer.field(key, fields.itemDescription)
        case .timestamp: if case .time(let seconds)? = fields.due { writer.field(key, seconds) }
        case .dueDate: if case .day(let day)? = fields.due { writer.day(key, day) }
        case .start: if case .time(let seconds)? = fields.start { writer.field(key, seconds) }
        case .startDate: if case .day(let day)? = fields.start { writer.day(key, day) }
        case .repeatRule: writer.field(key, fields.repeatRule)
        case .repeatZone: writer.field(key, fields.repeatZone)
        case .location: writer.field(key, fields.location)
        case .priority: writer.field(key, fields.priority)
        case .tags: writer.field(key, fields.tags)
        case .parent:
            guard let parent = fields.parent else { return }
            writer.key(key)
            writer.uuid(parent)
        case .done:
            writer.key(key)
            writer.bool(done)
        case .inProgress where fields.inProgress:
            writer.key(key)
            writer.bool(true)
        case .percentComplete: writer.field(key, fields.percentComplete)
        case .project: writer.field(key, fields.project)
        case .url: writer.field(key, fields.url)
        case .list: writer.field(key, fields.list)
        case .alarms: writer.field(key, fields.alarms.map(\.json))
        case .annotations: writer.field(key, fields.annotations.map(\.json))
        case .createdAt: writer.field(key, fields.createdAt)
        case .completedAt: writer.field(key, fields.completedAt)
        case .modifiedAt: writer.field(key, fields.modifiedAt)
        case .uid: writer.field(key, fields.originalUID)
        case .icalendar: writer.field(key, fields.icalendarLines)
        case .from where !fields.foreignMembers.isEmpty:
            writer.key(key)
            writer.value(.object(fields.foreignMembers.sources))
        case .number, .inProgress, .from, .allDay: break
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

extension StoredItem: JSONStreamable {}

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
    /// A day under `key`, written `"2026-12-03"`.
    package mutating func day(_ key: StaticString, _ date: Day) {
        self.key(key)
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
    }

    /// A whole number under `key`; nothing for none.
    package mutating func field(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        int(value)
    }

    /// An array of values under `key`; nothing for none: the writer writes no empty list.
    package mutating func field(_ key: StaticString, _ values: [JSONValue]) {
        guard !values.isEmpty else { return }
        self.key(key)
        value(.array(values))
    }

    /// An array of strings under `key`; nothing for none: the writer writes no empty list.
    package mutating func field(_ key: StaticString, _ values: [String]) {
        guard !values.isEmpty else { return }
        self.key(key)
        strings(values)
    }

    /// The members of the object being written that this version does not know, after its own.
    package mutating func unknownMembers(_ unknown: UnknownMembers) {
        for (key, value) in unknown.object.members {
            self.key(key)
            self.value(value)
        }
    }
}
