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
    /// How many changes each entry made or took back, by its number: a command's is one; an undo's
    /// or a redo's, those of the entries it took back (`undo 3` took back three, and the redo of it
    /// makes three again). `undo N` and `redo N` count these.
    let changeCounts: [Int: Int]
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
        // Oldest first: an entry takes back only entries before it (one the history no longer
        // keeps counts as one change).
        var changeCounts: [Int: Int] = [:]
        for entry in entries {
            changeCounts[entry.number] =
                entry.kind == .change ? 1 : max(entry.reverts.reduce(0) { $0 + (changeCounts[$1] ?? 1) }, 1)
        }
        self.changeCounts = changeCounts
    }

    public func entry(_ number: Int) -> HistoryEntry? {
        entries.first { $0.number == number }
    }

    public func isInEffect(_ entry: HistoryEntry) -> Bool {
        revertedBy[entry.number] == nil
    }

    /// The latest changes in effect that `todo undo` takes back, newest first: changes made by
    /// commands and redos, never undos (undoing again goes further back; `redo` takes an undo
    /// back). Exactly what `changes` single undos in a row would take back: after undo and redo
    /// cycles, several entries stand for one change, and the second undo must not take the same
    /// change back again. A redo that made several changes again (`redo 3`) counts as those; `nil`
    /// is the latest entry whatever it made (`todo undo`).
    public func undoTargets(_ changes: Int?) throws(UndoError) -> [HistoryEntry] {
        try wholeTargets(changes, redo: false) { $0.kind != .undo }
    }

    /// The latest undos in effect, newest first, that `todo redo` takes back: those that took back
    /// `changes` changes between them, as `undo N` counts them (after `undo 3`, `redo 3` takes that
    /// undo back); the latest undo whatever it took back when `changes` is `nil` (`todo redo`).
    /// Only undos made since the last change that was neither an undo nor a redo: a new change
    /// ends the redo chain, as in an editor, since redoing across it would surprise.
    public func redoTargets(_ changes: Int?) throws(UndoError) -> [HistoryEntry] {
        let chainStart = entries.last { $0.kind == .change }?.number ?? 0
        return try wholeTargets(changes, redo: true) { $0.kind == .undo && $0.number > chainStart }
    }

    /// The targets that make `changes` changes between them, each taken whole: a count that would
    /// split an undo or redo of several changes is refused, saying which count fits.
    private func wholeTargets(
        _ changes: Int?, redo: Bool, eligible: (HistoryEntry) -> Bool
    ) throws(UndoError) -> [HistoryEntry] {
        let targets = try targets(changes ?? 1, redo: redo, weight: { changes == nil ? 1 : $0.changeCount(of: $1) }) {
            eligible($0)
        }
        let taken = targets.reduce(0) { $0 + changeCount(of: $1) }
        if let changes, taken > changes, let last = targets.last {
            throw .splits(asked: changes, last, fits: taken, redo: redo)
        }
        return targets
    }

    /// How many changes `entry` made or took back (`changeCounts`).
    func changeCount(of entry: HistoryEntry) -> Int {
        changeCounts[entry.number] ?? 1
    }

    /// Picks the latest entry in effect that `eligible` accepts, then does so again in the history
    /// as it would be with that entry taken back, until the entries' `weight` (1 each, unless
    /// given) comes to `count`.
    private func targets(
        _ count: Int, redo: Bool, weight: (ChangeHistory, HistoryEntry) -> Int, eligible: (HistoryEntry) -> Bool
    ) throws(UndoError) -> [HistoryEntry] {
        var history = self
        var targets: [HistoryEntry] = [], taken = 0
        while taken < count {
            guard let target = history.entries.last(where: { eligible($0) && history.isInEffect($0) }) else {
                throw .notEnough(asked: count, available: taken, redo: redo)
            }
            targets.append(target)
            taken += max(weight(history, target), 1)
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
    /// `undo N` or `redo N` would take back part of a redo or an undo that made or took back
    /// several changes together (the entry): `fits` is the count that takes it back whole.
    case splits(asked: Int, HistoryEntry, fits: Int, redo: Bool)
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
        case .splits(let asked, let entry, let fits, let redo):
            let verb = redo ? "redo" : "undo"
            return "cannot \(verb) \(counted(asked, "change")): change \(entry.number) (\(entry.commandLine))"
                + " \(redo ? "took back" : "made") several together, and \(redo ? "a redo brings" : "an undo takes") them"
                + " back together: todo \(verb) \(fits); nothing was changed"
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
