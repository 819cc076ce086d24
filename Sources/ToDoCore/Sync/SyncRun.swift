import Foundation
import ToDoModel
import ToDoStorage

/// What one sync did, for `todo sync` to say.
public struct SyncReport: Sendable {
    /// What the list took from the calendar.
    public var received = SyncApplied()
    /// Items stored on the server.
    public var sent: [ToDoItem] = []
    /// Items deleted on the server.
    public var deletedRemotely: [ToDoItem] = []
    public var conflicts: [(item: ToDoItem, conflict: SyncConflict)] = []
    public var keptAgainstDelete: [(item: ToDoItem, deletedOn: SyncSide)] = []
    /// Resources left alone on both sides, and why: text todo cannot read, or not given when asked.
    public var unreadable: [(href: String, reason: String)] = []
    /// Changes the server refused, each with its reason: the rest was sent, and the next sync
    /// tries these again. A sync with refusals did not finish (`todo sync` exits 1).
    public var refused: [(item: ToDoItem, reason: String)] = []
    /// Items the server changed while they were being sent: merged by the next round.
    public var rounds = 0
    /// With `--dry-run`: the plan, nothing done.
    public var plan: SyncPlan?

    public init() {}
}

/// Why a sync did not happen; nothing was changed on either side.
public enum SyncError: Error, Equatable, Sendable {
    /// `todo sync setup` has not been run for this list.
    case notSetUp
    case server(CalDAVError)
    /// The plan deletes everything of a side, or more than half of a side of more than ten; or
    /// does so with the `earlier` deletions of the day's syncs (`SyncState.DeletionWindow`) counted in.
    case deletesTooMuch(local: Int, remote: Int, localCount: Int, remoteCount: Int, earlier: Int)
}

/// One two-way sync of the list with its calendar. The network is never used while the list is
/// locked: what the server holds is fetched first; then, under the lock, the list and its sync
/// state are read again, the plan made (`SyncPlan`) and applied, and both written in one
/// transaction (recorded in the history as `command`, undoable like any change); then the
/// changes are sent, each only over the version it was merged with (`If-Match`) or as a new
/// resource (`If-None-Match: *`), and what the server took is recorded in a second transaction.
/// A resource changed meanwhile (412) is fetched and merged by another round. Every step can be
/// cut short: the next sync finds what was not done and does it, with nothing doubled or lost.
public struct SyncRun {
    public let store: JSONFileStore
    public let client: CalDAVClient
    public let timeZone: TimeZoneRules
    public let now: () -> Date
    public let productID: String
    public let tieBreaker: SyncSide
    public let force: Bool
    public let command: [String]
    /// Told how many of the changes to send have been sent, and of how many, as they go.
    public var progress: ((_ sent: Int, _ total: Int) -> Void)?

    public init(store: JSONFileStore, client: CalDAVClient, timeZone: TimeZoneRules, now: @escaping () -> Date, productID: String,
                tieBreaker: SyncSide, force: Bool, command: [String]) {
        self.store = store
        self.client = client
        self.timeZone = timeZone
        self.now = now
        self.productID = productID
        self.tieBreaker = tieBreaker
        self.force = force
        self.command = command
    }

    /// What the server holds now, read without the lock.
    struct Fetched {
        /// Where the calendar answered from: its address, or where a redirect led (a moved calendar).
        var calendar: URL
        var items: [SyncPlan.RemoteItem] = []
        /// The server's text of each resource fetched, by href, for patching.
        var texts: [String: String] = [:]
        var token: String?
        /// Whether the server was asked for what changed since the state's token, and listed nothing.
        var isUnchangedSinceToken = false
        /// Resources left alone, and why: text todo cannot read, or not given when asked.
        var unreadable: [(href: String, reason: String)] = []
        /// Hrefs the server listed outside the calendar: never followed, never a reason to ask again.
        var outside: [String] = []
        /// Records whose resource the server now spells otherwise (`CalDAVClient.looseHref`): the
        /// record's href and the server's.
        var respelled: [String: String] = [:]
    }

    /// The plan a sync would carry out now, changing nothing; from `readState` when the caller
    /// has just read the sync state, saving a second reading.
    public func plan(readState: SyncState? = nil) throws -> SyncPlan {
        guard let state = try readState ?? store.loadSyncState() else { throw SyncError.notSetUp }
        let fetched = try fetch(state)
        return plan(for: try store.load(), fetched: fetched, records: Self.respelling(state.records, fetched.respelled))
    }

    /// The plan for the list in `manager` and what was fetched, against `records`.
    private func plan(for manager: ItemManager, fetched: Fetched, records: [SyncPlan.Record]) -> SyncPlan {
        let localItems = manager.toDoItems + manager.doneItems
        return SyncPlan.make(localItems: localItems, remoteItems: fetched.items, records: records, tieBreaker: tieBreaker)
    }

    /// Syncs, holding the list's sync lock (`JSONFileStore.whileSyncing`) throughout; rounds again
    /// while the server changed a resource as it was being sent (at most three).
    public func run() throws -> SyncReport {
        try store.whileSyncing { try run(readState: nil) }
    }

    /// Syncs, as `run()` does, for a caller that already holds the sync lock and read `readState`
    /// under it, saving a second reading of a file of megabytes (the transaction reads it again
    /// under the list's lock all the same). A state read before the sync lock was taken may be
    /// one another sync has since moved on from: never pass one.
    public func run(readState: SyncState?) throws -> SyncReport {
        var report = SyncReport()
        var given = readState
        for _ in 0..<3 {
            report.rounds += 1
            let read = try given ?? store.loadSyncState()
            given = nil
            guard let state = read else { throw SyncError.notSetUp }
            let fetched = try fetch(state)
            if try hasNothingToDo(state: state, fetched: fetched) { break }
            let (plan, applied, conflicts) = try store.update(command: command, withSyncState: {
                manager, state throws -> (SyncPlan, SyncApplied, [(item: ToDoItem, conflict: SyncConflict)]) in
                guard var current = state else { throw SyncError.notSetUp }
                current.records = Self.respelling(current.records, fetched.respelled)
                let plan = self.plan(for: manager, fetched: fetched, records: current.records)
                let localCount = manager.toDoCount + manager.doneCount
                current.deletions = try countDeletions(plan, in: current.deletions, localCount: localCount, remoteCount: fetched.items.count)
                let applied = manager.applySync(plan.local)
                if !plan.local.isEmpty || !plan.remote.isEmpty || plan.records != current.records {
                    current.lastSync = now().timeIntervalSince1970.rounded(.down)
                }
                current.records = plan.records
                // Nothing to send or ask again: the list and the calendar are in step at this token.
                current.inStep = plan.remote.isEmpty && fetched.unreadable.isEmpty
                // No token when the server offers none: the next sync lists every task again. The
                // token moves on whatever one resource did: what was left alone is asked for by href.
                current.syncToken = fetched.token
                current.askAgain = fetched.unreadable.map(\.href)
                state = current
                let conflicts = plan.conflicts.compactMap { conflict in
                    manager.item(withID: conflict.item).map { (item: $0, conflict: conflict.conflict) }
                }
                return (plan, applied, conflicts)
            })
            report.received.append(applied)
            report.keptAgainstDelete += plan.keptAgainstDelete
            report.unreadable += fetched.unreadable + plan.leftAlone
            report.unreadable += fetched.outside.map { ($0, "not in the calendar: todo sends nothing there") }
            report.conflicts += conflicts
            // Only the last round's refusals stand: a 5xx another round got past was a race.
            report.refused = []
            let changedMeanwhile = try push(plan, to: fetched.calendar, texts: fetched.texts, report: &report)
            if !changedMeanwhile { break }
        }
        return report
    }

    /// The day's deletions with the plan's, or why they are too many (unless forced): the plan
    /// on its own, or with the window's, deletes everything of a side, or more than half of a
    /// side of more than ten (the most that side held in the window). A forced sync starts the
    /// count afresh; a sync that deletes nothing leaves it as it was.
    private func countDeletions(_ plan: SyncPlan, in window: SyncState.DeletionWindow?, localCount: Int,
                                remoteCount: Int) throws -> SyncState.DeletionWindow? {
        let (local, remote) = plan.deletions
        let time = now().timeIntervalSince1970
        let open = window.flatMap { time >= $0.start && time - $0.start < SyncState.DeletionWindow.length ? $0 : nil }
        if force { return nil }
        guard local > 0 || remote > 0 else { return open }
        var counted = open ?? SyncState.DeletionWindow(start: time.rounded(.down), localCount: localCount, remoteCount: remoteCount)
        counted.localCount = max(counted.localCount, localCount)
        counted.remoteCount = max(counted.remoteCount, remoteCount)
        let tooMany = (local > 0 && SyncPlan.isTooMany(counted.localDeleted + local, of: counted.localCount))
            || (remote > 0 && SyncPlan.isTooMany(counted.remoteDeleted + remote, of: counted.remoteCount))
        if tooMany {
            let earlier = local > 0 ? counted.localDeleted : counted.remoteDeleted
            throw SyncError.deletesTooMuch(local: local, remote: remote, localCount: local > 0 ? counted.localCount : localCount,
                                           remoteCount: remote > 0 ? counted.remoteCount : remoteCount, earlier: earlier)
        }
        counted.localDeleted += local
        counted.remoteDeleted += remote
        return counted
    }

    /// Whether a sync would find nothing to do, and so need not write the state (a list of 10,000
    /// items has a sync state of megabytes). Known without reading the list when the last sync
    /// left both sides in step, the list's file is still the one it left, and the calendar reports
    /// no change since; from a calendar without sync tokens, by making the plan.
    private func hasNothingToDo(state: SyncState, fetched: Fetched) throws -> Bool {
        guard fetched.token == state.syncToken, fetched.items.count == state.records.count else { return false }
        if fetched.token != nil {
            // Otherwise the transaction records that both sides are in step, for the next sync.
            guard state.inStep, fetched.isUnchangedSinceToken else { return false }
            return try store.listDigest() == state.listDigest
        }
        let plan = self.plan(for: try store.load(), fetched: fetched, records: state.records)
        return plan.local.isEmpty && plan.remote.isEmpty && plan.records == state.records
    }

    /// Sends the plan's changes to the server, then records what it took; `true` when a resource
    /// had changed there meanwhile (a 412, or a 5xx to a write named by its version, which servers
    /// that do not order racing writes answer), for another round. A write the server refuses is
    /// said (`SyncReport.refused`) and the rest is sent: its item's record stays as it was, so
    /// the next sync sends it again.
    private func push(_ plan: SyncPlan, to calendar: URL, texts: [String: String], report: inout SyncReport) throws -> Bool {
        var texts = texts
        let patched = plan.remote.compactMap { change -> String? in
            if case .put(_, let href?, _) = change, texts[href] == nil { return href }
            return nil
        }
        if !patched.isEmpty {
            for resource in try fetchResources(patched, from: calendar).found { texts[resource.href] = resource.text }
        }
        var stored: [SyncPlan.Record] = [], deleted: Set<UUID> = [], changedMeanwhile = false
        for (index, change) in plan.remote.enumerated() {
            progress?(index, plan.remote.count)
            switch change {
            case .put(let item, let href, let etag):
                let target = href ?? Self.newHref(for: item)
                let text = CalendarResource.text(for: item, replacing: href.flatMap { texts[$0] }, timeZone: timeZone, now: now(), productID: productID)
                let outcome = try server { () throws(CalDAVError) in try client.put(text, at: target, in: calendar, replacing: href == nil ? nil : etag) }
                switch outcome {
                case .done(let newEtag, let path):
                    report.sent.append(item)
                    // A new resource is named as the server has it, after any redirect; a listed one as listed.
                    stored.append(SyncPlan.Record(id: item.id, href: href ?? path, etag: newEtag, base: item))
                case .changedMeanwhile:
                    changedMeanwhile = true
                case .refused(let refusal):
                    if refusal.isServerError, href != nil { changedMeanwhile = true }
                    report.refused.append((item, refusal.description))
                }
            case .delete(let href, let etag, let item):
                let outcome = try server { () throws(CalDAVError) in try client.delete(href, in: calendar, etag: etag) }
                switch outcome {
                case .done:
                    report.deletedRemotely.append(item)
                    deleted.insert(item.id)
                case .changedMeanwhile:
                    changedMeanwhile = true
                case .refused(let refusal):
                    if refusal.isServerError { changedMeanwhile = true }
                    report.refused.append((item, refusal.description))
                }
            }
        }
        progress?(plan.remote.count, plan.remote.count)
        if try !readBack(&stored, replaced: Set(plan.remote.compactMap { if case .put(let item, _?, _) = $0 { item.id } else { nil } }),
                         from: calendar) {
            changedMeanwhile = true
        }
        if !stored.isEmpty || !deleted.isEmpty {
            let replaced = deleted.union(stored.map(\.id))
            try store.update(command: command, withSyncState: { _, state in
                guard var current = state else { return }
                current.records.removeAll { replaced.contains($0.id) }
                current.records += stored
                state = current
            })
        }
        return changedMeanwhile
    }

    /// Reads back what was stored without an ETag in answer (a server that rewrote it may give
    /// none, RFC 4791 5.3.4; so do DAViCal and SOGo, which also take two writes of one version at
    /// once): a resource holding what was sent is recorded with the etag it has now; one that
    /// replaced a version (`replaced`, by item) and holds something else was written over by
    /// another client at the same moment, and keeps its old record, so that another round merges
    /// the two. `false` when one was.
    private func readBack(_ stored: inout [SyncPlan.Record], replaced: Set<UUID>, from calendar: URL) throws -> Bool {
        let unknown = stored.filter { $0.etag == nil }.map(\.href)
        guard !unknown.isEmpty else { return true }
        let found = Dictionary(try fetchResources(unknown, from: calendar).found.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        var inStep = true
        stored = stored.compactMap { record in
            guard record.etag == nil, let resource = found[record.href] else { return record }
            let item = try? CalendarResource.item(of: resource.text, timeZone: timeZone)?.item
            if let item, !ItemField.differ(item, record.base) {
                var read = record
                read.etag = resource.etag
                return read
            }
            guard replaced.contains(record.id) else { return record }
            inStep = false
            return nil
        }
        return inStep
    }

    /// What the server holds now: with a sync token, what changed since (fetched) and the rest as
    /// the records have it; without one, or when the server forgot it, everything with a new
    /// token; from a server without the sync report, every task. A resource is fetched only where
    /// its etag is not the record's.
    func fetch(_ state: SyncState) throws -> Fetched {
        var calendar = state.account.calendar
        var fetched = Fetched(calendar: calendar)
        var current: [CalDAVClient.Resource]
        var wanted: [String] = []
        var since = state.syncToken
        var changes = try server { () throws(CalDAVError) in try client.changes(in: calendar, since: since) }
        if changes == nil, since != nil {
            // A token the server forgot: a report without one lists everything, with a new token.
            since = nil
            changes = try server { () throws(CalDAVError) in try client.changes(in: calendar, since: nil) }
        }
        var records = state.records
        if let changes {
            calendar = changes.location
            fetched.token = changes.token
            fetched.outside = changes.outside
            current = changes.changed
            // What the last sync left alone is asked for again, as if listed changed.
            let reported = Set(current.map(\.href) + changes.deleted)
            current += state.askAgain.filter { !reported.contains($0) }.map { CalDAVClient.Resource(href: $0, etag: nil) }
            if since != nil {
                // Only what changed is listed: the rest is as the records have it.
                fetched.isUnchangedSinceToken = changes.changed.isEmpty && changes.deleted.isEmpty
                // A deletion the server reports in another spelling is the record's.
                fetched.respelled = Self.respellings(of: records, listed: changes.deleted, excluding: Set(changes.changed.map(\.href)))
                records = Self.respelling(records, fetched.respelled)
                let listed = Set(current.map { $0.href } + changes.deleted)
                for record in records where !listed.contains(record.href) {
                    if let etag = record.etag {
                        fetched.items.append(SyncPlan.RemoteItem(href: record.href, etag: etag, item: record.base))
                    } else {
                        wanted.append(record.href)
                    }
                }
            }
        } else {
            let listing = try server { () throws(CalDAVError) in try client.tasks(in: calendar) }
            calendar = listing.location
            current = listing.resources
            fetched.outside = listing.outside
        }
        // A resource whose etag is its record's is as the record's base has it.
        let byHref = current.isEmpty ? [:] : Dictionary(records.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        for resource in current {
            if let record = byHref[resource.href], let etag = resource.etag, record.etag == etag {
                fetched.items.append(SyncPlan.RemoteItem(href: resource.href, etag: etag, item: record.base))
            } else {
                wanted.append(resource.href)
            }
        }
        /// No news of the item at `href`: it stays as the last sync left it (never deleted here
        /// for it), with the etag it had, and the next sync asks for it again.
        func leaveAlone(_ href: String, because reason: String) {
            fetched.unreadable.append((href, reason))
            if let record = byHref[href] ?? records.first(where: { $0.href == href }) {
                fetched.items.append(SyncPlan.RemoteItem(href: record.href, etag: record.etag, item: record.base))
            }
        }
        fetched.calendar = calendar
        let (found, gone) = try fetchResources(wanted, from: calendar)
        var arrived: [SyncPlan.RemoteItem] = []
        for resource in found {
            guard resource.text.utf8.count <= Self.largestTask else {
                leaveAlone(resource.href, because: "\(resource.text.utf8.count >> 20) MB, more than the \(Self.largestTask >> 20) MB todo takes for one task")
                continue
            }
            fetched.texts[resource.href] = resource.text
            do {
                // A resource without a task (an event of a mixed calendar) is not the list's.
                guard let item = try CalendarResource.item(of: resource.text, timeZone: timeZone)?.item else { continue }
                arrived.append(SyncPlan.RemoteItem(href: resource.href, etag: resource.etag, item: item))
            } catch {
                leaveAlone(resource.href, because: "not a task todo can read: \(error)")
            }
        }
        // A record whose resource the server lists under another spelling, holding its task (the
        // same UID), is that resource's: its record takes the server's spelling.
        if !arrived.isEmpty {
            let uids = Dictionary(arrived.map { ($0.href, $0.item.uid) }, uniquingKeysWith: { first, _ in first })
            let respelled = Self.respellings(of: records, listed: arrived.map(\.href), excluding: [], sameTask: { record, href in
                uids[href] == record.base.uid
            })
            fetched.respelled.merge(respelled) { first, _ in first }
            // Carried under the record's spelling above: now the server's.
            fetched.items.removeAll { respelled[$0.href] != nil }
        }
        fetched.items += arrived
        // Gone since it was listed, the server says: so it is. Neither given nor said gone: no news.
        let answered = Set(found.map(\.href) + gone)
        for href in wanted where !answered.contains(href) { leaveAlone(href, because: "the server did not give it when asked") }
        return fetched
    }

    /// For records whose href is not among `listed` (nor `excluding`), the listed href that spells
    /// the same address another way (`CalDAVClient.looseHref`), where exactly one record and one
    /// listed href share it and `sameTask` agrees: a server that respells what it was sent, never
    /// two resources taken as one.
    static func respellings(of records: [SyncPlan.Record], listed: [String], excluding: Set<String>,
                            sameTask: (SyncPlan.Record, String) -> Bool = { _, _ in true }) -> [String: String] {
        guard !listed.isEmpty else { return [:] }
        let recorded = Set(records.map(\.href))
        var candidates: [String: [String]] = [:]
        for href in listed where !recorded.contains(href) { candidates[CalDAVClient.looseHref(href), default: []].append(href) }
        guard !candidates.isEmpty else { return [:] }
        let listedSet = Set(listed).union(excluding)
        var unmatched: [String: [SyncPlan.Record]] = [:]
        for record in records where !listedSet.contains(record.href) {
            unmatched[CalDAVClient.looseHref(record.href), default: []].append(record)
        }
        var respelled: [String: String] = [:]
        for (loose, hrefs) in candidates {
            guard hrefs.count == 1, let matching = unmatched[loose], matching.count == 1, sameTask(matching[0], hrefs[0]) else { continue }
            respelled[matching[0].href] = hrefs[0]
        }
        return respelled
    }

    /// `records` with the hrefs `respelled` names replaced.
    static func respelling(_ records: [SyncPlan.Record], _ respelled: [String: String]) -> [SyncPlan.Record] {
        guard !respelled.isEmpty else { return records }
        return records.map { record in
            var record = record
            if let href = respelled[record.href] { record.href = href }
            return record
        }
    }

    private func fetchResources(_ hrefs: [String], from calendar: URL) throws -> (found: [CalDAVClient.Fetched], gone: [String]) {
        guard !hrefs.isEmpty else { return ([], []) }
        return try server { () throws(CalDAVError) in try client.fetch(hrefs, from: calendar) }
    }

    /// The server's answer, or its failure as a `SyncError`.
    private func server<Value>(_ body: () throws(CalDAVError) -> Value) throws(SyncError) -> Value {
        do { return try body() } catch { throw .server(error) }
    }

    /// The largest task a sync takes, in bytes of its resource: room for attachments a calendar
    /// carries inline, while a calendar of such tasks is still refused whole by the list's own
    /// limit (`JSONFileStore.sizeLimit`) rather than written past it. A larger one is left alone, said.
    public static let largestTask = 8 << 20

    /// Where a new item goes: its UID as a file name, every character but letters, digits, `-`,
    /// `_`, `.` and `@` replaced, as servers and clients name resources.
    static func newHref(for item: ToDoItem) -> String {
        CalDAVClient.pathSegment(item.uid, keeping: "-_.@", replacement: "_") + ".ics"
    }
}
