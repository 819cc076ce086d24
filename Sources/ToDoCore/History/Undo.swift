import ToDoModel
import ToDoStorage

/// Which changes an undo or redo takes back, as `todo undo` and `todo redo` choose them.
public enum UndoSelection: Equatable, Sendable {
    /// The latest `count` changes in effect, undos apart (`todo undo N`).
    case latest(Int)
    /// The latest `count` undos in effect (`todo redo N`).
    case latestUndos(Int)
    /// One change in effect, undos included (`todo undo --change N`).
    case change(Int)
}

/// Undo and redo, made of the store's transaction, the history's choice of changes and the
/// manager's revert: the store itself knows only that a change may record what it took back.
extension JSONFileStore {
    /// Takes back the changes `selection` picks, newest first, as one transaction recorded in the
    /// history as made by `command`, and returns them with the history they were found in.
    /// Refused with `UndoError`, changing nothing, when there are not as many, or when a later
    /// change depends on one.
    public func undo(_ selection: UndoSelection, command: [String]) throws -> (taken: [HistoryEntry], from: ChangeHistory) {
        try update(command: command) { manager, history in
            let history = try history()
            let targets: [HistoryEntry]
            switch selection {
            case .latest(let count): targets = try history.undoTargets(count)
            case .latestUndos(let count): targets = try history.redoTargets(count)
            case .change(let number): targets = [try history.target(number)]
            }
            for target in targets { try manager.revert(target, in: history) }
            let kind: HistoryEntry.Kind = targets.allSatisfy { $0.kind == .undo } ? .redo : .undo
            return ((targets, history), (kind, targets.map(\.number)))
        }
    }
}
