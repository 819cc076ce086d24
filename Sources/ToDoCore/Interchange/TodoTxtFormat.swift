import Foundation

/// todo.txt (http://todotxt.org): one item per line, `x` and the completion date first for done
/// items, then the creation date, the title, and `key:value` tags. todo adds tags for what
/// todo.txt has no place for, so that an export reads back as the same items:
/// `due:2030-06-14` (with `T18:00` for a time of day, `T18:00:30` with seconds), `id:` (the UUID), `desc:`, `loc:` and
/// `addr:` (percent-encoded: `%20` for a space), and `geo:lat,lon`.
public enum TodoTxtFormat {
    /// The items as todo.txt lines, dates in `timeZone`.
    public static func write(_ items: [ToDoItem], timeZone: TimeZoneRules) -> String {
        let time = CivilTime(rules: timeZone)
        var text = ""
        for item in items {
            var words: [String] = []
            if item.done {
                words.append("x")
                if let completedAt = item.completedAt {
                    words.append(CivilTime.isoDate(time.fields(of: completedAt)))
                    // A creation date alone after `x` would read as the completion date.
                    if let createdAt = item.createdAt { words.append(CivilTime.isoDate(time.fields(of: createdAt))) }
                }
            } else if let createdAt = item.createdAt {
                words.append(CivilTime.isoDate(time.fields(of: createdAt)))
            }
            words.append(item.title)
            if let timestamp = item.timestamp {
                let fields = time.fields(of: timestamp)
                // A time that is midnight says so (`T00:00`); a whole day is its date alone.
                words.append("due:" + (item.dueIsAllDay(in: timeZone) ? CivilTime.isoDate(fields)
                    : fields.isMidnight ? CivilTime.isoDate(fields) + "T00:00" : CivilTime.isoDateTime(fields)))
            }
            if let description = item.itemDescription { words.append("desc:" + encoded(description)) }
            if let location = item.location {
                words.append("loc:" + encoded(location.name))
                if let address = location.address { words.append("addr:" + encoded(address)) }
                if let coordinate = location.coordinate {
                    words.append("geo:\(JSONValue.literal(for: coordinate.latitude)),\(JSONValue.literal(for: coordinate.longitude))")
                }
            }
            words.append("id:" + item.id.uuidString)
            text += words.joined(separator: " ") + "\n"
        }
        return text
    }

    /// Reads todo.txt lines (LF or CRLF; blank lines skipped). Tags other than todo's stay in the
    /// title, as do priorities (`(A)`), projects (`+garden`) and contexts (`@home`); words are
    /// joined with single spaces.
    public static func read(_ text: String, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        let time = CivilTime(rules: timeZone)
        var items: [ImportedItem] = []
        for (index, line) in ItemInterchange.lines(of: text).enumerated() {
            guard !line.unicodeScalars.allSatisfy(Whitespace.isSpace) else { continue }
            let origin = "line \(index + 1)"
            items.append(ImportedItem(item: try item(in: line, time: time, origin: origin), origin: origin))
        }
        return items
    }

    private static func item(in line: Substring, time: CivilTime, origin: String) throws(ImportError) -> ToDoItem {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
        func date(_ word: Substring) throws(ImportError) -> Double {
            guard let fields = CivilTime.parseISO(word), !word.contains("T"), let timestamp = time.timestamp(of: fields) else {
                throw ImportError(at: origin, "'\(word)' is not a date")
            }
            return timestamp
        }
        func isDate(_ word: Substring?) -> Bool {
            guard let word, word.utf8.count == 10 else { return false }
            return CivilTime.parseISO(word) != nil
        }
        var done = false, completedAt: Double?, createdAt: Double?
        var titleWords: [Substring] = []
        if words.first == "x" {
            done = true
            words.removeFirst()
            if isDate(words.first) { completedAt = try date(words.removeFirst()) }
        } else if let first = words.first, isPriority(first) {
            titleWords.append(words.removeFirst())
        }
        if isDate(words.first) { createdAt = try date(words.removeFirst()) }

        var timestamp: Double?, allDay: Bool?, description: String?, name: String?, address: String?, coordinate: Coordinate?, id: UUID?
        for word in words {
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else {
                titleWords.append(word)
                continue
            }
            let value = word[word.index(after: colon)...]
            switch word[..<colon] {
            case "due":
                guard let fields = CivilTime.parseISO(value), let due = time.timestamp(of: fields) else {
                    throw ImportError(at: origin, "'\(word)' is not a due date; expected due:YYYY-MM-DD")
                }
                timestamp = due
                allDay = !value.contains("T")
            case "id":
                guard let uuid = UUID(uuidString: String(value)) else { throw ImportError(at: origin, "'\(word)' is not an id (a UUID)") }
                id = uuid
            case "desc": description = try decoded(value, word: word, origin: origin)
            case "loc": name = try decoded(value, word: word, origin: origin)
            case "addr": address = try decoded(value, word: word, origin: origin)
            case "geo":
                let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                      Coordinate(latitude: latitude, longitude: longitude).isValid else {
                    throw ImportError(at: origin, "'\(word)' is not a coordinate; expected geo:LAT,LON")
                }
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
            default:
                titleWords.append(word)
            }
        }
        let title = titleWords.joined(separator: " ")
        guard !title.isEmpty else { throw ImportError(at: origin, "the item has no title") }
        var location: Location?
        if name != nil || address != nil || coordinate != nil {
            let fallbackName = address ?? coordinate.map { "\(JSONValue.literal(for: $0.latitude)),\(JSONValue.literal(for: $0.longitude))" }
            location = Location(name: name ?? fallbackName ?? "", address: address, coordinate: coordinate)
        }
        // A line without an id gets one made from the line, so that importing it again skips it.
        var item = ToDoItem.imported(id: id ?? UUID(hashing: "todotxt:" + line), title: title, itemDescription: description,
                                     timestamp: timestamp, location: location, done: done, createdAt: createdAt,
                                     completedAt: done ? completedAt : nil)
        item.storage.fields.allDay = allDay
        return item
    }

    /// `(A)` to `(Z)`.
    private static func isPriority(_ word: Substring) -> Bool {
        let bytes = Array(word.utf8)
        return bytes.count == 3 && bytes[0] == UInt8(ascii: "(") && bytes[2] == UInt8(ascii: ")")
            && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[1])
    }

    /// Percent-encodes what would end or break a tag: `%`, white space and control characters.
    private static func encoded(_ text: String) -> String {
        PercentEncoding.encoded(text) { scalar in
            scalar == "%" || Whitespace.isSpaceOrNewline(scalar) || scalar.properties.generalCategory == .control
        }
    }

    private static func decoded(_ value: Substring, word: Substring, origin: String) throws(ImportError) -> String {
        guard let text = value.removingPercentEncoding, !text.isEmpty else {
            throw ImportError(at: origin, "'\(word)' is not percent-encoded text")
        }
        return text
    }

}
