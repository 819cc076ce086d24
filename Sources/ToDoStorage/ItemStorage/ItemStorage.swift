import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a `StoredItem` keeps its `ItemFields`: decoded, or, for an item read from a list in the
/// exact form todo writes, as where they are in the list's text (`UnsafeWrittenForm`), read when
/// asked for. A command touches a handful of fields of a few items, and a list holds years of
/// them. Setting any field stores them all decoded.
package struct ItemStorage: Sendable {
    /// Where the fields are in the text they were read from; `nil` once they are decoded.
    private var form: UnsafeWrittenForm?
    /// What keeps the fields: the text `form` points into (a `StoredText`), or, without a form,
    /// the fields decoded (`DecodedFields`). One reference either way, and plain values beside it:
    /// a list copies its items thousands of times, and a copy counts that one reference, where an
    /// enum of the two kinds was copied through its type's value witnesses (measured in
    /// Benchmarks/README.md, "Why the code is as it is"). Reading a field through the form counts none.
    private var holder: any AnyObject & Sendable

    /// Fields decoded, held for the items that share them.
    private final class DecodedFields: Sendable {
        let fields: ItemFields
        init(_ fields: ItemFields) { self.fields = fields }
    }

    package init(_ fields: ItemFields) {
        holder = DecodedFields(fields)
    }

    /// Fields that stay in `form`, in `text`, until asked for.
    init(_ form: UnsafeWrittenForm, in text: consuming StoredText) {
        self.form = form
        holder = text
    }

    /// The fields decoded, for storage without a form (which `holder` then is).
    private var decoded: ItemFields { unsafeDowncast(holder, to: DecodedFields.self).fields }

    // The fields a command reads of many items, each from where it is when the item has a written
    // form (`UnsafeWrittenForm`, by its member in the table); any other is read with all of
    // them (`fields`).

    package var title: String {
        if let form { form.text(.title) ?? "" } else { decoded.title }
    }

    package var itemDescription: String? {
        if let form { form.text(.itemDescription) } else { decoded.itemDescription }
    }

    package var due: ItemDate? {
        if let form { form.due } else { decoded.due }
    }

    /// As the general reader reads it: said only of a due in seconds.
    package var legacyAllDay: Bool? {
        if let form {
            form.offsets.has(.allDay) && !form.offsets.has(.dueDate) ? form.flag(.allDay) : nil
        } else {
            decoded.legacyAllDay
        }
    }

    package var start: ItemDate? {
        if let form { form.startDate } else { decoded.start }
    }

    package var repeatRule: String? {
        if let form { form.text(.repeatRule) } else { decoded.repeatRule }
    }

    package var location: Location? {
        if let form { form.location } else { decoded.location }
    }

    package var priority: Int? {
        if let form { form.priority } else { decoded.priority }
    }

    package var tags: [String] {
        if let form { form.tags } else { decoded.tags }
    }

    package var parent: UUID? {
        if let form { form.parent } else { decoded.parent }
    }

    package var project: String? {
        if let form { form.text(.project) } else { decoded.project }
    }

    package var list: String? {
        if let form { form.text(.list) } else { decoded.list }
    }

    /// Whether the item has reminders, without reading them.
    package var hasAlarms: Bool {
        if let form { form.offsets.has(.alarms) } else { !decoded.alarms.isEmpty }
    }

    package var inProgress: Bool {
        if let form { form.flag(.inProgress) } else { decoded.inProgress }
    }

    /// Whether the item has annotations or another program's members, without reading them.
    package var hasNotesOrForeignMembers: Bool {
        if let form {
            form.offsets.has(.annotations) || form.offsets.has(.from)
        } else {
            !decoded.annotations.isEmpty || !decoded.foreignMembers.isEmpty
        }
    }

    package var createdAt: Double? {
        if let form { form.time(.createdAt) } else { decoded.createdAt }
    }

    package var completedAt: Double? {
        if let form { form.time(.completedAt) } else { decoded.completedAt }
    }

    package var modifiedAt: Double? {
        if let form { form.time(.modifiedAt) } else { decoded.modifiedAt }
    }

    /// The location's name alone, without reading the rest of a written location.
    package var locationName: String? {
        if let form { form.locationName } else { decoded.location?.name }
    }

    /// All the fields, decoded; setting them drops the written form.
    package var fields: ItemFields {
        get { form?.fields ?? decoded }
        set {
            form = nil
            holder = DecodedFields(newValue)
        }
    }

    /// Whether the fields are still in the text they were read from, read when asked for.
    package var keepsFieldsInText: Bool {
        form != nil
    }

    /// The written form, when writing the fields anew would give exactly its bytes (with the
    /// number and status they were read with: `StoredItem.writtenForm`).
    var exactForm: UnsafeWrittenForm? {
        guard let form, form.isExact else { return nil }
        return form
    }

    /// Where the item's fields are in the text it was read from, exact or not; `nil` once decoded.
    var readForm: UnsafeWrittenForm? {
        form
    }

    /// Where the text a written form points into starts: forms with the same one were read from
    /// one text.
    var writtenTextStart: UnsafePointer<UInt8>? {
        form == nil ? nil : unsafeDowncast(holder, to: StoredText.self).start
    }

    /// Calls `body` with the title's UTF-8 bytes: for a written form whose title has no escapes,
    /// straight from the text, without making a `String`.
    func withTitleUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let form, form.withUnescapedTitle(body) != nil { return }
        var title = title
        title.withUTF8(body)
    }

    /// What a list shows (`StoredItem.listFields(into:withDue:)`): for a written form, its
    /// strings copied straight from the text unless they have escapes, and the rest not read.
    /// Inlined, as the written form's is here: each call that hands the fields on copied them,
    /// some 200 bytes a field at a time, for every row of a list.
    @inline(__always)
    func listFields(into text: inout [UInt8], withDue: Bool) -> ListFields {
        if let form { return form.listFields(into: &text, withDue: withDue) }
        let fields = decoded
        let title = ListFields.append(fields.title, to: &text)
        let place = fields.location.map { ListFields.append($0.name, to: &text) }
        var tags: (shown: Range<Int>?, written: Range<Int>?) = (nil, nil)
        if !fields.tags.isEmpty {
            // From the tags as the file has them, as a written form's are.
            var writer = JSONWriter()
            writer.strings(fields.tags)
            tags = writer.bytes.withUnsafeBufferPointer { ListFields.appendTags($0, to: &text) }
        }
        let project = fields.project.map { ListFields.append($0, to: &text) }
        return ListFields(
            title: title, locationName: place, date: withDue ? fields.due : nil, repeats: fields.repeatRule != nil,
            priority: fields.priority, shownTags: tags.shown, tags: tags.written, project: project,
            list: fields.list.map { ListFields.append($0, to: &text) }, hasAlarms: !fields.alarms.isEmpty)
    }
}

/// An item as the list keeps it: its id, number and status, and its other fields in an
/// `ItemStorage`, which may leave them in the list's text until asked for. The list hands out
/// plain `ToDoItem`s (`item`); `todo list`, the agenda and the writer read these, so that a list of
/// 100,000 items is never decoded to show a screenful or to change one item.
package struct StoredItem: Sendable {
    package let id: UUID
    package var number: Int {
        didSet { isNumberAndStatusAsWritten = false }
    }
    package var done: Bool {
        didSet { isNumberAndStatusAsWritten = false }
    }
    package var storage: ItemStorage
    /// Whether the number and status are those the written form's bytes say (so that the bytes
    /// are still the item's): kept here rather than in the form, where they would make every item
    /// a copy holds 9 bytes longer, past what is copied without a call to `memcpy`.
    private(set) var isNumberAndStatusAsWritten = false

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
    package var project: String? { storage.project }
    package var hasAlarms: Bool { storage.hasAlarms }
    /// The list's name; `nil` for the default list.
    package var list: String? { storage.list }
    package var inProgress: Bool { storage.inProgress }
    package var hasNotesOrForeignMembers: Bool { storage.hasNotesOrForeignMembers }
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
    package init(_ item: WrittenItem, in text: consuming StoredText) {
        let form = UnsafeWrittenForm(item, in: text)
        self.init(id: item.id, number: item.number, done: item.done, storage: ItemStorage(form, in: text))
        isNumberAndStatusAsWritten = true
    }

    /// The bytes the item was read from, when writing it anew would give exactly them.
    var writtenForm: UnsafeWrittenForm? { isNumberAndStatusAsWritten ? storage.exactForm : nil }

    /// Where the item's fields are in the text it was read from (exact or not) when its number and
    /// status are still those written there.
    var readForm: UnsafeWrittenForm? { isNumberAndStatusAsWritten ? storage.readForm : nil }

    /// Where the text the written form points into starts, when it has one that `writtenForm` gives.
    var writtenTextStart: UnsafePointer<UInt8>? { writtenForm == nil ? nil : storage.writtenTextStart }

    /// What `todo list` shows of the item, its strings' bytes appended to `text` (best kept, and
    /// emptied now and then, for the next items, so that a list of thousands allocates once),
    /// copied straight from the list's text when they can be; the due read only `withDue`.
    package func listFields(into text: inout [UInt8], withDue: Bool = true) -> ListFields {
        storage.listFields(into: &text, withDue: withDue)
    }

    /// Whether the item has the content of `other` (`ToDoItem.hasSameContent`), reading only the
    /// title when it differs.
    package func hasSameContent(as other: ToDoItem) -> Bool {
        ToDoItem.hasSameContent(
            other, title: storage.title, itemDescription: storage.itemDescription, due: storage.due,
            location: storage.location)
    }

    /// The title's ASCII `TitleKey`, made from its bytes (`ItemStorage.withTitleUTF8`), if it has one.
    package var asciiTitleKey: Int? {
        var key: Int?
        storage.withTitleUTF8 { key = TitleKey.asciiKey(ofUTF8: $0) }
        return key
    }
}

/// What `todo list` shows of an item (`StoredItem.listFields(into:withDue:)`): its strings as
/// ranges of UTF-8 bytes in a text the caller keeps, so that a list of thousands makes no `String`
/// and no allocation per row.
package struct ListFields {
    package let title: Range<Int>
    package let locationName: Range<Int>?
    /// The due date, when it was asked for.
    package let date: ItemDate?
    /// Whether the item has a repeat rule.
    package let repeats: Bool
    package let priority: Int?
    /// The tags as a list shows them after the title, ` +home +errand`, in the text; `nil` for
    /// none, and when one has an escape or a control character (`tags` then holds them).
    package let shownTags: Range<Int>?
    /// The tags as the file writes them (`["home","errand"]`), in the text, when they could not be
    /// shown as they are (`tagList` decodes them); else `nil`.
    let tags: Range<Int>?
    package let project: Range<Int>?
    /// The list's name; `nil` for the default list.
    package let list: Range<Int>?
    /// Whether the item has reminders.
    package let hasAlarms: Bool

    /// Appends `string`'s UTF-8 to `text`, and returns where it is.
    static func append(_ string: String, to text: inout [UInt8]) -> Range<Int> {
        let start = text.count
        text.append(contentsOf: string.utf8)
        return start..<text.count
    }

    /// Whether the item has tags (shown as they are, or to be decoded).
    package var hasTags: Bool { shownTags != nil || tags != nil }

    /// Whether the title, in `text`, has a `+` or an `@`, where a tag may stand as a word (a
    /// todo.txt line read whole). `memchr`, as a list asks it of every row with tags.
    package func titleMayHoldTagWords(in text: [UInt8]) -> Bool {
        let range = title
        return text.withUnsafeBufferPointer { bytes in
            guard let start = bytes.baseAddress?.advanced(by: range.lowerBound), !range.isEmpty else { return false }
            return memchr(start, Int32(UInt8(ascii: "+")), range.count) != nil
                || memchr(start, Int32(UInt8(ascii: "@")), range.count) != nil
        }
    }

    /// The tags decoded, when they could not be shown as they are (`shownTags`); `text` is the one
    /// the fields were made in.
    package func tagList(in text: [UInt8]) -> [String]? {
        guard let tags else { return nil }
        return text.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = tags.lowerBound
            return WrittenFormReader.tags(&scanner)
        }
    }

    /// Appends the array of strings written at the start of `array` (`["home","errand"]`, checked
    /// when the item was read) to `text` as a list shows it, ` +home +errand`, a tag's bytes at a
    /// time, and returns where; when a tag has an escape or a control character, appends the array
    /// as it is instead, for `tagList` to decode. Returns the shown tags and the array: one of them.
    static func appendTags(
        _ array: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]
    ) -> (shown: Range<Int>?, written: Range<Int>?) {
        let start = text.count
        var index = 0
        while index < array.count, array[index] != UInt8(ascii: "]") {
            guard array[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let tagStart = index + 1
            var end = tagStart
            while end < array.count, array[end] != UInt8(ascii: "\"") {
                let byte = array[end]
                // (0xC2 starts the C1 controls, U+0080 to U+009F.)
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F || byte == 0xC2 {
                    text.removeSubrange(start...)
                    return (nil, appendArray(array, to: &text))
                }
                end += 1
            }
            text.append(UInt8(ascii: " "))
            // A context (`@phone`) shows as it is (`Tags.shown`): its sign in place of the plus.
            if end == tagStart || array[tagStart] != UInt8(ascii: "@") { text.append(UInt8(ascii: "+")) }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: array[tagStart..<end]))
            index = end + 1
        }
        return (start..<text.count, nil)
    }

    /// Appends the array of strings written at the start of `array` as it is, and returns where.
    private static func appendArray(_ array: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) -> Range<Int> {
        let start = text.count
        var inString = false, escaped = false
        for byte in array {
            text.append(byte)
            if escaped {
                escaped = false
            } else if inString {
                if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "]") {
                break
            }
        }
        return start..<text.count
    }
}
