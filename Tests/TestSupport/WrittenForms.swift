import ToDoModel

@testable import ToDoStorage

extension ToDoItem {
    /// The item as the list file has it, read back by the shortcut for todo's own layout
    /// (`StoredItem.scanWrittenForm`): `nil` when the shortcut leaves it to the general reader.
    package var readByTheShortcut: StoredItem? {
        var writer = JSONWriter()
        write(to: &writer)
        let text = StoredText(writer.bytes)
        return withExtendedLifetime(text) {
            var scanner = JSONScanner(bytes: text.buffer)
            return StoredItem.scanWrittenForm(&scanner, in: text)
        }
    }
}
