import Foundation
import ToDoModel

/// How a `StoredItem` keeps its `ItemFields`: decoded, or, for an item read from a list in the
/// exact form todo writes, as where they are in the list's text (`UnsafeWrittenForm`), read when
/// asked for. A command touches a handful of fields of a few items, and a list holds years of
/// them. Setting any field stores them all decoded.
package struct ItemStorage: Sendable {
    private enum Kind: Sendable {
        case written(UnsafeWrittenForm)
        indirect case decoded(ItemFields)
    }

    private var kind: Kind
    /// The text a written form points into, kept alive for it. Apart from `kind`, so that reading
    /// a field through the form counts no reference.
    private var text: StoredText?

    package init(_ fields: ItemFields) {
        kind = .decoded(fields)
    }

    /// Fields that stay in `form`, in `text`, until asked for.
    package init(_ form: UnsafeWrittenForm, in text: StoredText) {
        kind = .written(form)
        self.text = text
    }

    package var title: String {
        if case .written(let form) = kind { form.title } else { fields.title }
    }

    package var itemDescription: String? {
        if case .written(let form) = kind { form.itemDescription } else { fields.itemDescription }
    }

    package var due: ItemDate? {
        if case .written(let form) = kind { form.due } else { fields.due }
    }

    package var legacyAllDay: Bool? {
        if case .written(let form) = kind { form.legacyAllDay } else { fields.legacyAllDay }
    }

    package var start: ItemDate? {
        if case .written(let form) = kind { form.startDate } else { fields.start }
    }

    package var repeatRule: String? {
        if case .written(let form) = kind { form.repeatRule } else { fields.repeatRule }
    }

    package var location: Location? {
        if case .written(let form) = kind { form.location } else { fields.location }
    }

    package var priority: Int? {
        if case .written(let form) = kind { form.priority } else { fields.priority }
    }

    package var tags: [String] {
        if case .written(let form) = kind { form.tags } else { fields.tags }
    }

    package var parent: UUID? {
        if case .written(let form) = kind { form.parent } else { fields.parent }
    }

    /// Never in a written form: an item in progress is read by the general reader.
    package var inProgress: Bool {
        if case .written = kind { false } else { fields.inProgress }
    }

    /// Never in a written form, as `inProgress`.
    package var percentComplete: Int? {
        if case .written = kind { nil } else { fields.percentComplete }
    }

    package var createdAt: Double? {
        if case .written(let form) = kind { form.createdAt } else { fields.createdAt }
    }

    package var completedAt: Double? {
        if case .written(let form) = kind { form.completedAt } else { fields.completedAt }
    }

    package var modifiedAt: Double? {
        if case .written(let form) = kind { form.modifiedAt } else { fields.modifiedAt }
    }

    /// Never in a written form: an item with one is read by the general reader.
    package var originalUID: String? {
        if case .written = kind { nil } else { fields.originalUID }
    }

    /// Never in a written form, as `originalUID`.
    package var icalendarLines: [String] {
        if case .written = kind { [] } else { fields.icalendarLines }
    }

    /// The location's name alone, without reading the rest of a written location.
    package var locationName: String? {
        if case .written(let form) = kind { form.locationName } else { fields.location?.name }
    }

    /// All the fields, decoded; setting them drops the written form.
    package var fields: ItemFields {
        get {
            switch kind {
            case .written(let form): return form.fields
            case .decoded(let fields): return fields
            }
        }
        set {
            kind = .decoded(newValue)
            text = nil
        }
    }

    /// Whether the fields are still in the text they were read from, read when asked for.
    package var keepsFieldsInText: Bool {
        if case .written = kind { true } else { false }
    }

    /// The written form, when writing an item with this `number` and status anew would give
    /// exactly its bytes.
    package func writtenForm(number: Int, done: Bool) -> UnsafeWrittenForm? {
        guard case .written(let form) = kind, form.isExact, form.number == number, form.done == done else { return nil }
        return form
    }

    /// Where the text a written form points into starts: forms with the same one were read from
    /// one text.
    package var writtenTextStart: UnsafePointer<UInt8>? { text?.start }

    /// Calls `body` with the title's UTF-8 bytes: for a written form whose title has no escapes,
    /// straight from the text, without making a `String`.
    package func withTitleUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if case .written(let form) = kind, form.withUnescapedTitle(body) != nil { return }
        var title = title
        title.withUTF8(body)
    }

    /// Calls `body` with what a list shows: for a written form, its strings straight from the
    /// text unless they have escapes, and the rest not read at all.
    package func withListFields(_ body: (ListFields) -> Void) {
        if case .written(let form) = kind { return form.withListFields(body) }
        let fields = fields
        var title = fields.title
        let due = ListFields.Due.value(fields.due)
        let repeats = fields.repeatRule != nil
        // The tags as the file has them, so that `ListFields` holds no reference.
        var tagsText: [UInt8] = []
        if !fields.tags.isEmpty {
            var writer = JSONWriter()
            writer.strings(fields.tags)
            tagsText = writer.bytes
        }
        tagsText.withUnsafeBufferPointer { tagsText in
            let tags = tagsText.isEmpty ? ListFields.Tags.none : .written(tagsText, at: 0)
            title.withUTF8 { title in
                guard var name = fields.location?.name else {
                    return body(ListFields(title: title, locationName: nil, due: due, repeats: repeats,
                                           priority: fields.priority, tags: tags))
                }
                name.withUTF8 { name in
                    body(ListFields(title: title, locationName: name, due: due, repeats: repeats,
                                    priority: fields.priority, tags: tags))
                }
            }
        }
    }
}

/// An item as the list keeps it: its id, number and status, and its other fields in an
/// `ItemStorage`, which may leave them in the list's text until asked for. The list hands out
/// plain `ToDoItem`s (`item`); `todo list`, the agenda and the writer read these, so that a list of
/// 100,000 items is never decoded to show a screenful or to change one item.
package struct StoredItem: Sendable {
    package let id: UUID
    package var number: Int
    package var done: Bool
    package var storage: ItemStorage

    package init(id: UUID, number: Int, done: Bool, storage: ItemStorage) {
        self.id = id
        self.number = number
        self.done = done
        self.storage = storage
    }

    /// `item`, kept decoded.
    package init(_ item: ToDoItem) {
        self.init(id: item.id, number: item.number, done: item.done, storage: ItemStorage(item.fields))
    }

    /// The item as a plain value, every field decoded.
    package var item: ToDoItem { ToDoItem(id: id, number: number, done: done, fields: storage.fields) }

    package var title: String { storage.title }
    package var itemDescription: String? { storage.itemDescription }
    package var due: ItemDate? { storage.due }
    package var start: ItemDate? { storage.start }
    package var repeatRule: String? { storage.repeatRule }
    package var location: Location? { storage.location }
    package var priority: Int? { storage.priority }
    package var tags: [String] { storage.tags }
    package var parent: UUID? { storage.parent }
    package var createdAt: Double? { storage.createdAt }
    package var completedAt: Double? { storage.completedAt }
    package var modifiedAt: Double? { storage.modifiedAt }

    /// The name of the item's location: the same as `location?.name`, without reading the rest of
    /// the location (a list shows thousands of names).
    package var locationName: String? { storage.locationName }

    /// The item that comes next if it is in the exact written form, its fields left in `text`
    /// (the text the scanner reads); else `nil` with nothing consumed.
    package static func scanWrittenForm(_ scanner: inout JSONScanner, in text: StoredText) -> StoredItem? {
        WrittenFormReader.item(&scanner).map { StoredItem($0, in: text) }
    }

    /// The item found at `item`, in `text`, the text its bytes are in; its fields stay there.
    package init(_ item: WrittenItem, in text: StoredText) {
        self.init(id: item.id, number: item.number, done: item.done,
                  storage: ItemStorage(UnsafeWrittenForm(item, in: text), in: text))
    }

    /// The bytes the item was read from, when writing it anew would give exactly them.
    package var writtenForm: UnsafeWrittenForm? { storage.writtenForm(number: number, done: done) }

    /// Where the text the written form points into starts, when it has one that `writtenForm` gives.
    package var writtenTextStart: UnsafePointer<UInt8>? { writtenForm == nil ? nil : storage.writtenTextStart }

    /// Calls `body` with the title's UTF-8 bytes, straight from the list's text when it can (a
    /// list shows thousands of titles). Not generic, so that a call from another module is not
    /// slowed by an unspecialised generic.
    package func withTitleUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        storage.withTitleUTF8(body)
    }

    /// Calls `body` with what `todo list` shows of the item, straight from the list's text when it
    /// can. Not generic, as `withTitleUTF8`.
    package func withListFields(_ body: (ListFields) -> Void) {
        storage.withListFields(body)
    }

    /// Whether the item has the content of `other` (`ToDoItem.hasSameContent`), reading only the
    /// title when it differs.
    package func hasSameContent(as other: ToDoItem) -> Bool {
        title == other.title && itemDescription == other.itemDescription && due == other.due && location == other.location
    }

    /// The title's ASCII `TitleKey`, made from its bytes (`withTitleUTF8`), if it has one.
    package var asciiTitleKey: Int? {
        var key: Int?
        withTitleUTF8 { key = TitleKey.asciiKey(ofUTF8: $0) }
        return key
    }
}

/// What `todo list` shows of an item (`StoredItem.withListFields`): its strings as UTF-8 bytes,
/// valid only while the call lasts.
package struct ListFields {
    package let title: UnsafeBufferPointer<UInt8>
    package let locationName: UnsafeBufferPointer<UInt8>?
    /// The due date, or where it is written: read only when asked for.
    package let due: Due
    /// Whether the item has a repeat rule.
    package let repeats: Bool
    package let priority: Int?
    /// The tags, or where they are written: read only when asked for.
    package let tags: Tags

    package enum Due {
        case value(ItemDate?)
        /// A time in seconds, written there.
        case writtenTime(UnsafeBufferPointer<UInt8>, at: Int)
        /// A day, written there as `"2026-12-03"`.
        case writtenDay(UnsafeBufferPointer<UInt8>, at: Int)
    }

    /// Plain values, as the rest: a list passes thousands of these along.
    package enum Tags {
        case none
        case written(UnsafeBufferPointer<UInt8>, at: Int)
    }

    /// The tags, `nil` for none.
    package var tagList: [String]? {
        switch tags {
        case .none: return nil
        case .written(let bytes, let index):
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = index
            return WrittenFormReader.tags(&scanner)
        }
    }

    /// Calls `body` with the tags as a list shows them, ` +home +errand`, made from the written
    /// array's bytes without a `String`; `false` (and no call) when there are none or one has an
    /// escape or a control character, which `tagList` then decodes.
    package func withShownTags(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard case .written(let bytes, let index) = tags else { return false }
        // The array's strings were checked when the item was read: quotes open and close them.
        var end = index
        var inString = false
        while end < bytes.count {
            let byte = bytes[end]
            if inString {
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F || byte == 0xC2 { return false }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "]") {
                break
            }
            end += 1
        }
        // Each tag becomes " +" and its bytes: never longer than the array with two bytes a tag.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * (end - index) + 2) { shown in
            var count = 0
            inString = false
            for position in index..<end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    inString.toggle()
                    if inString {
                        shown[count] = UInt8(ascii: " ")
                        shown[count + 1] = UInt8(ascii: "+")
                        count += 2
                    }
                } else if inString {
                    shown[count] = byte
                    count += 1
                }
            }
            body(UnsafeBufferPointer(rebasing: shown[..<count]))
            return true
        }
    }

    /// The due date.
    package var date: ItemDate? {
        switch due {
        case .value(let date): return date
        case .writtenTime(let bytes, let index):
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = index
            return WrittenFormReader.number(&scanner, in: ToDoItem.timestampRange).map(ItemDate.time)
        case .writtenDay(let bytes, let index):
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = index
            return WrittenFormReader.day(&scanner).map(ItemDate.day)
        }
    }
}
