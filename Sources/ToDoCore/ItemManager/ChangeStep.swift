import ToDoModel
import ToDoStorage

/// Where an item stands in the list: in the open or the done items, at an index.
public struct ItemPlace: Equatable, Sendable {
    public var done: Bool
    public var index: Int

    public init(done: Bool, index: Int) {
        self.done = done
        self.index = index
    }
}

extension ItemPlace {
    /// Writes a step as the history and the journal keep it, `{"KIND":VALUE,"done":BOOL,"at":INDEX}`,
    /// `value` writing what the step holds.
    static func writeStep(
        _ kind: StaticString, at place: ItemPlace, to writer: inout JSONWriter, value: (inout JSONWriter) -> Void
    ) {
        writer.beginObject()
        writer.key(kind)
        value(&writer)
        writer.key("done")
        writer.bool(place.done)
        writer.key("at")
        writer.int(place.index)
        writer.endObject()
    }

    /// Reads a step `writeStep` wrote: its place, `readValue` reading the value of any other key.
    static func scanStep(
        _ scanner: inout JSONScanner, path: () -> String,
        readValue: (inout JSONScanner, JSONStringToken) throws(JSONDecodingError) -> Void
    ) throws(JSONDecodingError) -> ItemPlace {
        var done: Bool?, index: Int?
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            switch key {
            case "done": done = try scanner.bool(at: path)
            case "at": index = try scanner.int(at: path, in: 0...Int.max)
            default: try readValue(&scanner, key)
            }
        }
        guard let done, let index else { throw .shape(path(), "a step without its place") }
        return ItemPlace(done: done, index: index)
    }
}

/// Lines of JSON kept one to a line (the history, the journal).
extension JSONWriter {
    /// The bytes written, made one line with its line feed. JSON strings never hold a raw line
    /// feed; an item's bytes as read from a hand-written file could have one between tokens,
    /// which must not split the line.
    func line() -> [UInt8] {
        var bytes = bytes
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

/// One step of a change to an `ItemManager`, holding what it replaced, so that taking the steps
/// back in reverse order gives the list as it was, in the same order (`ItemManager.revert`).
public enum ChangeStep: Equatable, Sendable {
    /// The item with this id was put at the place.
    case inserted(UUID, at: ItemPlace)
    /// The item was taken from the place.
    case removed(ToDoItem, from: ItemPlace)
    /// The item at the place was replaced by a new version of itself (same id).
    case replaced(ToDoItem, at: ItemPlace)

    /// The id of the item the step is about.
    public var id: UUID {
        switch self {
        case .inserted(let id, _): return id
        case .removed(let item, _), .replaced(let item, _): return item.id
        }
    }

    /// The item as it was before the step; `nil` when the step brought it in.
    var itemBefore: ToDoItem? {
        switch self {
        case .inserted: return nil
        case .removed(let item, _), .replaced(let item, _): return item
        }
    }

    /// The step with its item's dates read as `form` says (`ToDoItem.inCurrentForm`).
    mutating func bringToCurrentForm(_ form: ItemForm, local: CivilTime) {
        switch self {
        case .inserted: break
        case .removed(let item, let place):
            if let resolved = item.inCurrentForm(form, local: local) { self = .removed(resolved, from: place) }
        case .replaced(let item, let place):
            if let resolved = item.inCurrentForm(form, local: local) { self = .replaced(resolved, at: place) }
        }
    }
}

/// An item a change touched, as the change left it: `item` is `nil` when the change removed it.
public struct TouchedItem: Equatable, Sendable {
    public var id: UUID
    public var item: ToDoItem?

    public init(id: UUID, item: ToDoItem?) {
        self.id = id
        self.item = item
    }
}

/// What a change did to one item: the item before and after it, `nil` where it was not in the list.
public struct ItemChange: Equatable, Sendable {
    public var before: ToDoItem?
    public var after: ToDoItem?

    public init(before: ToDoItem?, after: ToDoItem?) {
        self.before = before
        self.after = after
    }

    public var id: UUID? { (after ?? before)?.id }

    /// The same change the other way round: what taking it back does.
    public var reversed: ItemChange { ItemChange(before: after, after: before) }

    /// The fields an edit changed (`ItemField.edited`); none for an item added or removed.
    public var editedFields: [ItemField] {
        guard let before, let after else { return [] }
        return ItemField.edited(from: before, to: after)
    }
}

/// What the changes made to an `ItemManager` since it was read come to, as the store writes them:
/// whether the list changed at all (a number given out counts), the steps taken with what each
/// replaced, and the items they touched as they are now (what the history keeps of the change).
public struct ItemChanges: Sendable {
    public let changeList: Bool
    public let steps: [ChangeStep]
    public let touchedItems: [TouchedItem]
}

extension ItemManager {
    /// The changes made since the manager was read, to hand to the store.
    public var changes: ItemChanges {
        ItemChanges(changeList: changeCount > 0, steps: steps, touchedItems: steps.isEmpty ? [] : touchedItems())
    }

    /// The items the recorded steps touched, in the order first touched, as they are now: what a
    /// history entry keeps of the change. Each is looked for first where its last step put it.
    func touchedItems() -> [TouchedItem] {
        var lastPlace: [UUID: ItemPlace?] = [:]
        var order: [UUID] = []
        for step in steps {
            if lastPlace[step.id] == nil { order.append(step.id) }
            switch step {
            case .inserted(_, let place), .replaced(_, let place): lastPlace[step.id] = place
            case .removed: lastPlace[step.id] = .some(nil)
            }
        }
        let lookedUp = order.count > 8 ? items(withIDs: Set(order)) : nil
        return order.map { id in
            if let lookedUp { return TouchedItem(id: id, item: lookedUp[id]) }
            if let place = lastPlace[id] ?? nil {
                if isItem(id, at: place) { return TouchedItem(id: id, item: item(at: place)) }
            }
            return TouchedItem(id: id, item: item(withID: id))
        }
    }
}
