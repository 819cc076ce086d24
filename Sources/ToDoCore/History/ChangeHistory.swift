import ToDoModel
import ToDoStorage

/// The recent changes to a list, oldest first, and which of them are still in effect: a change
/// stops being in effect when an undo takes it back, and an undo when a redo takes it back.
public struct ChangeHistory: Equatable, Sendable {
    /// How many of the latest changes the history keeps (fewer when they are very large).
    public static let keptChanges = 100

    public let entries: [HistoryEntry]
    /// For each change taken back, the undo or redo in effect that took it back.
    public let revertedBy: [Int: Int]
    /// How many lines of the history file were left out because they could not be read as a
    /// change todo writes (a hand edit, a damaged file); they stay in the file.
    public let unreadableLines: Int

    public init(entries: [HistoryEntry], unreadableLines: Int = 0) {
        self.entries = entries
        self.unreadableLines = unreadableLines
        var revertedBy: [Int: Int] = [:]
        // Newest first: an undo that was itself taken back takes nothing back.
        for entry in entries.reversed() where revertedBy[entry.number] == nil {
            for number in entry.reverts { revertedBy[number] = entry.number }
        }
        self.revertedBy = revertedBy
    }

    public func entry(_ number: Int) -> HistoryEntry? {
        entries.first { $0.number == number }
    }

    public func isInEffect(_ entry: HistoryEntry) -> Bool {
        revertedBy[entry.number] == nil
    }

    /// The `count` latest changes in effect that `todo undo` takes back, newest first: changes
    /// made by commands and redos, never undos (undoing again goes further back; `redo` takes an
    /// undo back). Exactly what `count` single undos in a row would take back: after undo and redo
    /// cycles, several entries stand for one change, and the second undo must not take the same
    /// change back again.
    public func undoTargets(_ count: Int) throws(UndoError) -> [HistoryEntry] {
        try targets(count, redo: false) { $0.kind != .undo }
    }

    /// The `count` latest undos in effect, newest first, that `todo redo` takes back: what `count`
    /// single redos in a row would.
    /// Only undos made since the last change that was neither an undo nor a redo: a new change
    /// ends the redo chain, as in an editor, since redoing across it would surprise.
    public func redoTargets(_ count: Int) throws(UndoError) -> [HistoryEntry] {
        let chainStart = entries.last { $0.kind == .change }?.number ?? 0
        return try targets(count, redo: true) { $0.kind == .undo && $0.number > chainStart }
    }

    /// Picks the latest entry in effect that `eligible` accepts, then does so again in the history
    /// as it would be with that entry taken back, `count` times.
    private func targets(_ count: Int, redo: Bool, eligible: (HistoryEntry) -> Bool) throws(UndoError) -> [HistoryEntry]
    {
        var history = self
        var targets: [HistoryEntry] = []
        for _ in 0..<max(count, 0) {
            guard let target = history.entries.last(where: { eligible($0) && history.isInEffect($0) }) else {
                throw .notEnough(asked: count, available: targets.count, redo: redo)
            }
            targets.append(target)
            // The entry a single undo (or redo) would add: it takes `target` back.
            let taking = HistoryEntry(
                number: (history.entries.last?.number ?? 0) + 1, time: nil, command: [],
                kind: redo ? .redo : .undo, reverts: [target.number], steps: [], results: [])
            history = ChangeHistory(entries: history.entries + [taking], unreadableLines: unreadableLines)
        }
        return targets
    }

    /// The change `todo undo --change N` takes back: any change still in effect, an undo included.
    public func target(_ number: Int) throws(UndoError) -> HistoryEntry {
        guard let entry = entry(number) else {
            throw .unknownChange(number, oldest: entries.first?.number, newest: entries.last?.number)
        }
        if let by = revertedBy[number] { throw .alreadyReverted(entry, by: self.entry(by)) }
        return entry
    }

    /// The latest change after `entry` in effect that touched the item with `id`: the one that
    /// depends on `entry` when the item is no longer as `entry` left it.
    func latestChange(touching id: UUID, after entry: HistoryEntry) -> HistoryEntry? {
        entries.last { $0.number > entry.number && isInEffect($0) && $0.results.contains { $0.id == id } }
    }
}

/// Why an undo or redo was refused. Nothing was changed.
public enum UndoError: Error, Equatable, Sendable {
    /// Fewer changes than asked for can be undone (or redone).
    case notEnough(asked: Int, available: Int, redo: Bool)
    /// `--change N` names a change the history does not have.
    case unknownChange(Int, oldest: Int?, newest: Int?)
    /// `--change N` names a change already taken back.
    case alreadyReverted(HistoryEntry, by: HistoryEntry?)
    /// An item the change touched is no longer as the change left it: a later change (`by`, or
    /// one outside the history when `nil`) depends on it.
    case changedSince(HistoryEntry, item: ToDoItem, by: HistoryEntry?)
    /// Putting the items back would break a rule of the list (an open item with the same content).
    case refused(HistoryEntry, ItemManagerError)
}

extension UndoError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notEnough(let asked, let available, let redo):
            let verb = redo ? "redo" : "undo"
            if available == 0 {
                return redo
                    ? "nothing to redo: no undo since the last change"
                    : "nothing to undo: the history has no change in effect"
            }
            return
                "cannot \(verb) \(asked) changes: only \(available) can be \(redo ? "redone" : "undone"); nothing was changed"
        case .unknownChange(let number, let oldest, let newest):
            guard let oldest, let newest else { return "there is no change \(number): the history is empty" }
            return "there is no change \(number) in the history (it keeps changes \(oldest) to \(newest))"
        case .alreadyReverted(let entry, let by):
            return "change \(entry.number) (\(entry.commandLine)) was already taken back"
                + (by.map { " by change \($0.number) (\($0.commandLine))" } ?? "")
        case .changedSince(let entry, let item, let by):
            let later =
                by.map {
                    "change \($0.number) (\($0.commandLine)) depends on it: it changed item \(item.label) since;"
                        + " undo that first"
                }
                ?? "item \(item.label) was changed since outside the history"
            return "cannot take back change \(entry.number) (\(entry.commandLine)): \(later); nothing was changed"
        case .refused(let entry, let error):
            return "cannot take back change \(entry.number) (\(entry.commandLine)): \(error); nothing was changed"
        }
    }
}

extension HistoryEntry {
    /// The command as it could be typed again: `todo edit 3 --title 'Call Mom'`.
    public var commandLine: String {
        (["todo"] + command.map(Self.shellQuoted)).joined(separator: " ")
    }

    /// A word quoted for a POSIX shell when it needs to be: `'it'\''s'`.
    static func shellQuoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                        || "-_./:,=+@%".unicodeScalars.contains(scalar))
            }
        return plain ? word : "'" + word.replacingText("'", with: #"'\''"#) + "'"
    }
}
