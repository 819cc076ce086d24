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
    /// Items moved from one calendar to another, as they moved from one list to another here.
    public var moved: [ToDoItem] = []
    public var conflicts: [(item: ToDoItem, conflict: SyncConflict)] = []
    public var keptAgainstDelete: [(item: ToDoItem, deletedOn: SyncSide)] = []
    /// Resources left alone on both sides, and why: text todo cannot read, or not given when asked.
    public var unreadable: [(href: String, reason: String)] = []
    /// Changes the server refused, each with its reason: the rest was sent, and the next sync
    /// tries these again. A sync with refusals did not finish (`todo sync` exits 1).
    public var refused: [(item: ToDoItem, reason: String)] = []
    /// Lists left out of this sync, and why (their calendar is gone from the server, or is still
    /// to be made): their items stay here as they are, neither sent nor removed.
    public var notSynced: [(list: String, reason: String)] = []
    /// The lists other than the default one and their calendars, as the sync left them (it may
    /// link some: `SyncState.lists`).
    public var lists: [SyncState.ListCalendar] = []
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

    public init(
        store: JSONFileStore, client: CalDAVClient, timeZone: TimeZoneRules, now: @escaping () -> Date,
        productID: String,
        tieBreaker: SyncSide, force: Bool, command: [String]
    ) {
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
        var calendar: WebAddress
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

    /// What every calendar the lists are kept in holds now: the default list's, then each other
    /// list's, each as its own `Fetched`.
    struct FetchedCalendars {
        /// `nil` for the default list.
        var parts: [(list: String?, fetched: Fetched)] = []
        /// Lists whose calendar the server says is gone (404): left out, their records with them.
        var gone: [(list: String, calendar: WebAddress, records: Set<UUID>)] = []

        var items: [SyncPlan.RemoteItem] { parts.flatMap(\.fetched.items) }
        var texts: [String: String] {
            parts.reduce(into: [:]) { texts, part in texts.merge(part.fetched.texts) { first, _ in first } }
        }
        var unreadable: [(href: String, reason: String)] { parts.flatMap(\.fetched.unreadable) }
        var outside: [String] { parts.flatMap(\.fetched.outside) }
        var respelled: [String: String] {
            parts.reduce(into: [:]) { respelled, part in respelled.merge(part.fetched.respelled) { first, _ in first } }
        }

        /// The calendar of the list `name` (`nil`: the default list), where it answered from.
        func calendar(ofList name: String?) -> WebAddress? {
            parts.first { ListName.same($0.list, name) }?.fetched.calendar
        }

        /// The calendar a resource is in, and its list: the one whose address it lies below, else
        /// the default list's.
        func part(ofHref href: String) -> (list: String?, fetched: Fetched) {
            parts.dropFirst().first { CalDAVClient.memberHref(href, of: $0.fetched.calendar) != nil } ?? parts[0]
        }

        func calendar(ofHref href: String) -> WebAddress { part(ofHref: href).fetched.calendar }
    }

    /// The plan a sync would carry out now, changing nothing; from `readState` when the caller
    /// has just read the sync state, saving a second reading. A list whose calendar is still to be
    /// found or made is planned as if that calendar were empty.
    public func plan(readState: SyncState? = nil) throws -> SyncPlan {
        guard let state = try readState ?? store.loadSyncState() else { throw SyncError.notSetUp }
        let manager = try store.load()
        let linked = try linking(state, manager: manager, making: false)
        let fetched = try fetch(linked)
        return plan(
            for: manager, state: linked, fetched: fetched, records: Self.respelling(linked.records, fetched.respelled))
    }

    /// The plan for the list in `manager` and what was fetched, against `records`. The items of a
    /// list kept local are not the calendars'; those of a list without a calendar this sync (one
    /// gone from the server, or still to be made) whose tasks are on no calendar fetched are held
    /// back, neither sent nor removed, and their records dropped. Where a task is decides its list: a record's base and an unfetched task are
    /// in the list of the calendar their href lies in (spelled as the items spell it), so that an
    /// item whose list is not its calendar's moves there.
    private func plan(
        for manager: ItemManager, state: SyncState, fetched: FetchedCalendars, records: [SyncPlan.Record]
    ) -> SyncPlan {
        var localItems = manager.toDoItems + manager.doneItems
        let local = state.lists.filter(\.isLocal)
        if !local.isEmpty { localItems.removeAll { item in local.contains { ListName.same($0.list, item.list) } } }
        // A task of a calendar gone from the server that another calendar holds now was moved
        // there before (a phone moves a list's tasks, then deletes the list): it follows.
        let onServer = Set(fetched.items.map(\.item.id))
        var goneList: [UUID: String] = [:]
        for gone in fetched.gone { for id in gone.records { goneList[id] = gone.list } }
        var heldBack: Set<UUID> = []
        localItems.removeAll { item in
            guard item.list != nil, fetched.calendar(ofList: item.list) == nil, !onServer.contains(item.id) else {
                return false
            }
            heldBack.insert(item.id)
            return true
        }
        var spelling: [String: String?] = [:]
        func listOfCalendar(_ href: String, of id: UUID? = nil) -> String? {
            guard let list = id.flatMap({ goneList[$0] }) ?? fetched.part(ofHref: href).list else { return nil }
            if let spelled = spelling[list.lowercased()] { return spelled }
            let spelled = manager.listName(asTheItemsSpell: list)
            spelling[list.lowercased()] = spelled
            return spelled
        }
        var planned: [SyncPlan.Record] = []
        for var record in records {
            // A held-back item's task is on no calendar fetched (its calendar is gone, or another
            // side moved it to one since deleted): the record goes, and the item is sent anew once
            // its list has a calendar. Kept, a record of a resource gone would stand for it once
            // the token passed its deletion (seed 400362).
            if heldBack.contains(record.id) { continue }
            if fetched.parts.count > 1 || goneList[record.id] != nil {
                record.base.list = listOfCalendar(record.href, of: record.id)
            }
            planned.append(record)
        }
        // (No task fetched is a held-back item's: held back means on no calendar fetched.)
        var remoteItems = fetched.items
        if fetched.parts.count > 1 {
            for index in remoteItems.indices { remoteItems[index].item.list = listOfCalendar(remoteItems[index].href) }
        }
        return SyncPlan.make(localItems: localItems, remoteItems: remoteItems, records: planned, tieBreaker: tieBreaker)
    }

    /// The state with a calendar for every list that has items here or was named at setup, but
    /// those kept local: one of the list's name (or the name `--map` gave it) on the account,
    /// made for tasks when there is none and `making`. Asked before the list is locked.
    func linking(_ state: SyncState, manager: ItemManager, making: Bool) throws -> SyncState {
        var state = state
        for summary in manager.lists().dropFirst() where summary.open + summary.done > 0 {
            if let name = summary.name, state.listCalendar(name) == nil {
                state.lists.append(SyncState.ListCalendar(list: name))
            }
        }
        let unlinked = state.lists.indices.filter { !state.lists[$0].isLocal && state.lists[$0].calendar == nil }
        guard !unlinked.isEmpty || state.account.allLists else { return state }
        // The calendars of the user's home: the account's, or where the default calendar lies.
        let home = state.account.home ?? state.account.calendar.deletingLastPathComponent()
        let found = try server { () throws(CalDAVError) in try client.calendars(at: home) }
        if state.account.allLists {
            // Every other calendar for tasks is a list of its name, unless a list has it already.
            let taken = Set(
                ([state.account.calendar] + state.lists.compactMap(\.calendar)).map {
                    CalDAVClient.canonicalPath(of: $0)
                })
            for calendar in found.calendars
            where calendar.holdsTasks && !taken.contains(CalDAVClient.canonicalPath(of: calendar.url)) {
                let url = CalDAVClient.asCollection(calendar.url)
                let list = Self.listName(for: calendar, in: state)
                if let index = state.lists.firstIndex(where: { ListName.same($0.list, list) }) {
                    state.lists[index].calendar = url
                } else {
                    state.lists.append(SyncState.ListCalendar(list: list, calendar: url))
                }
            }
        }
        for index in unlinked where state.lists[index].calendar == nil {
            let name = state.lists[index].wantedCalendar
            switch CalendarChoice(named: name, among: found.calendars) {
            case .found(let calendar):
                state.lists[index].calendar = CalDAVClient.asCollection(calendar.url)
            case .toMake:
                guard making else { continue }
                let made = try server { () throws(CalDAVError) in
                    try client.makeCalendar(named: name, slug: Self.slug(name), in: found.home ?? home)
                }
                state.lists[index].calendar = made.url
            case .noneHoldsTasks, .several:
                continue
            }
        }
        return state
    }

    /// The calendars of the account this machine does not sync that hold a task of this list's
    /// that left its calendars (a phone or another machine moved it to a calendar that is no
    /// list here), each as a list of the calendar's name to link; `nil` when there is none:
    /// - a task whose resource is gone while its item was changed here, which would otherwise be
    ///   sent back as new beside itself: each other calendar is asked for its UID;
    /// - the items of a calendar gone from the server, items to be sent as new that are older
    ///   than the last sync (an undo brought one back), and on the first sync after setup (`sync
    ///   forget`, then `setup`) every item here: the other calendars are read whole, once.
    /// Costs a reading of the list on a sync that changes anything; the server is asked only
    /// when such a task is found.
    func following(state: SyncState, fetched: FetchedCalendars) throws -> [SyncState.ListCalendar]? {
        let present = Set(fetched.items.map(\.item.id))
        let gone = Set(fetched.gone.flatMap(\.records))
        let vanished = state.records.filter { !present.contains($0.id) && !gone.contains($0.id) }
        let manager = try store.load()
        var sought = gone.filter { manager.item(withID: $0) != nil }
        // Items to be sent as new: on a first sync, all; later, those older than the last sync
        // (an undo brought one back, or its calendar went) that the server may hold elsewhere.
        let recorded = Set(state.records.map(\.id)), local = state.lists.filter(\.isLocal)
        let lastSync = state.lastSync ?? .infinity
        for item in manager.toDoItems + manager.doneItems
        where !present.contains(item.id) && !recorded.contains(item.id) && (item.createdAt ?? -.infinity) < lastSync
            && !local.contains(where: { ListName.same($0.list, item.list) })
        {
            sought.insert(item.id)
        }
        let edited = vanished.compactMap { record in
            manager.item(withID: record.id).flatMap { local in
                // Its list as the calendar it was in says, told apart ignoring case.
                var base = record.base
                let list = fetched.part(ofHref: record.href).list
                base.list = ListName.same(list, local.list) ? local.list : list
                return ItemField.differ(local, base) ? local.uid : nil
            }
        }
        guard !sought.isEmpty || !edited.isEmpty else { return nil }
        var followed: [SyncState.ListCalendar] = []
        for (list, url) in try otherCalendars(state) {
            let holds: Bool
            if !sought.isEmpty {
                let everything = try fetch(
                    calendar: url, SyncState.CalendarProgress(syncToken: nil, inStep: false, askAgain: []), records: [],
                    list: list)
                holds =
                    everything.items.contains { sought.contains($0.item.id) }
                    || everything.items.contains { remote in edited.contains(remote.item.uid) }
            } else {
                holds = try edited.contains { uid in
                    try server { () throws(CalDAVError) in try client.holdsTask(uid: uid, in: url) }
                }
            }
            if holds { followed.append(SyncState.ListCalendar(list: list, calendar: url)) }
        }
        return followed.nilWhenEmpty
    }

    /// The account's calendars for tasks this machine does not sync, each with the name of the
    /// list it would be here (the calendar's, as `--all-lists` names them).
    private func otherCalendars(_ state: SyncState) throws -> [(list: String, url: WebAddress)] {
        let home = state.account.home ?? state.account.calendar.deletingLastPathComponent()
        let found = try server { () throws(CalDAVError) in try client.calendars(at: home) }
        let synced = Set(
            ([state.account.calendar] + state.lists.compactMap(\.calendar)).map { CalDAVClient.canonicalPath(of: $0) })
        var others: [(list: String, url: WebAddress)] = []
        var named = state
        for calendar in found.calendars
        where calendar.holdsTasks && !synced.contains(CalDAVClient.canonicalPath(of: calendar.url)) {
            let url = CalDAVClient.asCollection(calendar.url)
            let list = Self.listName(for: calendar, in: named)
            named.lists.append(SyncState.ListCalendar(list: list, calendar: url))
            others.append((list, url))
        }
        return others
    }

    /// The list a calendar of the account is here: its name, or its address's last segment when
    /// it has none; and when that names the default list or a list kept elsewhere (another
    /// calendar's, a `--map`ped or local one; names told apart ignoring case, so `work` and
    /// `WORK`, or `Café` in two Unicode forms, are one name), that name with the segment, then a
    /// number: every calendar's tasks arrive in a list of their own.
    static func listName(for calendar: CalDAVClient.Calendar, in state: SyncState) -> String {
        let segment = CalDAVClient.asCollection(calendar.url).lastPathComponent
        let named = calendar.displayName.flatMap {
            Whitespace.trimmingSpaces($0).isEmpty ? nil : ListName.typed(Whitespace.trimmingSpaces($0))
        }
        func isFree(_ name: String?) -> Bool {
            guard let name else { return false }
            guard let entry = state.listCalendar(name) else { return true }
            return !entry.isLocal && entry.calendar == nil && entry.calendarName == nil
        }
        let first: String? = named ?? ListName.stored(segment)
        if isFree(first) { return first! }
        let base = first ?? ListName.defaultName
        var candidate = base + " (\(segment))"
        var number = 2
        while !isFree(candidate) {
            candidate = base + " (\(segment) \(number))"
            number += 1
        }
        return candidate
    }

    /// The lists of `state` that are synced but have no calendar yet.
    static func unlinked(_ state: SyncState) -> [String] {
        state.lists.filter { !$0.isLocal && $0.calendar == nil }.map(\.list)
    }

    /// A calendar's name as a path segment: letters and digits, the rest as `-`.
    public static func slug(_ name: String) -> String {
        let slug = CalDAVClient.pathSegment(name.lowercased(), replacement: "-")
        return slug.allSatisfy { $0 == "-" } ? "tasks" : slug
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
        var mayFollow = true
        while report.rounds < 3 {
            report.rounds += 1
            let read = try given ?? store.loadSyncState()
            given = nil
            guard var state = read else { throw SyncError.notSetUp }
            // A list without its calendar yet gets one, found or made, before the list is locked:
            // looked for unless the last sync left both sides in step (linking every list it had)
            // and the list is the file it left, so that a sync with nothing to do reads no list.
            // Setup records no lists: the first sync links every list that holds items.
            let linked =
                try state.inStep && !state.account.allLists && store.listDigest() == state.listDigest
                && !state.lists.contains { !$0.isLocal && $0.calendar == nil }
                ? state : try linking(state, manager: try store.load(), making: true)
            if linked.lists != state.lists {
                let lists = linked.lists
                try store.update(withSyncState: { _, current in
                    guard var updated = current else { return }
                    for list in lists {
                        if let index = updated.lists.firstIndex(where: { ListName.same($0.list, list.list) }) {
                            if updated.lists[index].calendar == nil { updated.lists[index].calendar = list.calendar }
                        } else {
                            updated.lists.append(list)
                        }
                    }
                    current = updated
                })
                state = linked
            }
            report.lists = state.lists
            let fetched = try fetch(state)
            if try hasNothingToDo(state: state, fetched: fetched) { break }
            // A task changed here that left this machine's calendars may have moved to another
            // calendar of the account: followed there (its calendar a list here), never sent
            // back as new beside itself.
            if mayFollow, !state.account.allLists, let followed = try following(state: state, fetched: fetched) {
                // Once a sync, and not counted as a round: the next fetch takes the calendars followed.
                mayFollow = false
                report.rounds -= 1
                try store.update(withSyncState: { _, current in
                    guard var updated = current else { return }
                    for list in followed
                    where !updated.lists.contains(where: { ListName.same($0.list, list.list) && $0.calendar != nil }) {
                        updated.lists.removeAll { ListName.same($0.list, list.list) }
                        updated.lists.append(list)
                    }
                    current = updated
                })
                given = nil
                continue
            }
            let (plan, applied, conflicts) = try store.update(
                command: command,
                withSyncState: {
                    manager, state throws -> (SyncPlan, SyncApplied, [(item: ToDoItem, conflict: SyncConflict)]) in
                    guard var current = state else { throw SyncError.notSetUp }
                    current.records = Self.respelling(current.records, fetched.respelled)
                    let plan = self.plan(for: manager, state: current, fetched: fetched, records: current.records)
                    let localCount = manager.toDoCount + manager.doneCount
                    current.deletions = try countDeletions(
                        plan, in: current.deletions, localCount: localCount, remoteCount: fetched.items.count)
                    let applied = manager.applySync(plan.local)
                    if !plan.local.isEmpty || !plan.remote.isEmpty || plan.records != current.records {
                        current.lastSync = now().timeIntervalSince1970.rounded(.down)
                    }
                    current.records = plan.records
                    // A calendar gone from the server: its list is unlinked, and the next sync finds or
                    // makes one for it and sends its items anew.
                    for gone in fetched.gone {
                        guard let index = current.lists.firstIndex(where: { ListName.same($0.list, gone.list) }) else {
                            continue
                        }
                        // A list with no items here goes with its calendar: nothing to make it again for.
                        if manager.lists().contains(where: {
                            ListName.same($0.name, gone.list) && $0.open + $0.done > 0
                        }) {
                            current.lists[index] = SyncState.ListCalendar(
                                list: current.lists[index].list, calendarName: current.lists[index].calendarName)
                        } else {
                            current.lists.remove(at: index)
                        }
                    }
                    // Nothing to send or ask again: the list and the calendars are in step at their tokens.
                    let inStep = plan.remote.isEmpty && fetched.unreadable.isEmpty
                    // No token when the server offers none: the next sync lists every task again. The
                    // token moves on whatever one resource did: what was left alone is asked for by href.
                    for part in fetched.parts {
                        current[progressOf: part.list] = SyncState.CalendarProgress(
                            syncToken: part.fetched.token, inStep: inStep,
                            askAgain: part.fetched.unreadable.map(\.href))
                    }
                    state = current
                    let conflicts = plan.conflicts.compactMap { conflict in
                        manager.item(withID: conflict.item).map { (item: $0, conflict: conflict.conflict) }
                    }
                    return (plan, applied, conflicts)
                })
            report.received.append(applied)
            report.notSynced =
                fetched.gone.map {
                    (
                        $0.list,
                        "its calendar \($0.calendar.absoluteString) is gone from the server;"
                            + " its items stay here, and the next sync makes the calendar again and sends them"
                    )
                }
                + Self.unlinked(state).map { ($0, "it has no calendar on the server yet") }
            report.keptAgainstDelete += plan.keptAgainstDelete
            report.unreadable += fetched.unreadable + plan.leftAlone
            report.unreadable += fetched.outside.map { ($0, "not in the calendar: todo sends nothing there") }
            report.conflicts += conflicts
            // Only the last round's refusals stand: a 5xx another round got past was a race.
            report.refused = []
            let changedMeanwhile = try push(
                plan, to: fetched, readingBack: state.account.takesRacingWrites, report: &report)
            if !changedMeanwhile { break }
        }
        return report
    }

    /// The day's deletions with the plan's, or why they are too many (unless forced): the plan
    /// on its own, or with the window's, deletes everything of a side, or more than half of a
    /// side of more than ten (the most that side held in the window). A forced sync starts the
    /// count afresh; a sync that deletes nothing leaves it as it was.
    private func countDeletions(
        _ plan: SyncPlan, in window: SyncState.DeletionWindow?, localCount: Int,
        remoteCount: Int
    ) throws -> SyncState.DeletionWindow? {
        let (local, remote) = plan.deletions
        let time = now().timeIntervalSince1970
        let open = window.flatMap { time >= $0.start && time - $0.start < SyncState.DeletionWindow.length ? $0 : nil }
        if force { return nil }
        guard local > 0 || remote > 0 else { return open }
        var counted =
            open
            ?? SyncState.DeletionWindow(start: time.rounded(.down), localCount: localCount, remoteCount: remoteCount)
        counted.localCount = max(counted.localCount, localCount)
        counted.remoteCount = max(counted.remoteCount, remoteCount)
        let tooMany =
            (local > 0 && SyncPlan.isTooMany(counted.localDeleted + local, of: counted.localCount))
            || (remote > 0 && SyncPlan.isTooMany(counted.remoteDeleted + remote, of: counted.remoteCount))
        if tooMany {
            let earlier = local > 0 ? counted.localDeleted : counted.remoteDeleted
            throw SyncError.deletesTooMuch(
                local: local, remote: remote, localCount: local > 0 ? counted.localCount : localCount,
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
    private func hasNothingToDo(state: SyncState, fetched: FetchedCalendars) throws -> Bool {
        guard fetched.items.count == state.records.count else { return false }
        var tokens = true
        for part in fetched.parts {
            let kept = state[progressOf: part.list]
            guard part.fetched.token == kept?.syncToken else { return false }
            if part.fetched.token != nil {
                // Otherwise the transaction records that both sides are in step, for the next sync.
                guard kept?.inStep == true, part.fetched.isUnchangedSinceToken else { return false }
            } else {
                tokens = false
            }
        }
        if tokens { return try store.listDigest() == state.listDigest }
        let plan = self.plan(for: try store.load(), state: state, fetched: fetched, records: state.records)
        return plan.local.isEmpty && plan.remote.isEmpty && plan.records == state.records
    }

    /// Sends the plan's changes to the server, then records what it took; `true` when a resource
    /// had changed there meanwhile (a 412, or a 5xx to a write named by its version, which servers
    /// that do not order racing writes answer), for another round. A write the server refuses is
    /// said (`SyncReport.refused`) and the rest is sent: its item's record stays as it was, so
    /// the next sync sends it again.
    /// Sends the plan's changes; with `readingBack` (a server that takes racing writes), every
    /// write is read back as one answered without an ETag is (`readBack`).
    private func push(
        _ plan: SyncPlan, to calendars: FetchedCalendars, readingBack: Bool, report: inout SyncReport
    ) throws -> Bool {
        var texts = calendars.texts
        let patched = plan.remote.compactMap { change -> String? in
            if case .put(_, let href?, _) = change, texts[href] == nil { return href }
            return nil
        }
        for resource in try fetchResources(patched, in: calendars) { texts[resource.href] = resource.text }
        var stored: [SyncPlan.Record] = [], deleted: Set<UUID> = [], changedMeanwhile = false
        /// Makes or replaces the item's resource, recording what the server took.
        func put(_ item: ToDoItem, href: String?, etag: String?, in calendar: WebAddress) throws {
            let target = href ?? Self.newHref(for: item)
            let text = CalendarResource.text(
                for: item, replacing: href.flatMap { texts[$0] }, timeZone: timeZone, now: now(), productID: productID)
            let outcome = try server { () throws(CalDAVError) in
                try client.put(text, at: target, in: calendar, replacing: href == nil ? nil : etag)
            }
            switch outcome {
            case .done(let newEtag, let path):
                report.sent.append(item)
                // A new resource is named as the server has it, after any redirect; a listed one as listed.
                stored.append(
                    SyncPlan.Record(id: item.id, href: href ?? path, etag: readingBack ? nil : newEtag, base: item))
            case .changedMeanwhile:
                changedMeanwhile = true
            case .refused(let refusal):
                if refusal.isServerError, href != nil { changedMeanwhile = true }
                report.refused.append((item, refusal.description))
            }
        }
        /// Deletes a resource; `true` when it is gone.
        func delete(_ href: String, etag: String?, of item: ToDoItem) throws -> Bool {
            let outcome = try server { () throws(CalDAVError) in
                try client.delete(href, in: calendars.calendar(ofHref: href), etag: etag)
            }
            switch outcome {
            case .done:
                return true
            case .changedMeanwhile:
                changedMeanwhile = true
            case .refused(let refusal):
                if refusal.isServerError { changedMeanwhile = true }
                report.refused.append((item, refusal.description))
            }
            return false
        }
        for (index, change) in plan.remote.enumerated() {
            progress?(index, plan.remote.count)
            switch change {
            case .put(let item, let href, let etag):
                let calendar =
                    href.map(calendars.calendar(ofHref:)) ?? calendars.calendar(ofList: item.list)
                    ?? calendars.parts[0].fetched.calendar
                try put(item, href: href, etag: etag, in: calendar)
            case .delete(let href, let etag, let item):
                if try delete(href, etag: etag, of: item) {
                    report.deletedRemotely.append(item)
                    deleted.insert(item.id)
                }
            case .move(let item, let href, let etag):
                // Out of the one calendar first, then into the other: one UID at a time on the account.
                guard try delete(href, etag: etag, of: item) else { continue }
                deleted.insert(item.id)
                try put(
                    item, href: nil, etag: nil,
                    in: calendars.calendar(ofList: item.list) ?? calendars.parts[0].fetched.calendar)
                if report.sent.last?.id == item.id { report.moved.append(report.sent.removeLast()) }
            }
        }
        progress?(plan.remote.count, plan.remote.count)
        // Items whose resource was written over (not made): looked up once, not for each record.
        let overwritten = Set(plan.remote.compactMap { if case .put(let item, _?, _) = $0 { item.id } else { nil } })
        if try !readBack(&stored, replaced: overwritten, in: calendars) {
            changedMeanwhile = true
        }
        if !stored.isEmpty || !deleted.isEmpty {
            let replaced = deleted.union(stored.map(\.id))
            // What this sync made is asked for by its href next time: it was made after the token,
            // and a server may leave out of the changes since then a task made and deleted since
            // (RFC 6578 3.5.1; Xandikos does), which would otherwise stay here for ever.
            let made = stored.filter { !overwritten.contains($0.id) }.map(\.href)
            try store.update(
                command: command,
                withSyncState: { _, state in
                    guard var current = state else { return }
                    current.records.removeAll { replaced.contains($0.id) }
                    current.records += stored
                    for href in made { current[progressOf: calendars.part(ofHref: href).list]?.askAgain.append(href) }
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
    private func readBack(
        _ stored: inout [SyncPlan.Record], replaced: Set<UUID>, in calendars: FetchedCalendars
    ) throws -> Bool {
        let unknown = stored.filter { $0.etag == nil }.map(\.href)
        guard !unknown.isEmpty else { return true }
        let found = Dictionary(
            try fetchResources(unknown, in: calendars).map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        var inStep = true
        stored = stored.compactMap { record in
            guard record.etag == nil, let resource = found[record.href] else { return record }
            let item = try? CalendarResource.item(
                of: resource.text, timeZone: timeZone, list: calendars.part(ofHref: record.href).list)?.item
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
    func fetch(_ state: SyncState) throws -> FetchedCalendars {
        // Each record is of the calendar its resource lies in; the rest of the default list's.
        let linked = state.lists.compactMap { list in list.calendar.map { (list, $0) } }
        var recordsOf = [[SyncPlan.Record]](repeating: [], count: linked.count + 1)
        for record in state.records {
            let index = linked.firstIndex { CalDAVClient.memberHref(record.href, of: $0.1) != nil }.map { $0 + 1 } ?? 0
            recordsOf[index].append(record)
        }
        var fetched = FetchedCalendars()
        fetched.parts.append(
            (nil, try fetch(calendar: state.account.calendar, state.progress, records: recordsOf[0], list: nil)))
        for (index, (list, calendar)) in linked.enumerated() {
            do {
                fetched.parts.append(
                    (
                        list.list,
                        try fetch(calendar: calendar, list.progress, records: recordsOf[index + 1], list: list.list)
                    ))
            } catch SyncError.server(.unexpectedStatus(404, _)) {
                // Deleted on the server (a phone removed the list): the other lists sync all the same.
                fetched.gone.append((list.list, calendar, Set(recordsOf[index + 1].map(\.id))))
            }
        }
        return fetched
    }

    /// What one calendar holds now, as `fetch(_:)` says, its tasks in the list `list`.
    private func fetch(
        calendar: WebAddress, _ last: SyncState.CalendarProgress, records: [SyncPlan.Record], list: String?
    ) throws -> Fetched {
        let token = last.syncToken, askAgain = last.askAgain
        var calendar = calendar
        var fetched = Fetched(calendar: calendar)
        var current: [CalDAVClient.Resource]
        var wanted: [String] = []
        var since = token
        var changes = try server { () throws(CalDAVError) in try client.changes(in: calendar, since: since) }
        if changes == nil, since != nil {
            // A token the server forgot: a report without one lists everything, with a new token.
            since = nil
            changes = try server { () throws(CalDAVError) in try client.changes(in: calendar, since: nil) }
        }
        var records = records
        if let changes {
            calendar = changes.location
            fetched.token = changes.token
            fetched.outside = changes.outside
            current = changes.changed
            // What the last sync left alone is asked for again, as if listed changed.
            let reported = Set(current.map(\.href) + changes.deleted)
            current += askAgain.filter { !reported.contains($0) }.map { CalDAVClient.Resource(href: $0, etag: nil) }
            if since != nil {
                // Only what changed is listed: the rest is as the records have it.
                fetched.isUnchangedSinceToken = changes.changed.isEmpty && changes.deleted.isEmpty
                // A deletion the server reports in another spelling is the record's.
                fetched.respelled = Self.respellings(
                    of: records, listed: changes.deleted, excluding: Set(changes.changed.map(\.href)))
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
        let byHref =
            current.isEmpty ? [:] : Dictionary(records.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
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
                leaveAlone(
                    resource.href,
                    because:
                        "\(resource.text.utf8.count >> 20) MB, more than the \(Self.largestTask >> 20) MB todo takes for one task"
                )
                continue
            }
            fetched.texts[resource.href] = resource.text
            do {
                // A resource without a task (an event of a mixed calendar) is not the list's.
                guard let item = try CalendarResource.item(of: resource.text, timeZone: timeZone, list: list)?.item
                else { continue }
                arrived.append(SyncPlan.RemoteItem(href: resource.href, etag: resource.etag, item: item))
            } catch {
                leaveAlone(resource.href, because: "not a task todo can read: \(error)")
            }
        }
        // A record whose resource the server lists under another spelling, holding its task (the
        // same UID), is that resource's: its record takes the server's spelling.
        if !arrived.isEmpty {
            let uids = Dictionary(arrived.map { ($0.href, $0.item.uid) }, uniquingKeysWith: { first, _ in first })
            let respelled = Self.respellings(
                of: records, listed: arrived.map(\.href), excluding: [],
                sameTask: { record, href in
                    uids[href] == record.base.uid
                })
            fetched.respelled.merge(respelled) { first, _ in first }
            // Carried under the record's spelling above: now the server's.
            fetched.items.removeAll { respelled[$0.href] != nil }
        }
        fetched.items += arrived
        // Gone since it was listed, the server says: so it is. Neither given nor said gone: no news.
        let answered = Set(found.map(\.href) + gone)
        for href in wanted where !answered.contains(href) {
            leaveAlone(href, because: "the server did not give it when asked")
        }
        return fetched
    }

    /// For records whose href is not among `listed` (nor `excluding`), the listed href that spells
    /// the same address another way (`CalDAVClient.looseHref`), where exactly one record and one
    /// listed href share it and `sameTask` agrees: a server that respells what it was sent, never
    /// two resources taken as one.
    static func respellings(
        of records: [SyncPlan.Record], listed: [String], excluding: Set<String>,
        sameTask: (SyncPlan.Record, String) -> Bool = { _, _ in true }
    ) -> [String: String] {
        guard !listed.isEmpty else { return [:] }
        let recorded = Set(records.map(\.href))
        var candidates: [String: [String]] = [:]
        for href in listed where !recorded.contains(href) {
            candidates[CalDAVClient.looseHref(href), default: []].append(href)
        }
        guard !candidates.isEmpty else { return [:] }
        let listedSet = Set(listed).union(excluding)
        var unmatched: [String: [SyncPlan.Record]] = [:]
        for record in records where !listedSet.contains(record.href) {
            unmatched[CalDAVClient.looseHref(record.href), default: []].append(record)
        }
        var respelled: [String: String] = [:]
        for (loose, hrefs) in candidates {
            guard hrefs.count == 1, let matching = unmatched[loose], matching.count == 1,
                sameTask(matching[0], hrefs[0])
            else { continue }
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

    private func fetchResources(
        _ hrefs: [String], from calendar: WebAddress
    ) throws -> (found: [CalDAVClient.Fetched], gone: [String]) {
        guard !hrefs.isEmpty else { return ([], []) }
        return try server { () throws(CalDAVError) in try client.fetch(hrefs, from: calendar) }
    }

    /// The resources at `hrefs`, each asked of its calendar.
    private func fetchResources(_ hrefs: [String], in calendars: FetchedCalendars) throws -> [CalDAVClient.Fetched] {
        var byCalendar: [WebAddress: [String]] = [:]
        for href in hrefs { byCalendar[calendars.calendar(ofHref: href), default: []].append(href) }
        return try byCalendar.sorted { $0.key.absoluteString < $1.key.absoluteString }.flatMap { calendar, hrefs in
            try fetchResources(hrefs, from: calendar).found
        }
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

extension Array {
    /// `nil` for an empty array.
    var nilWhenEmpty: Self? { isEmpty ? nil : self }
}
