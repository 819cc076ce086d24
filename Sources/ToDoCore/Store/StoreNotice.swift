import ToDoStorage

/// What the store tells the user about the list while using it, without refusing it: said on
/// standard error by the command line (the core never prints).
public enum StoreNotice: Equatable, Sendable, CustomStringConvertible {
    /// The journal beside a long list is not this user's own (another user's, planted in a folder
    /// others can write to; a link; not a plain file): the list was read without it, and the next
    /// change writes the list whole.
    case journalIgnored(journal: String, list: String)
    /// The history records changes the list file does not hold (its journal was lost or left
    /// behind, or the list file put back from a copy or written by another program without its
    /// revision): they stay in the history, and this change is numbered after them.
    case changesNotInList(list: String, changes: ClosedRange<Int>)

    public var description: String {
        switch self {
        case .journalIgnored(let journal, let list):
            return
                "\(journal) is not this user's own file (another user's, a link, or not a plain file), so its changes"
                + " were not read: \(list) is used as its file holds it, and the next change writes it whole"
        case .changesNotInList(let list, let changes):
            return
                "the history of \(list) records changes \(changes.lowerBound)–\(changes.upperBound), which the list does not hold"
                + " (its journal was lost or left behind, or the list file was put back from a copy or written by another program"
                + " without its revision); they stay in the history (todo history), and this change is numbered after them"
        }
    }
}
