import ToDoModel
import ToDoStorage

/// One change to the list as the history keeps it: which command made it and when, its steps
/// (what each replaced), and the items it touched as it left them.
///
/// Kept as one line of JSON in the history file:
/// `{"change":12,"time":1795300000,"command":["check","3"],"steps":[…],"items":[…]}`, with
/// `"undo":[…]` or `"redo":[…]` naming the changes an undo or a redo took back.
public struct HistoryEntry: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// A command that changed the list: add, check, edit, import…
        case change
        /// `todo undo`: took back the changes in `reverts`.
        case undo
        /// `todo redo`: took back the undos in `reverts`.
        case redo
    }

    /// The change number: the data file's revision once the change was written. Numbers only grow.
    public var number: Int
    /// When, in seconds since 1970; `nil` when the store records no times.
    public var time: Double?
    /// The command line that made the change, without the program name.
    public var command: [String]
    public var kind: Kind
    /// The changes an undo or redo took back, newest first.
    public var reverts: [Int]
    public var steps: [ChangeStep]
    /// Every item the steps touched, in the order first touched, as the change left it.
    public var results: [TouchedItem]
    /// The file's move to a newer format, when this change was the first written in it.
    public var migration: Migration?

    /// A list's move from the first format, whole days in seconds, to the second (`ItemForm`).
    public struct Migration: Equatable, Sendable {
        /// The version the file had, and the one it has since.
        public var fromVersion: Int
        public var toVersion: Int
        /// How many dues became the days they showed.
        public var wholeDays: Int
        /// The time zone they showed them in.
        public var timeZone: String
    }

    public init(
        number: Int, time: Double?, command: [String], kind: Kind = .change, reverts: [Int] = [],
        steps: [ChangeStep], results: [TouchedItem], migration: Migration? = nil
    ) {
        self.migration = migration
        self.number = number
        self.time = time
        self.command = command
        self.kind = kind
        self.reverts = reverts
        self.steps = steps
        self.results = results
    }

    /// What the change did to each item it touched, in the order first touched.
    public var itemChanges: [ItemChange] {
        var before: [UUID: ToDoItem?] = [:]
        for step in steps where before[step.id] == nil {
            before[step.id] = .some(step.itemBefore)
        }
        return results.map { ItemChange(before: before[$0.id] ?? nil, after: $0.item) }
    }
}

// MARK: - The line in the history file

extension HistoryEntry {
    /// The entry as one line of compact JSON, with its line feed. `"change"` comes first, so that
    /// the history file's first and last numbers can be read without parsing whole lines.
    func line() -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("change")
        writer.int(number)
        writer.field("time", time)
        // The items' form (`ItemForm`); a line without it was written in the first.
        writer.key("version")
        writer.int(StoreDocument.currentVersion)
        if let migration {
            writer.key("migrated")
            writer.beginObject()
            writer.key("from")
            writer.int(migration.fromVersion)
            writer.key("to")
            writer.int(migration.toVersion)
            writer.key("wholeDays")
            writer.int(migration.wholeDays)
            writer.field("timeZone", migration.timeZone)
            writer.endObject()
        }
        writer.key("command")
        writer.beginArray()
        for word in command {
            writer.element()
            writer.string(word)
        }
        writer.endArray()
        if kind != .change {
            writer.key(kind == .undo ? "undo" : "redo")
            writer.beginArray()
            for number in reverts {
                writer.element()
                writer.int(number)
            }
            writer.endArray()
        }
        writer.key("steps")
        writer.beginArray()
        for step in steps {
            writer.element()
            switch step {
            case .inserted(let id, let place): ItemPlace.writeStep("insert", at: place, to: &writer) { $0.uuid(id) }
            case .removed(let item, let place):
                ItemPlace.writeStep("remove", at: place, to: &writer) { item.write(to: &$0) }
            case .replaced(let item, let place):
                ItemPlace.writeStep("replace", at: place, to: &writer) { item.write(to: &$0) }
            }
        }
        writer.endArray()
        writer.key("items")
        writer.beginArray()
        for result in results {
            writer.element()
            if let item = result.item {
                item.write(to: &writer)
            } else {
                writer.beginObject()
                writer.key("removed")
                writer.uuid(result.id)
                writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
        return writer.line()
    }

    /// Reads an entry from one line of the history file; `nil` for a line that is not one. Read
    /// straight from the bytes, items included, as the data file is: an undo reads every line.
    /// The items' dues and starts are read as the line's version says, whole days of the first
    /// form as the days they show in `local` (`ItemForm`).
    init?(line: some Collection<UInt8>, local: CivilTime) {
        let entry = try? JSONScanner.scanDocument(in: Array(line)) { scanner throws(JSONDecodingError) in
            try Self.scanned(&scanner, local: local)
        }
        guard let entry = entry ?? nil else { return nil }
        self = entry
    }

    private static func scanned(
        _ scanner: inout JSONScanner, local: CivilTime
    ) throws(JSONDecodingError) -> HistoryEntry? {
        var number: Int?, time: Double?, command: [String]?, kind = Kind.change, reverts: [Int] = []
        var steps: [ChangeStep]?, results: [TouchedItem]?, version = 1, migration: Migration?
        func path() -> String { "" }
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            switch key {
            case "change": number = try scanner.int(at: path, in: 1...Int.max)
            case "version": version = try scanner.int(at: path, in: 1...StoreDocument.currentVersion) ?? 1
            case "migrated":
                var from: Int?, to: Int?, wholeDays: Int?, zone: String?
                try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
                    switch key {
                    case "from": from = try scanner.int(at: path, in: 1...Int.max)
                    case "to": to = try scanner.int(at: path, in: 1...Int.max)
                    case "wholeDays": wholeDays = try scanner.int(at: path, in: 0...Int.max)
                    case "timeZone": zone = try scanner.string(at: path)
                    default: _ = try scanner.unknownValue()
                    }
                }
                if let from, let to, let wholeDays, let zone {
                    migration = Migration(fromVersion: from, toVersion: to, wholeDays: wholeDays, timeZone: zone)
                }
            // The items' range: a time no date can show is a line not written here.
            case "time": time = try scanner.double(at: path, in: ToDoItem.timestampRange)
            case "command":
                var words: [String] = []
                try scanner.scanArray(mismatch: { _ in .shape("", "") }) { scanner, _ throws(JSONDecodingError) in
                    words.append(try required(scanner.string(at: path), at: path))
                }
                command = words
            case "undo":
                kind = .undo
                reverts = try scannedNumbers(&scanner)
            case "redo":
                kind = .redo
                reverts = try scannedNumbers(&scanner)
            case "steps":
                var list: [ChangeStep] = []
                try scanner.scanArray(mismatch: { _ in .shape("", "") }) { scanner, _ throws(JSONDecodingError) in
                    list.append(try scannedStep(&scanner))
                }
                steps = list
            case "items":
                var list: [TouchedItem] = []
                try scanner.scanArray(mismatch: { _ in .shape("", "") }) { scanner, _ throws(JSONDecodingError) in
                    // `{"removed":"ID"}` for an item the change removed (as `line()` writes it), else the item.
                    scanner.skipWhitespace()
                    if scanner.isAt(#"{"removed":"#) {
                        var removed: UUID?
                        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
                            removed = try scanner.string(at: path).flatMap(UUID.init(canonical:))
                        }
                        list.append(TouchedItem(id: try required(removed, at: path), item: nil))
                    } else {
                        let item = try ToDoItem(scanning: &scanner, path: path)
                        list.append(TouchedItem(id: item.id, item: item))
                    }
                }
                results = list
            default: _ = try scanner.unknownValue()
            }
        }
        guard let number, let command, var steps, var results else { return nil }
        let form = ItemForm(version: version)
        for index in steps.indices { steps[index].bringToCurrentForm(form, local: local) }
        for index in results.indices {
            if let resolved = results[index].item?.inCurrentForm(form, local: local) { results[index].item = resolved }
        }
        return HistoryEntry(
            number: number, time: time, command: command, kind: kind, reverts: reverts, steps: steps, results: results,
            migration: migration)
    }

    private static func scannedNumbers(_ scanner: inout JSONScanner) throws(JSONDecodingError) -> [Int] {
        var numbers: [Int] = []
        try scanner.scanArray(mismatch: { _ in .shape("", "") }) { scanner, _ throws(JSONDecodingError) in
            numbers.append(try required(scanner.int(at: { "" }, in: 1...Int.max), at: { "" }))
        }
        return numbers
    }

    /// One step: `{"insert":"ID"|"remove":ITEM|"replace":ITEM,"done":BOOL,"at":INDEX}`.
    private static func scannedStep(_ scanner: inout JSONScanner) throws(JSONDecodingError) -> ChangeStep {
        func path() -> String { "" }
        var inserted: UUID?, removed: ToDoItem?, replaced: ToDoItem?
        let place = try ItemPlace.scanStep(&scanner, path: path) { scanner, key throws(JSONDecodingError) in
            switch key {
            case "insert": inserted = try scanner.string(at: path).flatMap(UUID.init(canonical:))
            case "remove": removed = try ToDoItem(scanning: &scanner, path: path)
            case "replace": replaced = try ToDoItem(scanning: &scanner, path: path)
            default: _ = try scanner.unknownValue()
            }
        }
        if let inserted { return .inserted(inserted, at: place) }
        if let removed { return .removed(removed, from: place) }
        if let replaced { return .replaced(replaced, at: place) }
        throw .shape("", "a step without its item")
    }

    /// The change number at the start of a line (`{"change":12,…`), read without parsing the
    /// rest: the history file is trimmed and repaired by these numbers alone.
    static func number(atStartOf line: some Collection<UInt8>) -> Int? {
        let prefix = Array(#"{"change":"#.utf8)
        guard line.starts(with: prefix) else { return nil }
        var number = 0
        var digits = 0
        for byte in line.dropFirst(prefix.count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
            guard digits < 18 else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? number : nil
    }
}
