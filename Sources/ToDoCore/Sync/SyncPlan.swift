import ToDoModel
import ToDoStorage

/// What one sync is to do, worked out from the list, the calendar, and what both last agreed on,
/// before anything is changed on either side. Pure: the network has been asked already, and
/// nothing is written here; `todo sync` applies the plan to the list in one transaction and then
/// sends its changes to the server.
public struct SyncPlan: Equatable, Sendable {
    /// What the last sync left agreed for an item: where it is on the server, its version there,
    /// and the item as both sides had it then (the base of the next merge).
    public struct Record: Equatable, Sendable {
        public var id: UUID
        public var href: String
        public var etag: String?
        public var base: ToDoItem

        public init(id: UUID, href: String, etag: String?, base: ToDoItem) {
            self.id = id
            self.href = href
            self.etag = etag
            self.base = base
        }
    }

    /// A task on the server as it is now.
    public struct RemoteItem: Equatable, Sendable {
        public var href: String
        public var etag: String?
        public var item: ToDoItem

        public init(href: String, etag: String?, item: ToDoItem) {
            self.href = href
            self.etag = etag
            self.item = item
        }
    }

    /// A change to the list.
    public enum LocalChange: Equatable, Sendable {
        /// An item that arrived: it takes the next number here.
        case add(ToDoItem)
        case update(ToDoItem)
        case remove(ToDoItem)
    }

    /// A change to the calendar.
    public enum RemoteChange: Equatable, Sendable {
        /// The item stored at `href`: a new resource when `etag` is `nil` (`If-None-Match: *`),
        /// else over that version only (`If-Match`).
        case put(ToDoItem, href: String?, etag: String?)
        case delete(href: String, etag: String?, item: ToDoItem)
        /// The item moved to another list, and so to its calendar: deleted at `href` (its version
        /// `etag` only), then made anew in the calendar of its list, the same UID. In that order:
        /// a server may hold one resource of a UID per account (Cyrus). Its record stays where it
        /// was until the delete is done (a delete refused or cut short leaves the task there, and
        /// the next sync moves it again); once deleted, it is recorded only when made, so that a
        /// sync cut short between the two sends it as new.
        case move(ToDoItem, from: String, etag: String?)
    }

    public var local: [LocalChange] = []
    public var remote: [RemoteChange] = []
    /// What both sides agree on once the list has its changes, before any is sent: for each item
    /// on the server, its version there as the base of the next merge. An item still to be sent
    /// keeps the server's version as its base, so that a sync cut short sends it next time; one
    /// to be created there has none yet.
    public var records: [Record] = []
    public var conflicts: [(item: UUID, conflict: SyncConflict)] = []
    /// Edits that beat a delete on the other side, said as such.
    public var keptAgainstDelete: [(item: ToDoItem, deletedOn: SyncSide)] = []
    /// Resources of the calendar the list does not take, and why: a second resource holding the
    /// UID of another (a calendar may hold two). Neither received nor recorded, so never deleted
    /// for it; said each time it is listed.
    public var leftAlone: [(href: String, reason: String)] = []

    public static func == (lhs: SyncPlan, rhs: SyncPlan) -> Bool {
        lhs.local == rhs.local && lhs.remote == rhs.remote && lhs.records == rhs.records
            && lhs.conflicts.map(\.item) == rhs.conflicts.map(\.item)
            && lhs.conflicts.map(\.conflict) == rhs.conflicts.map(\.conflict)
            && lhs.keptAgainstDelete.map(\.item) == rhs.keptAgainstDelete.map(\.item)
            && lhs.keptAgainstDelete.map(\.deletedOn) == rhs.keptAgainstDelete.map(\.deletedOn)
    }

    /// How many items of each side the plan deletes.
    public var deletions: (local: Int, remote: Int) {
        (
            local.filter { if case .remove = $0 { true } else { false } }.count,
            remote.filter { if case .delete = $0 { true } else { false } }.count
        )
        // A move deletes nothing: the item is made anew in its other calendar.
    }

    /// Whether the plan deletes everything a side has, or more than half of a side holding more
    /// than ten: what a sync against the wrong calendar, or an emptied one, looks like. Refused
    /// unless forced.
    public func deletesTooMuch(localCount: Int, remoteCount: Int) -> Bool {
        Self.isTooMany(deletions.local, of: localCount) || Self.isTooMany(deletions.remote, of: remoteCount)
    }

    /// Whether deleting `deleted` of `count` items is everything, or more than half of more than ten.
    public static func isTooMany(_ deleted: Int, of count: Int) -> Bool {
        deleted > 0 && (deleted >= count || (count > 10 && deleted * 2 > count))
    }

    /// The plan for `localItems` (the list's open and done items), `remoteItems` (every task on
    /// the server now; those whose etag is the record's may be given as their record's base,
    /// unfetched), and `records` (the last sync's). An item is matched across the sides by its
    /// record; one without a record by its id (the UID), then, if open, by the same content as an
    /// open item there (a first sync of two lists that hold the same items doubles nothing).
    /// A field changed on one side goes to the other; changed on both, the later change wins
    /// (`ItemMerge`). An item deleted on one side is deleted on the other, unless it was edited
    /// there since: an edit beats a delete.
    public static func make(
        localItems: [ToDoItem], remoteItems: [RemoteItem], records: [Record], tieBreaker: SyncSide
    ) -> SyncPlan {
        var plan = SyncPlan()
        var localByID = Dictionary(localItems.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var remoteByHref = Dictionary(remoteItems.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })

        // A task whose resource is gone from where the record has it, found under another href
        // with its UID: moved there (from one calendar to another, by a phone). Taken as the
        // record's, never as an item of its own.
        let recordedHrefs = Set(records.map(\.href))
        var unrecordedByID: [UUID: [String]] = [:]
        for remote in remoteItems where !recordedHrefs.contains(remote.href) {
            unrecordedByID[remote.item.id, default: []].append(remote.href)
        }
        func moved(_ id: UUID) -> RemoteItem? {
            guard let hrefs = unrecordedByID[id] else { return nil }
            for href in hrefs { if let found = remoteByHref.removeValue(forKey: href) { return found } }
            return nil
        }

        var recordedIDs: [UUID: String] = [:]
        for record in records {
            var remote = remoteByHref.removeValue(forKey: record.href)
            // A second record of one item (an earlier todo recorded two resources of one UID):
            // its resource is left alone, never deleted for it.
            if let first = recordedIDs[record.id] {
                if let remote { plan.leftAlone.append((remote.href, Self.sameUID(as: first))) }
                continue
            }
            recordedIDs[record.id] = record.href
            if remote == nil { remote = moved(record.id) }
            let local = localByID.removeValue(forKey: record.id)
            switch (local, remote) {
            case let (local?, remote?):
                let merged = ItemMerge.merge(
                    base: record.base, local: local, remote: remote.item, tieBreaker: tieBreaker)
                plan.take(merged, remote: remote)
            case let (local?, nil):
                if ItemField.differ(local, record.base) {
                    // Edited here, deleted there: the edit wins, and goes back as a new resource.
                    plan.keptAgainstDelete.append((local, .remote))
                    plan.remote.append(.put(local, href: nil, etag: nil))
                } else {
                    plan.local.append(.remove(local))
                }
            case let (nil, remote?):
                if remote.etag != record.etag || ItemField.differ(remote.item, record.base) {
                    plan.keptAgainstDelete.append((remote.item, .local))
                    plan.local.append(.add(remote.item))
                    plan.records.append(
                        Record(id: remote.item.id, href: remote.href, etag: remote.etag, base: remote.item))
                } else {
                    // Kept until the server has deleted it: a sync cut short deletes it next time.
                    plan.remote.append(.delete(href: remote.href, etag: remote.etag, item: remote.item))
                    plan.records.append(record)
                }
            case (nil, nil):
                break
            }
        }

        // Items neither side had at the last sync: paired by id, then open ones by content, each
        // the first of the calendar's in order; looked up by id and by title, so that a first sync
        // of two lists of thousands compares each item with its candidates only.
        let unpairedRemote = remoteItems.filter { remoteByHref[$0.href] != nil }
        var taken = [Bool](repeating: false, count: unpairedRemote.count)
        var remoteByID: [UUID: [Int]] = [:], openRemoteByTitle: [String: [Int]] = [:]
        for (index, remote) in unpairedRemote.enumerated() {
            remoteByID[remote.item.id, default: []].append(index)
            if !remote.item.done { openRemoteByTitle[remote.item.title, default: []].append(index) }
        }
        // Every pair by id first: a task whose UID is an item's here is that item's, never
        // another's twin by content (seed 300289: an item whose task was gone took its twin's
        // resource by content, and two items then held one UID).
        let unrecorded = localItems.filter { localByID[$0.id] != nil }
        var pairedByID = [Int?](repeating: nil, count: unrecorded.count)
        for (position, local) in unrecorded.enumerated() {
            guard let index = remoteByID[local.id]?.first(where: { !taken[$0] }) else { continue }
            taken[index] = true
            pairedByID[position] = index
        }
        let localIDs = Set(unrecorded.map(\.id))
        for (position, local) in unrecorded.enumerated() {
            let index =
                pairedByID[position]
                ?? (local.done
                    ? nil
                    : openRemoteByTitle[local.title]?.first { index in
                        !taken[index] && !localIDs.contains(unpairedRemote[index].item.id)
                            && unpairedRemote[index].item.hasSameContent(as: local)
                    })
            if let index {
                taken[index] = true
                let remote = unpairedRemote[index]
                // Paired by content, the item keeps this list's id; the calendar keeps its UID.
                var paired = ToDoItem(
                    id: local.id, number: local.number, done: remote.item.done, fields: remote.item.fields)
                if paired.uid != remote.item.uid { paired.fields.originalUID = remote.item.uid }
                plan.take(
                    ItemMerge.merge(base: nil, local: local, remote: paired, tieBreaker: tieBreaker),
                    remote: RemoteItem(href: remote.href, etag: remote.etag, item: paired))
            } else {
                plan.remote.append(.put(local, href: nil, etag: nil))
            }
        }
        // Where the list's items are on the calendar, by id: a resource arriving with one of
        // them (two resources of one UID) is left alone.
        var placed = recordedIDs
        for record in plan.records { placed[record.id] = placed[record.id] ?? record.href }
        for local in localItems where placed[local.id] == nil { placed[local.id] = "" }
        for (index, remote) in unpairedRemote.enumerated() where !taken[index] {
            if let other = placed[remote.item.id] {
                plan.leftAlone.append(
                    (remote.href, other.isEmpty ? "an item of the list has its UID" : Self.sameUID(as: other)))
                continue
            }
            placed[remote.item.id] = remote.href
            plan.local.append(.add(remote.item))
            plan.records.append(Record(id: remote.item.id, href: remote.href, etag: remote.etag, base: remote.item))
        }
        return plan
    }

    private static func sameUID(as href: String) -> String {
        "the task at \(href) has its UID, and the list takes one task of a UID; left as it is on the server"
    }

    private mutating func take(_ merged: MergedItem, remote item: RemoteItem) {
        if merged.changesLocal { local.append(.update(merged.item)) }
        conflicts += merged.conflicts.map { (merged.item.id, $0) }
        // In another list than the calendar it is in: it moves there, and is recorded once made.
        guard ListName.same(merged.item.list, item.item.list) else {
            remote.append(.move(merged.item, from: item.href, etag: item.etag))
            records.append(Record(id: merged.item.id, href: item.href, etag: item.etag, base: item.item))
            return
        }
        if merged.changesRemote { remote.append(.put(merged.item, href: item.href, etag: item.etag)) }
        records.append(Record(id: merged.item.id, href: item.href, etag: item.etag, base: item.item))
    }
}
