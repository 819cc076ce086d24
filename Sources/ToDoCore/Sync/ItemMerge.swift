import ToDoModel
import ToDoStorage

/// A side of a sync: this list, or the calendar on the server.
public enum SyncSide: String, Sendable {
    case local, remote
}

/// A field both sides changed to different values: the value kept is the winner's; the loser's
/// is in `lost` (the losing side's item), to be said, and brought back by `todo undo`.
public struct SyncConflict: Equatable, Sendable {
    public var field: ItemField
    public var winner: SyncSide
    public var lost: ToDoItem
    /// Whether the winner is the side `--prefer` names, since which change came later could not
    /// be told (a time missing, the same on both sides, or the calendar's not moved past the
    /// version both agreed on, as python-caldav leaves it), rather than the later change.
    public var byPreference: Bool

    public init(field: ItemField, winner: SyncSide, lost: ToDoItem, byPreference: Bool = false) {
        self.field = field
        self.winner = winner
        self.lost = lost
        self.byPreference = byPreference
    }
}

/// What merging an item's two versions gave.
public struct MergedItem: Equatable, Sendable {
    /// The item as both sides are to have it, with this list's number, its members only this
    /// list has, and the calendar's properties todo has no field for.
    public var item: ToDoItem
    public var conflicts: [SyncConflict]
    /// Whether this list's version changes (a field taken from the calendar).
    public var changesLocal: Bool
    /// Whether the calendar's version changes (a field taken from this list): it is sent.
    public var changesRemote: Bool
}

public enum ItemMerge {
    /// Merges `local` and `remote`, two versions of one item, field by field against `base`,
    /// the version both sides last agreed on: a field one side changed takes that side's value;
    /// a field both changed to different values is a conflict, which the later change wins (this
    /// list's `modifiedAt` against the calendar's `LAST-MODIFIED`), and `tieBreaker` when that
    /// cannot be told: no time on one side, the same, or a calendar's time that did not move past
    /// the base's though its fields changed (an app that never stamps its changes). Without a base
    /// (a first sync pairing two items), every field that differs is such a conflict.
    public static func merge(base: ToDoItem?, local: ToDoItem, remote: ToDoItem, tieBreaker: SyncSide) -> MergedItem {
        let later: SyncSide
        var byPreference = false
        if let localTime = local.modifiedAt, let remoteTime = remote.modifiedAt, localTime != remoteTime,
            base?.modifiedAt.map({ remoteTime > $0 }) ?? true
        {
            later = localTime > remoteTime ? .local : .remote
        } else {
            later = tieBreaker
            byPreference = true
        }
        var merged = local
        var conflicts: [SyncConflict] = []
        var changesRemote = false, tookFromRemote = false
        for field in ItemField.allCases where !field.isSame(in: local, as: remote) {
            let localChanged = base.map { !field.isSame(in: local, as: $0) } ?? true
            let remoteChanged = base.map { !field.isSame(in: remote, as: $0) } ?? true
            let winner: SyncSide
            switch (localChanged, remoteChanged) {
            case (true, false): winner = .local
            case (false, true): winner = .remote
            default:
                winner = later
                conflicts.append(
                    SyncConflict(
                        field: field, winner: winner, lost: winner == .local ? remote : local,
                        byPreference: byPreference))
            }
            if winner == .remote {
                merged = field.taking(from: remote, into: merged)
                tookFromRemote = true
            } else {
                changesRemote = true
            }
        }
        // The calendar's own properties are the server's, and so is the UID of its resource; the
        // later change's time is the item's.
        merged.fields.icalendarLines = remote.icalendarLines
        merged.fields.originalUID = remote.uid == merged.id.uuidString ? nil : remote.uid
        if merged.createdAt == nil { merged.fields.createdAt = remote.createdAt }
        if let remoteTime = remote.modifiedAt, tookFromRemote, remoteTime > (merged.modifiedAt ?? -.infinity) {
            merged.fields.modifiedAt = remoteTime
        }
        // Properties the calendar alone changed (a server or an app adding its own) are no change
        // to this list: they are taken when the item is written for another reason.
        var fieldsBesideLines = merged.fields
        fieldsBesideLines.icalendarLines = local.fields.icalendarLines
        let changesLocal =
            merged.done != local.done || fieldsBesideLines != local.fields
            || !ItemField.place.isSame(in: merged, as: local)
        return MergedItem(item: merged, conflicts: conflicts, changesLocal: changesLocal, changesRemote: changesRemote)
    }
}
