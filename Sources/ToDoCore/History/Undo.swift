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
    /// An item a sync brought in and the undo takes out loses its sync record in the same
    /// transaction: the next sync receives it again, never deletes it on the server, since it is
    /// another side's (issue 49). What a sync changed or removed comes back here as it was, and the
    /// next sync sends it, as for any edit.
    public func undo(_ selection: UndoSelection, command: [String]) throws -> (taken: [HistoryEntry], from: ChangeHistory) {
        try update(command: command, alwaysLocks: false, withSyncStateAndHistory: { manager, state, history in
            let history = try history()
            let targets: [HistoryEntry]
            switch selection {
            case .latest(let count): targets = try history.undoTargets(count)
            case .latestUndos(let count): targets = try history.redoTargets(count)
            case .change(let number): targets = [try history.target(number)]
            }
            for target in targets { try manager.revert(target, in: history) }
            let received = Set(targets.filter { $0.kind == .change && $0.command.first == "sync" }.flatMap { entry in
                entry.steps.compactMap { step -> UUID? in if case .inserted(let id, _) = step { id } else { nil } }
            })
            if !received.isEmpty, var current = state {
                let takenOut = received.subtracting(manager.items(withIDs: received).keys)
                // Asked for by href: the server lists only what changed since its token.
                for record in current.records where takenOut.contains(record.id) {
                    if let index = current.lists.firstIndex(where: { $0.calendar.map { CalDAVClient.memberHref(record.href, of: $0) != nil } ?? false }) {
                        current.lists[index].askAgain.append(record.href)
                    } else {
                        current.askAgain.append(record.href)
                    }
                }
                current.records.removeAll { takenOut.contains($0.id) }
                // The calendars are no longer in step with the list: the next sync asks.
                current.inStep = false
                for index in current.lists.indices { current.lists[index].inStep = false }
                state = current
            }
            let kind: HistoryEntry.Kind = targets.allSatisfy { $0.kind == .undo } ? .redo : .undo
            return ((targets, history), (kind, targets.map(\.number)))
        })
    }
}
