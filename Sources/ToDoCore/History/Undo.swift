import ToDoModel
import ToDoStorage

/// Which changes an undo or redo takes back, as `todo undo` and `todo redo` choose them.
public enum UndoSelection: Equatable, Sendable {
    /// The latest changes in effect, undos apart, that make `count` changes (`todo undo N`), or,
    /// for `nil`, the latest one (`todo undo`).
    case latest(Int?)
    /// The latest undos in effect that took back `count` changes between them (`todo redo N`),
    /// or, for `nil`, the latest undo, whatever it took back (`todo redo`).
    case latestUndos(Int?)
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
    /// An undo of a sync takes it back here only, never on the server (`SyncState.takeBack`):
    /// the sync state is read and changed with the list then, and only then.
    public func undo(
        _ selection: UndoSelection, command: [String]
    ) throws -> (taken: [HistoryEntry], from: ChangeHistory) {
        let takesBackASync = (try? Self.targets(selection, in: history()))?.contains(where: Self.isSync) ?? false
        if !takesBackASync {
            do {
                return try update(command: command) { manager, history in
                    let history = try history()
                    let targets = try Self.targets(selection, in: history)
                    // Another process synced since the history was looked at: again, with the state.
                    if targets.contains(where: Self.isSync) { throw SyncTakenBack() }
                    return try Self.revert(targets, in: &manager, history)
                }
            } catch is SyncTakenBack {}
        }
        return try update(
            command: command, alwaysLocks: false,
            withSyncStateAndHistory: { manager, state, history in
                let history = try history()
                let targets = try Self.targets(selection, in: history)
                let result = try Self.revert(targets, in: &manager, history)
                let syncs = targets.filter(Self.isSync)
                if !syncs.isEmpty, var current = state {
                    current.takeBack(syncs, in: manager)
                    state = current
                }
                return result
            })
    }

    private struct SyncTakenBack: Error {}

    private static func isSync(_ entry: HistoryEntry) -> Bool {
        entry.kind == .change && entry.command.first == "sync"
    }

    private static func targets(_ selection: UndoSelection, in history: ChangeHistory) throws -> [HistoryEntry] {
        switch selection {
        case .latest(let count): return try history.undoTargets(count)
        case .latestUndos(let count): return try history.redoTargets(count)
        case .change(let number): return [try history.target(number)]
        }
    }

    private static func revert(
        _ targets: [HistoryEntry], in manager: inout ItemManager,
        _ history: ChangeHistory
    ) throws -> ((taken: [HistoryEntry], from: ChangeHistory), (HistoryEntry.Kind, [Int])?) {
        for target in targets { try manager.revert(target, in: history) }
        let kind: HistoryEntry.Kind = targets.allSatisfy { $0.kind == .undo } ? .redo : .undo
        return ((targets, history), (kind, targets.map(\.number)))
    }
}

extension SyncState {
    /// The state after an undo took back `syncs` (history entries of `todo sync`) in `manager`:
    /// what a sync received and the undo took out loses its record and is asked for again, so the
    /// next sync receives it again (it is another side's: never deleted on the server for an
    /// undo); what a sync removed (deleted on the server) and the undo brought back is recorded
    /// at its old place, so the next sync finds it gone and removes it again, unless it was
    /// changed here since (an edit beats a delete). What a sync changed comes back here as it
    /// was, and the next sync sends it, as for any edit: how `todo undo` brings back a value a
    /// conflict lost.
    mutating func takeBack(_ syncs: [HistoryEntry], in manager: ItemManager) {
        var received: Set<UUID> = [], removed: [ToDoItem] = []
        for entry in syncs {
            for step in entry.steps {
                switch step {
                case .inserted(let id, _): received.insert(id)
                case .removed(let item, _): removed.append(item)
                case .replaced: break
                }
            }
        }
        let present = manager.items(withIDs: received.union(removed.map(\.id)))
        let takenOut = received.filter { present[$0] == nil }
        for record in records where takenOut.contains(record.id) { askAgain(record.href) }
        records.removeAll { takenOut.contains($0.id) }
        let recorded = Set(records.map(\.id))
        for item in removed where !recorded.contains(item.id) {
            guard let back = present[item.id],
                let calendar = item.list.map({ listCalendar($0)?.calendar }) ?? account.calendar
            else { continue }
            records.append(
                SyncPlan.Record(
                    id: back.id,
                    href: CalDAVClient.memberHref(SyncRun.newHref(for: back), of: calendar)
                        ?? SyncRun.newHref(for: back),
                    etag: nil, base: back))
        }
        // The calendars are no longer in step with the list: the next sync asks.
        inStep = false
        for index in lists.indices { lists[index].inStep = false }
    }

    /// Asks the calendar `href` lies in for it at the next sync.
    private mutating func askAgain(_ href: String) {
        if let index = lists.firstIndex(where: {
            $0.calendar.map { CalDAVClient.memberHref(href, of: $0) != nil } ?? false
        }) {
            lists[index].askAgain.append(href)
        } else {
            askAgain.append(href)
        }
    }
}
