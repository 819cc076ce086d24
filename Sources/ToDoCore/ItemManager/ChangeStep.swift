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
    /// The members that give a step's place in the history's and the journal's lines:
    /// `{"insert"|"remove"|"replace":VALUE,"done":BOOL,"at":INDEX}`.
    static func members<Step>(_ place: @escaping JSONProperty<Step, ItemPlace>) -> [JSONMember<Step>] {
        let missing = "a step without its place"
        return [
            .required("done", { step, body in place(&step) { body(&$0.done) } }, .bool, missing: missing),
            .required("at", { step, body in place(&step) { body(&$0.index) } }, .count, missing: missing)
        ]
    }

    static let unread = ItemPlace(done: false, index: 0)
}

/// A step as the history and the journal keep it: one of its three kinds, each a member of its
/// own holding what that kind of step holds, and its place. Read, it is one step, or refused.
/// Its first three members are the kinds, of which a step has one.
protocol StepRecord: JSONRecord {
    associatedtype Step
    /// The step the record holds; `nil` when it holds none of the three kinds.
    consuming func step() -> Step?
}

extension StepRecord {
    static var missing: String { "a step without its place" }
    static var alternatives: (members: Range<Int>, refusal: String)? { (0..<3, "a step of more than one kind") }

    /// Reads the step that comes next.
    static func scannedStep(_ scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) -> Step {
        guard let step = try Self(scanning: &scanner, path: path).step() else {
            throw .shape(path(), "a step without its item")
        }
        return step
    }
}

extension ChangeStep: JSONStreamable {
    /// `{"insert":"ID"|"remove":ITEM|"replace":ITEM,"done":BOOL,"at":INDEX}`: the item a step
    /// removed or replaced is kept once, under the key of its kind.
    private struct Record: StepRecord {
        var inserted: UUID?, item: ToDoItem?, replaces = false, place = ItemPlace.unread
        static let unread = Record()
        static let members: [JSONMember<Record>] =
            [
                .optional("insert", { $1(&$0.inserted) }, .id), .optional("remove", { $1(&$0[item: false]) }, .item),
                .optional("replace", { $1(&$0[item: true]) }, .item)
            ] + ItemPlace.members { $1(&$0.place) }

        /// The item, when it is one that replaces (`true`) or that was removed (`false`).
        private subscript(item replacing: Bool) -> ToDoItem? {
            get { replaces == replacing ? item : nil }
            set {
                guard let newValue else { return }
                item = newValue
                replaces = replacing
            }
        }

        consuming func step() -> ChangeStep? {
            if let inserted { return .inserted(inserted, at: place) }
            guard let item else { return nil }
            return replaces ? .replaced(item, at: place) : .removed(item, from: place)
        }
    }

    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        self = try Record.scannedStep(&scanner, path: path)
    }

    package func write(to writer: inout JSONWriter) {
        switch self {
        case .inserted(let id, let place): Record(inserted: id, place: place).write(to: &writer)
        case .removed(let item, let place): Record(item: item, place: place).write(to: &writer)
        case .replaced(let item, let place): Record(item: item, replaces: true, place: place).write(to: &writer)
        }
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
