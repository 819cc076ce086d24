import ToDoModel
import ToDoStorage

/// Reading items from the formats `todo import` takes, and writing them in those `todo export`
/// makes.
public enum ItemInterchange {
    /// Reads `bytes` as `format`, or as the format they are recognised to be when it is `auto`;
    /// returns the format read and the items in source order. Text is UTF-8 (a byte order mark is
    /// skipped); todo.txt and iCalendar that is not is read as Windows-1252, with a problem; an
    /// error names the line, item or byte at fault.
    public static func read(
        _ bytes: [UInt8], format: ImportFormat, timeZone: TimeZoneRules
    ) throws(ImportError) -> (format: ImportFormat, items: [ImportedItem]) {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        switch format {
        case .auto:
            // JSON is parsed once: its keys tell todo's items from Taskwarrior's tasks.
            if let json = try recognisedJSON(body) {
                if TaskwarriorFormat.looksLikeTasks(json) {
                    return (.taskwarrior, try TaskwarriorFormat.read(json, timeZone: timeZone))
                }
                if RemindersFormat.looksLikeReminders(json) {
                    return (.reminders, try RemindersFormat.read(json, timeZone: timeZone))
                }
                return (.json, try jsonItems(json, timeZone: timeZone))
            }
            return try read(bytes, format: startsLikeICalendar(body) ? .ical : .todotxt, timeZone: timeZone)
        case .json:
            return (.json, try jsonItems(try json(body), timeZone: timeZone))
        case .taskwarrior:
            return (.taskwarrior, try TaskwarriorFormat.read(try taskJSON(body), timeZone: timeZone))
        case .todotxt:
            let (text, notUTF8) = text(body)
            return (.todotxt, noting(notUTF8, in: try TodoTxtFormat.read(text, timeZone: timeZone)))
        case .ical:
            let (text, notUTF8) = text(ICalendarFormat.rejoiningSplitCharacters(body))
            return (.ical, noting(notUTF8, in: try ICalendarFormat.read(text, timeZone: timeZone)))
        case .reminders:
            let json = try json(body)
            guard RemindersFormat.looksLikeReminders(json) else {
                throw ImportError(
                    at: "",
                    "expected an array of reminders (objects with externalId and isCompleted), as reminders-cli writes")
            }
            return (.reminders, try RemindersFormat.read(json, timeZone: timeZone))
        }
    }

    /// The JSON of a source that starts as JSON does (`[` or `{`), or `nil` for one that does not.
    /// A source that is not one JSON value may still be Taskwarrior's tasks, one per line; when it
    /// is neither, the error is the one for the whole.
    private static func recognisedJSON(_ bytes: ArraySlice<UInt8>) throws(ImportError) -> JSONValue? {
        guard let first = bytes.first(where: { !Whitespace.isSpaceOrNewline(Unicode.Scalar($0)) }),
            first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        else { return nil }
        do {
            return try json(bytes)
        } catch {
            if first == UInt8(ascii: "{"), let lines = try? taskJSON(bytes), TaskwarriorFormat.looksLikeTasks(lines) {
                return lines
            }
            throw error
        }
    }

    /// Whether the text starts with `BEGIN:VCALENDAR` or `BEGIN:VTODO`, in any letter case.
    private static func startsLikeICalendar(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.firstIndex(where: { !Whitespace.isSpaceOrNewline(Unicode.Scalar($0)) }) else {
            return false
        }
        let start = String(decoding: bytes[first...].prefix(15), as: UTF8.self).uppercased()
        return start.hasPrefix("BEGIN:VCALENDAR") || start.hasPrefix("BEGIN:VTODO")
    }

    /// The bytes of the file at `path`, read as the store reads its own file; a missing file is an
    /// error here.
    public static func readFile(atPath path: String, limit: Int) throws(StoreError) -> [UInt8] {
        guard let bytes = try FileSystem.readFileToImport(at: path, limit: limit) else {
            throw FileSystem.failure("read", path, code: ENOENT)
        }
        return bytes
    }

    /// Whether `path` names a folder (following links), which imports as a vdir.
    public static func isFolder(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The `.ics` files of a vdir (todoman's, vdirsyncer's: one item each), by name. A folder of
    /// such folders (vdirsyncer's storage of an account, a calendar each) gives each one's files
    /// with the list they belong to: the calendar's `displayname` (vdirsyncer's metadata file),
    /// else the folder's name. Hidden files and folders are passed over; no deeper folder is read.
    /// Each file is read as `readFile` reads one, only when it lies inside the folder (a link to
    /// `~/.git-credentials` is not read), and all of them together are at most `limit` bytes.
    public static func readFolder(
        atPath path: String, limit: Int
    ) throws(StoreError) -> [(name: String, bytes: [UInt8], list: String?)] {
        guard let inside = FileSystem.resolvedPath(path) else { throw FileSystem.failure("read", path) }
        var budget = FolderBudget(folder: inside, left: limit)
        let top = try icsFiles(in: path, &budget)
        guard top.isEmpty else { return top.map { ($0.name, $0.bytes, nil) } }
        var files: [(name: String, bytes: [UInt8], list: String?)] = []
        for folder in try entries(of: path) where isFolder(atPath: PathText.appending(folder, to: path)) {
            let folderPath = PathText.appending(folder, to: path)
            let inside = try icsFiles(in: folderPath, &budget)
            guard !inside.isEmpty else { continue }
            // vdirsyncer keeps the calendar's name in a file of one line.
            let shown = (try? budget.read(PathText.appending("displayname", to: folderPath)))
                .map {
                    Whitespace.trimmingSpaces(
                        String(decoding: $0.prefix(1024), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(
                            String.init) ?? "")
                }
            let list = shown.flatMap(ListName.typed) ?? ListName.stored(folder)
            files += inside.map { ("\(folder)/\($0.name)", $0.bytes, list) }
        }
        return files
    }

    /// The names in a folder but hidden ones, sorted.
    private static func entries(of path: String) throws(StoreError) -> [String] {
        guard access(path, R_OK | X_OK) == 0 else { throw FileSystem.failure("read", path) }
        return try FileSystem.names(inFolder: path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// A folder's `.ics` files, by name.
    private static func icsFiles(
        in path: String, _ budget: inout FolderBudget
    ) throws(StoreError) -> [(name: String, bytes: [UInt8])] {
        var files: [(name: String, bytes: [UInt8])] = []
        for name in try entries(of: path) where name.lowercased().hasSuffix(".ics") {
            files.append((name, try budget.read(PathText.appending(name, to: path))))
        }
        return files
    }

    /// What a folder's import may still read: files inside it only, all of them at most the
    /// import's limit of bytes.
    private struct FolderBudget {
        let folder: String
        var left: Int

        mutating func read(_ path: String) throws(StoreError) -> [UInt8] {
            guard FileSystem.staysInside(folder, path) else { throw OwnFiles.unusable(path, .linkOutOfFolder) }
            let bytes = try readFile(atPath: path, limit: left)
            left -= bytes.count
            return bytes
        }
    }

    /// The items of a vdir's files (`readFolder`), each named by its file and line
    /// (`a1b2.ics line 3`), as one source; those of a calendar's folder in its list.
    public static func readICalendarFiles(
        _ files: [(name: String, bytes: [UInt8], list: String?)], timeZone: TimeZoneRules
    ) throws(ImportError) -> [ImportedItem] {
        guard !files.isEmpty else {
            throw ImportError(at: "", "the folder has no .ics files; a vdir (todoman's, vdirsyncer's) has one per item")
        }
        var items: [ImportedItem] = []
        for file in files {
            do {
                for var item in try read(file.bytes, format: .ical, timeZone: timeZone).items {
                    item.origin = "\(file.name) \(item.origin)"
                    item.problems = item.problems.map { "\(file.name) \($0)" }
                    if let list = file.list { item.item.list = list }
                    items.append(item)
                }
            } catch {
                throw ImportError(
                    at: error.location.isEmpty ? file.name : "\(file.name) \(error.location)", error.reason)
            }
        }
        return items
    }

    /// The items of the data file's format (any version this todo reads) or the book's bare
    /// array. Numbers are left behind (items get new ones); an item without an id gets one made
    /// from its contents.
    /// A document's items are read in its version's form (`ItemForm`), whole days of the first as
    /// the days they show in `timeZone`. A bare array is the book app's file, of the first form,
    /// unless an item in it has a day as the second writes one (`todo list --json`).
    static func jsonItems(_ json: JSONValue, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        let elements: [JSONValue], path: String
        var form = ItemForm.second
        switch json {
        case .array(let array):
            (elements, path) = (array, "")
            let saysDays = array.contains { element in
                guard case .object(let item) = element else { return false }
                return item["dueDate"] != nil || item["startDate"] != nil
            }
            form = saysDays ? .second : .first
        case .object(let document):
            if case .number(let literal)? = document["version"], let version = Int(literal) {
                form = ItemForm(version: version)
            } else {
                form = .first
            }
            if case .number(let literal)? = document["version"], let version = Int(literal),
                version > StoreDocument.currentVersion
            {
                // A long list's own file: its latest changes are in its journal, which an import cannot see.
                if version == StoreDocument.journaledVersion {
                    throw ImportError(
                        at: "version",
                        "a long list's own file, whose latest changes are in its journal: import what `todo export` writes of it"
                    )
                }
                throw ImportError(
                    at: "version",
                    "format version \(version) is from a newer todo (this one reads version \(StoreDocument.currentVersion))"
                )
            }
            guard case .array(let array)? = document["items"] else {
                throw ImportError(
                    at: "items", "expected an array of items, found \(document["items"]?.kindDescription ?? "nothing")")
            }
            (elements, path) = (array, "items")
        default:
            throw ImportError(at: "", "expected an object or an array of items, found \(json.kindDescription)")
        }
        var items: [ImportedItem] = []
        let local = CivilTime(rules: timeZone)
        for (index, element) in elements.enumerated() {
            let origin = "\(path)[\(index)]"
            guard case .object(var object) = element else {
                throw ImportError(at: origin, "expected an item object, found \(element.kindDescription)")
            }
            object["number"] = nil
            if object["id"] == nil || object["id"] == .null {
                // The same item gets the same id each time, so that importing it again skips it.
                let content = String(decoding: JSONValue.object(object).serializedCompactly(), as: UTF8.self)
                object["id"] = .string(UUID(hashing: "json:" + content).uuidString)
            }
            do {
                let item = try ToDoItem(json: .object(object), path: origin)
                items.append(
                    ImportedItem(
                        item: item.inCurrentForm(form, local: local) ?? item, origin: origin,
                        unknownKeys: item.unknownMembers.keys))
            } catch {
                throw ImportError(at: "", error.description)
            }
        }
        return items
    }

    private static func json(_ bytes: ArraySlice<UInt8>) throws(ImportError) -> JSONValue {
        do {
            return try JSONValue(parsing: Array(bytes))
        } catch {
            throw ImportError(at: "", "not JSON: \(error)")
        }
    }

    /// Taskwarrior's array, or its older output of one task object per line.
    private static func taskJSON(_ bytes: ArraySlice<UInt8>) throws(ImportError) -> JSONValue {
        if let first = bytes.first(where: { !Whitespace.isSpaceOrNewline(Unicode.Scalar($0)) }),
            first == UInt8(ascii: "{")
        {
            // One task over several lines, as `task import` takes it.
            if let task = try? JSONValue(parsing: Array(bytes)) { return .array([task]) }
            var tasks: [JSONValue] = []
            var lineNumber = 0
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                var line = line
                while let last = line.last,
                    last == UInt8(ascii: "\r") || last == UInt8(ascii: ",") || last == UInt8(ascii: " ")
                {
                    line = line.dropLast()
                }
                guard !line.isEmpty else { continue }
                do {
                    tasks.append(try JSONValue(parsing: Array(line)))
                } catch {
                    throw ImportError(at: "line \(lineNumber)", "not JSON: \(error.reason) at column \(error.column)")
                }
            }
            return .array(tasks)
        }
        return try json(bytes)
    }

    /// The lines of `text`, split at LF with a CR before it dropped. (Split as bytes: to
    /// `Character`, CR LF is one character, not a line break after a CR.)
    static func lines(of text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Substring(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
    }

    /// The bytes as UTF-8 text; the error gives the offset in the source of the first bad byte.
    private static func text(_ bytes: ArraySlice<UInt8>) -> (text: String, notUTF8At: Int?) {
        var text = ""
        text.reserveCapacity(bytes.count)
        var offset = bytes.startIndex
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                text.unicodeScalars.append(scalar)
                offset += UTF8.width(scalar)
            case .emptyInput:
                return (text, nil)
            case .error:
                // Text that is not UTF-8 comes from an older program (see `Windows1252`).
                return (Windows1252.decode(bytes), offset)
            }
        }
    }

    /// The items, the first with a problem saying the text was not UTF-8, when it was not.
    private static func noting(_ notUTF8At: Int?, in items: [ImportedItem]) -> [ImportedItem] {
        guard let offset = notUTF8At, !items.isEmpty else { return items }
        var items = items
        items[0].problems.insert("byte \(offset): not UTF-8; the whole source is read as Windows-1252 (Latin-1)", at: 0)
        return items
    }

    // MARK: Writing

    /// The items in the data file's format, as `todo import` and the store read it: all of
    /// `manager`'s, or the `open` and `done` items given (a filtered list).
    package static func json(_ manager: ItemManager, open: [StoredItem]? = nil, done: [StoredItem]? = nil) -> [UInt8] {
        var document = StoreDocument(nextNumber: manager.nextNumber)
        document.items.open = open.map(StoredItemArray.init) ?? manager.openStored
        document.items.done = done.map(StoredItemArray.init) ?? manager.doneStored
        return document.serialized()
    }
}
