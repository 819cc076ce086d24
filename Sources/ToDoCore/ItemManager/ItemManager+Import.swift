import ToDoModel
import ToDoStorage

extension ItemManager {
    /// Adds the items of an import, in order, as one change: an item whose id is in the list (or
    /// earlier in the import) is skipped, as is an open item with the same content as an open
    /// item; the others get new numbers and keep their status and times. An item that breaks a
    /// rule of its own (an empty title, a coordinate out of range) is skipped, saying why, and the
    /// rest imported; `strict`, it stops the whole import with an error naming where it came from,
    /// and nothing changes.
    /// `progress` is told how many entries are done, and of how many, as they go.
    public mutating func importItems(
        _ entries: [ImportedItem], strict: Bool = false,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(ImportError) -> ImportSummary {
        var copy = self
        var summary = ImportSummary()
        for (index, entry) in entries.enumerated() {
            progress?(index, entries.count)
            if let reason = entry.ignoredBecause {
                summary.skipped.append(SkippedItem(item: entry.item, origin: entry.origin, reason: .ignored(reason)))
                continue
            }
            do {
                summary.added.append(try copy.insert(entry.item, stampingTimes: false))
            } catch {
                switch error {
                // An id made from the item's own text is the same for the same text: a line repeated.
                case .duplicateID(let existing) where entry.idIsDerived:
                    summary.skipped.append(
                        SkippedItem(item: entry.item, origin: entry.origin, reason: .sameContent(existing: existing)))
                case .duplicateID(let existing):
                    summary.skipped.append(
                        SkippedItem(item: entry.item, origin: entry.origin, reason: .sameID(existing: existing)))
                case .duplicateContent(let existing):
                    summary.skipped.append(
                        SkippedItem(item: entry.item, origin: entry.origin, reason: .sameContent(existing: existing)))
                default:
                    if strict { throw ImportError(at: entry.origin, error.description) }
                    summary.skipped.append(
                        SkippedItem(item: entry.item, origin: entry.origin, reason: .refused(error.description)))
                }
            }
        }
        progress?(entries.count, entries.count)
        self = copy
        return summary
    }
}
