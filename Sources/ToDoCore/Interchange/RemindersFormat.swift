import ToDoModel
import ToDoStorage

/// Apple Reminders as `reminders show-all --format json` (keith/reminders-cli) writes them: an
/// array of objects with `externalId`, `title`, `isCompleted`, `priority`, `list`, `listId`, and
/// when present `notes`, `url`, `completionDate`, `startDate`, `dueDate`, `lastModified`,
/// `creationDate` (ISO 8601) and, from a location alarm, `locationTitle` and `location` as
/// `"lat, lon"`. The book's fields take what they can; the rest stays with the item as it came.
enum RemindersFormat {
    /// Whether `json` is such an array: its objects carry `externalId` and `isCompleted`.
    static func looksLikeReminders(_ json: JSONValue) -> Bool {
        guard case .array(let elements) = json, !elements.isEmpty else { return false }
        return elements.allSatisfy { element in
            guard case .object(let object) = element else { return false }
            return object["externalId"] != nil && object["isCompleted"] != nil
        }
    }

    /// Whose members the item keeps apart (`ForeignMembers`).
    static let source = ForeignMembers.reminders

    /// The keys whose values become the item's fields; the others are kept as they are.
    private static let mapped = Set<String>([
        "externalId", "title", "notes", "dueDate", "isCompleted", "completionDate",
        "creationDate", "locationTitle", "location"
    ]).union(ItemField.texts.compactMap(\.remindersKey))

    /// A due at a local midnight in `timeZone` is a whole day: reminders-cli writes a reminder
    /// without a time so.
    static func read(_ json: JSONValue, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        guard case .array(let elements) = json else { return [] }
        let local = CivilTime(rules: timeZone)
        var items: [ImportedItem] = []
        for (index, element) in elements.enumerated() {
            let origin = "reminder \(index + 1)"
            guard case .object(let reminder) = element else {
                throw ImportError(at: origin, "expected a reminder object, found \(element.kindDescription)")
            }
            var reading = ReminderReading(members: ObjectMembers(reminder, origin: origin), local: local)
            items.append(try reading.item())
        }
        return items
    }

    /// One reminder's members, read into the item's own JSON form group by group of fields. A
    /// value todo cannot read is said, and kept with the item as it came; so is what todo has no
    /// field for, apart from its own keys (`ForeignMembers`).
    private struct ReminderReading {
        var members: ObjectMembers
        let local: CivilTime
        /// The item, as todo's file writes it.
        var object = JSONObject()
        var reminder: JSONObject { members.object }
        var origin: String { members.origin }

        mutating func date(_ key: String) -> Double? {
            members.date(key, expected: "an ISO 8601 date and time, as 2026-11-23T18:00:00Z") {
                RemindersFormat.isoTimestamp($0).flatMap { ToDoItem.timestampRange.contains($0) ? $0 : nil }
            }
        }

        mutating func item() throws(ImportError) -> ImportedItem {
            let title = members.string("title").map(ToDoItem.singleLine) ?? ""
            guard !title.unicodeScalars.allSatisfy(Whitespace.isSpaceOrNewline) else {
                return ImportedItem(
                    item: .imported(id: UUID(), title: ""), origin: origin, ignoredBecause: "the reminder has no title",
                    problems: ["\(origin): the reminder has no title; skipped"])
            }
            let completed = readCompleted()
            let completionDate = date("completionDate")
            let externalID = members.string("externalId") ?? ""
            // The same reminder gets the same id each time, so that importing it again skips it.
            object["id"] = .string(
                (UUID(uuidString: externalID) ?? UUID(hashing: "reminders:" + externalID)).uuidString)
            object["title"] = .string(title)
            readTexts()
            readDue()
            switch RemindersFormat.location(reminder, origin: origin) {
            case .success(let location?): object["location"] = location
            case .success(nil): break
            case .failure(let problem): members.unreadable("location", problem.reason)
            }
            object["done"] = .bool(completed || completionDate != nil)
            if let created = date("creationDate") { object["createdAt"] = .number(JSONValue.literal(for: created)) }
            if let completionDate { object["completedAt"] = .number(JSONValue.literal(for: completionDate)) }
            keepTheRest()
            do {
                var item = try ToDoItem(json: .object(object), path: origin)
                if members.kept.count > 0 {
                    item.foreignMembers.sources[RemindersFormat.source] = .object(members.kept)
                }
                let keptKeys = members.kept.keys.filter { $0 != "externalId" }
                return ImportedItem(
                    item: item, origin: origin, unknownKeys: keptKeys.sorted(), problems: members.problems)
            } catch {
                throw ImportError(at: "", error.description)
            }
        }

        /// `isCompleted`; read as open when it is not true or false, saying so.
        mutating func readCompleted() -> Bool {
            switch reminder["isCompleted"] {
            case .bool(let value)?: return value
            case let other:
                members.problems.append(
                    "\(origin), isCompleted: expected true or false, found \(other?.kindDescription ?? "nothing"); read as open"
                )
                return false
            }
        }

        /// `notes` and the text fields' keys (`ItemField.remindersKey`).
        mutating func readTexts() {
            if let notes = members.string("notes"), !notes.isEmpty { object["itemDescription"] = .string(notes) }
            for field in ItemField.texts {
                guard let key = field.remindersKey, let text = members.string(key), !text.isEmpty else { continue }
                if ItemField.isOneLine(text) {
                    object[field.fileKey] = .string(text)
                } else {
                    members.unreadable(key, "not one line (a line break or a control character)")
                }
            }
        }

        /// `dueDate`: a local midnight is a whole day.
        mutating func readDue() {
            guard let due = date("dueDate") else { return }
            if local.fields(of: due).isMidnight {
                object["dueDate"] = .string(Day(of: due, local: local).isoText)
            } else {
                object["timestamp"] = .number(JSONValue.literal(for: due))
            }
        }

        /// What todo has no field for stays with the item, the original id included. Its priority
        /// is iCalendar's, as todo's: 1 to 9 are todo's own, 0 (none) is members.kept.
        mutating func keepTheRest() {
            if case .number(let literal)? = reminder["priority"], let level = Int(literal),
                ToDoItem.priorityRange.contains(level)
            {
                object["priority"] = .number(literal)
            }
            for (key, value) in reminder.members where key == "externalId" || !RemindersFormat.mapped.contains(key) {
                if key != "priority" || object["priority"] == nil { members.kept[key] = value }
            }
        }
    }

    /// The place of a location alarm: `locationTitle` as its name, `location` (`"lat, lon"`) as its coordinate.
    private static func location(_ reminder: JSONObject, origin: String) -> Result<JSONValue?, ImportError> {
        var title: String?
        if case .string(let text)? = reminder["locationTitle"], !text.isEmpty { title = text }
        var coordinate: JSONValue?
        if case .string(let text)? = reminder["location"] {
            let parts = text.split(separator: ",").map { Whitespace.trimmingSpaces($0) }
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                Coordinate.latitudeRange.contains(latitude), Coordinate.longitudeRange.contains(longitude)
            else {
                return .failure(
                    ImportError(
                        at: "\(origin), location", "'\(text)' is not a latitude and longitude, as \"52.5, 13.4\""))
            }
            var object = JSONObject()
            object["latitude"] = .number(JSONValue.literal(for: latitude))
            object["longitude"] = .number(JSONValue.literal(for: longitude))
            coordinate = .object(object)
        }
        guard title != nil || coordinate != nil else { return .success(nil) }
        var location = JSONObject()
        location["name"] = .string(title ?? "Reminder location")
        if let coordinate { location["coordinate"] = coordinate }
        return .success(.object(location))
    }

    /// `2026-11-23T18:00:00Z`, with fractional seconds or an offset (`+01:00`, `-0500`) instead of `Z`.
    static func isoTimestamp(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20,
            let fields = CivilTime.parseISO(Substring(String(decoding: bytes[0..<19], as: UTF8.self))),
            let local = CivilTime.utc.timestamp(of: fields)
        else { return nil }
        var rest = bytes[19...]
        var fraction = 0.0
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty, let value = Double("0." + String(decoding: digits, as: UTF8.self)) else {
                return nil
            }
            fraction = value
            rest = rest.dropFirst(1 + digits.count)
        }
        if rest.elementsEqual("Z".utf8) { return local + fraction }
        guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let offset = Array(rest.dropFirst()).filter { $0 != UInt8(ascii: ":") }
        guard offset.count == 4, offset.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let hours = Int(String(decoding: offset[0..<2], as: UTF8.self)),
            let minutes = Int(String(decoding: offset[2..<4], as: UTF8.self)),
            hours < 24, minutes < 60
        else { return nil }
        let seconds = Double((hours * 60 + minutes) * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
        return local - seconds + fraction
    }
}
