import ToDoModel
import ToDoStorage

/// Keeps an `ItemManager` in a JSON file (see `StoreDocument` for the format). Reading takes no
/// lock, since the file is only ever replaced whole; every change is one transaction under an
/// exclusive lock: read the current file, apply the change, write it atomically and durably.
public struct JSONFileStore: Sendable {
    /// The data file's path, as given (it may be a symbolic link; the file it points to is changed).
    public let path: String
    /// How many seconds a change waits for another process's transaction before giving up.
    public let lockTimeout: Double
    /// The clock that stamps created and completed times on items; `nil` records none.
    private let now: (@Sendable () -> Date)?
    /// Where a list of the first form is read: its whole days in seconds become the days they
    /// show in this zone (`ItemForm`).
    public let timeZone: TimeZoneRules
    /// Where the lists it reads take the ids of items they make (`ItemManager.newID`).
    private let newID: (@Sendable () -> UUID)?
    /// Where the store says what the user should know of the list without refusing it
    /// (`StoreNotice`): the command line writes it to standard error.
    private let notice: (@Sendable (StoreNotice) -> Void)?
    /// A list whose file is at least this many bytes keeps its changes in a journal beside it
    /// (`ListJournal`), written whole only once in many changes; a shorter one is written whole
    /// on every change, as one file other programs can read.
    public let journalFromBytes: Int

    /// The data file always has these permissions, whatever the umask: only the owner may read or
    /// write the list.
    static let filePermissions = OwnFiles.filePermissions
    /// The longest a change waits for the lock, in seconds (an hour); a longer timeout counts as this.
    public static let longestLockTimeout = 3600.0
    /// Missing directories are created with these permissions.
    static let directoryPermissions: mode_t = 0o700

    /// A list of a megabyte (about 4,000 items) or more keeps a journal: below that, writing it
    /// whole takes a few milliseconds.
    public static let journalFromBytes = 1 << 20
    /// The journal is folded into the list file when a change would give it more lines than this,
    /// or more bytes than a sixteenth of the list's (at least `journalByteAllowance`): reading the
    /// list, every command takes the journal's steps, and they must stay few.
    public static let journalLineLimit = 64
    static let journalByteAllowance = 64 << 10

    /// The largest list or sync state the store reads, and so the largest it writes: a change
    /// that would make a file larger is refused before anything is replaced
    /// (`StoreError.tooLargeToWrite`), never written for every later command to refuse.
    public let sizeLimit: Int

    public init(
        path: String, lockTimeout: Double = 10, sizeLimit: Int = OwnFiles.sizeLimit, now: (@Sendable () -> Date)? = nil,
        timeZone: TimeZoneRules = .utc, newID: (@Sendable () -> UUID)? = nil,
        journalFromBytes: Int = Self.journalFromBytes,
        notice: (@Sendable (StoreNotice) -> Void)? = nil
    ) {
        self.path = path
        self.notice = notice
        self.journalFromBytes = journalFromBytes
        self.timeZone = timeZone
        self.newID = newID
        self.lockTimeout = lockTimeout
        self.sizeLimit = min(sizeLimit, OwnFiles.sizeLimit)
        self.now = now
    }

    /// The list as the file holds it now; an empty list when there is no file yet.
    public func load() throws(StoreError) -> ItemManager {
        try read(at: try dataPath()).manager
    }

    /// Runs `change` on the current list as one transaction and returns its result. The file is
    /// written only when the list changed, and then the history gets the change, recorded as made
    /// by `command` (the command line without the program name). When `change` throws, nothing is
    /// written and the error is rethrown as it was.
    @discardableResult
    public func update<Result>(command: [String] = [], _ change: (inout ItemManager) throws -> Result) throws -> Result
    {
        try update(command: command) { manager, _ in (try change(&manager), nil) }
    }

    /// The sync state beside the list (`SyncState`): the list's path with this added.
    static let syncStateSuffix = ".sync"

    /// The lock a sync holds from asking the server to recording what it sent: beside the list,
    /// with `.sync.lock` added to its name.
    static let syncLockSuffix = ".sync.lock"

    /// Runs `body` holding the list's sync lock, so that syncs of one list run one after another:
    /// two at once would each plan against what the other was changing on the server, and take
    /// the other's new resources for ones deleted there. Unlike the list's lock, it is held while
    /// the server is asked, for as long as a sync takes; a second sync waits `lockTimeout` seconds
    /// for it, then throws `StoreError.lockTimeout` naming the sync lock. Changes to the list by
    /// other commands go on meanwhile.
    /// With `leavingNothingOnFailure` (a setup, which may be refused), a `body` that throws takes
    /// the lock file and the folders this call made away again: a refused setup leaves nothing.
    public func whileSyncing<Result>(
        leavingNothingOnFailure: Bool = false, _ body: () throws -> Result
    ) throws -> Result {
        let path = try dataPath()
        let lockPath = path + Self.syncLockSuffix
        // The folders missing, outermost first, and whether the lock file is: to take away again.
        var missing: [String] = []
        var folder = PathText.folder(of: path)
        while leavingNothingOnFailure, !folder.isEmpty, access(folder, F_OK) != 0, errno == ENOENT {
            missing.insert(folder, at: 0)
            let parent = PathText.folder(of: folder)
            if parent == folder { break }
            folder = parent
        }
        let hadLock = !leavingNothingOnFailure || access(lockPath, F_OK) == 0 || errno != ENOENT
        try FileSystem.createDirectories(PathText.folder(of: path), mode: Self.directoryPermissions)
        let lock = try FileLock(path: lockPath, timeout: lockTimeout)
        do {
            let result = try body()
            _ = consume lock
            return result
        } catch {
            if !hadLock, try !hasSyncState() {
                // Still holding it: a waiter that took the removed file's lock opens the name again.
                unlink(lockPath)
                for made in missing.reversed() { rmdir(made) }
            }
            throw error
        }
    }

    /// Whether the list has a sync state, known without reading it (a file of megabytes): `false`
    /// only when there is nothing at its path.
    public func hasSyncState() throws(StoreError) -> Bool {
        access(try dataPath() + Self.syncStateSuffix, F_OK) == 0 || errno != ENOENT
    }

    /// The sync state as its file holds it now; `nil` when the list is not synced.
    public func loadSyncState() throws(StoreError) -> SyncState? {
        try readSyncState(at: try dataPath() + Self.syncStateSuffix)
    }

    /// Runs `change` on the current list and its sync state as one transaction, as
    /// `update(command:_:)` does for the list: under the list's lock, the state is read with the
    /// list; the new state is written and flushed beside its file before the list is replaced,
    /// and put in place just after it (so that it never says more than the list holds, and a
    /// state that cannot be written, too large say, leaves the list as it was too), with the
    /// same permissions, stamped with the digest of the list's file as the transaction leaves it
    /// (`SyncState.listDigest`); setting it to `nil` removes it. The history gets the list's change.
    @discardableResult
    public func update<Result>(
        command: [String] = [], withSyncState change: (inout ItemManager, inout SyncState?) throws -> Result
    ) throws -> Result {
        try update(
            command: command, withSyncStateAndHistory: { manager, state, _ in (try change(&manager, &state), nil) })
    }

    /// As `update(command:withSyncState:)`, for a change that reads the history and may take back
    /// changes it records (an undo: `undo(_:command:)`); without `alwaysLocks`, a list that does
    /// not exist is left so when nothing changed.
    func update<Result>(
        command: [String], alwaysLocks: Bool = true,
        withSyncStateAndHistory change: (inout ItemManager, inout SyncState?, () throws(StoreError) -> ChangeHistory)
            throws
            -> (Result, (HistoryEntry.Kind, [Int])?)
    ) throws -> Result {
        try update(
            command: command, alwaysLocks: alwaysLocks, companion: Self.syncStateSuffix, read: readSyncState,
            write: { state, listDigest throws(StoreError) in
                var state = state
                state.listDigest = try listDigest()
                return state.serialized()
            }, change)
    }

    /// What `todo remind` keeps beside the list (`ReminderLog`): the list's path with this added.
    static let reminderLogSuffix = ".reminded"

    /// Runs `change` on the list as it is and the log of reminders shown, under the list's lock:
    /// the log is replaced when `change` changed it (atomically, only its owner may read it); the
    /// list is never changed here. Nothing is made for a list that does not exist.
    public func update<Result>(
        withReminderLog change: (ItemManager, inout ReminderLog) throws -> Result
    ) throws -> Result {
        try update(
            command: [], alwaysLocks: false, companion: Self.reminderLogSuffix,
            read: { path throws(StoreError) -> ReminderLog? in
                guard let (bytes, _) = try FileSystem.readCompanionFile(at: path, limit: sizeLimit) else { return nil }
                return try ReminderLog(bytes: bytes.array, file: path)
            }, write: { (log: ReminderLog, _) throws(StoreError) in log.serialized() }
        ) { (manager: inout ItemManager, log: inout ReminderLog?, _) in
            var current = log ?? ReminderLog()
            let result = try change(manager, &current)
            if current != log ?? ReminderLog() { log = current }
            return (result, nil)
        }
    }

    /// One transaction over the list and a file kept beside it (its path with `suffix` added),
    /// read with the list under its lock: the file's new contents (`write`, given the digest of
    /// the list as the transaction leaves it) are flushed beside it before the list is changed,
    /// and put in place just after it, with the same permissions; setting it to `nil` removes the file.
    private func update<Companion: Equatable, Result>(
        command: [String], alwaysLocks: Bool, companion suffix: String,
        read: @escaping (String) throws(StoreError) -> Companion?,
        write: @escaping (Companion, _ listDigest: ListDigest) throws(StoreError) -> [UInt8],
        _ change: (inout ItemManager, inout Companion?, () throws(StoreError) -> ChangeHistory) throws -> (
            Result, (HistoryEntry.Kind, [Int])?
        )
    ) throws -> Result {
        var state: Companion?, original: Companion?
        var statePath = ""
        return try update(
            command: command, alwaysLocks: alwaysLocks,
            readingAlong: { path throws(StoreError) in
                statePath = path + suffix
                state = try read(statePath)
                original = state
            },
            preparingAlong: { listDigest throws(StoreError) -> (() throws(StoreError) -> Void)? in
                guard state != original else { return nil }
                guard let state else {
                    return { () throws(StoreError) in
                        if unlink(statePath) != 0, errno != ENOENT { throw FileSystem.failure("remove", statePath) }
                    }
                }
                let bytes = try write(state, listDigest)
                let prepared = try FileSystem.prepareReplacement(
                    of: statePath, permissions: Self.filePermissions, keepingSpare: false,
                    limit: sizeLimit
                ) {
                    append throws(StoreError) in try append(bytes)
                }
                return { () throws(StoreError) in try prepared.commit() }
            }
        ) { manager, history in
            // Called only while `change` runs: never kept.
            try withoutActuallyEscaping(history) { history in try change(&manager, &state, history) }
        }
    }

    private func readSyncState(at path: String) throws(StoreError) -> SyncState? {
        // It names the server the list is sent to and may name a command to run: only this user's own.
        guard let (bytes, _) = try FileSystem.readCompanionFile(at: path, limit: sizeLimit) else { return nil }
        return try SyncState(text: StoredText(owning: bytes), file: path, timeZone: timeZone)
    }

    /// The digest of the list's file as it is now (`digest(of:)`), and of its journal when it has
    /// one; `nil` when there is no list. A sync compares it with the one its state was written
    /// with, to know without reading the list whether it changed since.
    public func listDigest() throws(StoreError) -> UInt64? {
        try Self.listDigest(at: try dataPath())
    }

    /// Gives the digest of the list as a transaction leaves it, asked for only when needed.
    typealias ListDigest = () throws(StoreError) -> UInt64?

    private static func listDigest(at path: String) throws(StoreError) -> UInt64? {
        try listDigest(
            of: FileSystem.digest(ofFileAt: path),
            journal: FileSystem.digest(ofFileAt: ListJournal(dataPath: path).path))
    }

    /// The list file's digest, mixed with its journal's when there is one (a list without a
    /// journal keeps the digest its file always had).
    private static func listDigest(of list: UInt64?, journal: UInt64?) -> UInt64? {
        guard let list, let journal else { return list }
        return list ^ (journal &* 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// What the list's files are now, the list and its journal, to tell without reading them
    /// whether another process changed the list since: any change replaces the list or appends to
    /// its journal, and so changes one's `FileIdentity`. `todo ui` asks after each key and when idle.
    public func listFiles() throws(StoreError) -> ListFiles {
        let path = try dataPath()
        return ListFiles(
            list: FileIdentity.current(at: path), journal: FileIdentity.current(at: ListJournal(dataPath: path).path))
    }

    /// The identity of a list's files (`listFiles()`): equal while no process changed the list.
    public struct ListFiles: Equatable {
        let list: FileIdentity?
        let journal: FileIdentity?
    }

    /// The recent changes, as far as the data file has them (a change whose writing a crash cut
    /// short is left out).
    public func history() throws(StoreError) -> ChangeHistory {
        let path = try dataPath()
        let revision = try read(at: path).revision
        let history = ChangeJournal(dataPath: path, timeZone: timeZone)
        // With the changes the list lost, which the next change keeps (`update`).
        return try history.history(upTo: try history.changesNotInList(after: revision)?.upperBound ?? revision)
    }

    /// Whether `path` names, by any name or link, one of the files the store keeps: the list, its
    /// history, lock or spare. Writing anything else there would destroy the list (`todo export
    /// --output "$TODO_FILE"`); compared by device and inode, as `cp` and `sort -o` do.
    public func keepsFile(atPath path: String) -> Bool {
        var target = stat()
        guard stat(path, &target) == 0, let data = try? dataPath() else { return false }
        let kept = [
            data, data + ".history", data + ListJournal.suffix, data + Self.indexSuffix, data + ".lock",
            FileSystem.sparePath(for: data), data + Self.syncStateSuffix,
            FileSystem.sparePath(for: data + Self.syncStateSuffix), data + Self.syncLockSuffix,
            data + Self.reminderLogSuffix,
            FileSystem.sparePath(for: data + Self.reminderLogSuffix)
        ]
        return kept.contains { kept in
            var status = stat()
            return stat(kept, &status) == 0 && status.st_dev == target.st_dev && status.st_ino == target.st_ino
        }
    }

    /// How often a transaction starts again when the list was replaced under it (see `transaction`).
    static let transactionAttempts = 3

    /// One transaction under the lock: read the list, let `body` change it (given a way to read the
    /// history), and when it changed (`ItemManager.changes`), add the change to the history, then
    /// replace the data file. `body` returns its result and, for an undo or redo, what it took back
    /// (`undo(_:command:)`). It may run more than once: when the lock file was removed under a
    /// running change (a temp cleaner, `rm *.lock`), another process may have changed the list
    /// meanwhile, and a change never overwrites one it did not read, so it starts again on the list
    /// as it is now.
    func update<Result>(
        command: [String], alwaysLocks: Bool = false,
        readingAlong: (String) throws(StoreError) -> Void = { _ in },
        preparingAlong: (ListDigest) throws(StoreError) -> (() throws(StoreError) -> Void)? = { _ in nil },
        _ body: (inout ItemManager, () throws(StoreError) -> ChangeHistory) throws -> (
            Result, (HistoryEntry.Kind, [Int])?
        )
    ) throws -> Result {
        let path = try dataPath()
        // Only a change makes a list: a command on a list that does not exist yet (a mistyped
        // --file, `todo check 1` before any add) runs on the empty list without the lock, and when
        // it changes nothing, leaves no folder, lock or file behind.
        // (Without the clock: what this run makes is kept only when it changed nothing.)
        if !alwaysLocks, access(path, F_OK) != 0, errno == ENOENT {
            var empty = ItemManager()
            let journal = ChangeJournal(dataPath: path, timeZone: timeZone)
            let (result, _) = try body(&empty) { () throws(StoreError) in try journal.history(upTo: 0) }
            if !empty.changes.changeList { return result }
        }
        try FileSystem.createDirectories(PathText.folder(of: path), mode: Self.directoryPermissions)
        var attempt = 1
        while true {
            do {
                return try update(
                    at: path, command: command, readingAlong: readingAlong, preparingAlong: preparingAlong, body)
            } catch StoreError.replacedMeanwhile where attempt < Self.transactionAttempts {
                attempt += 1
            }
        }
    }

    private func update<Result>(
        at path: String, command: [String],
        readingAlong: (String) throws(StoreError) -> Void,
        preparingAlong: (ListDigest) throws(StoreError) -> (() throws(StoreError) -> Void)?,
        _ body: (inout ItemManager, () throws(StoreError) -> ChangeHistory) throws -> (
            Result, (HistoryEntry.Kind, [Int])?
        )
    ) throws -> Result {
        let lock = try FileLock(path: path + ".lock", timeout: lockTimeout)

        var snapshot = try read(at: path, makingIndex: true)
        try readingAlong(path)
        let revision = snapshot.revision
        let history = ChangeJournal(dataPath: path, timeZone: timeZone)
        // Changes the history has and the list has not (its journal lost, an older copy put
        // back) are kept: an undo sees them (and refuses where their items are not as they left
        // them), their numbers are not given again, and this change is numbered after them.
        let notInList = try history.changesNotInList(after: revision)
        let known = notInList?.upperBound ?? revision
        if let notInList {
            snapshot.manager.keepNumbersTaken(
                by: try history.history(upTo: known).entries.filter { notInList.contains($0.number) })
        }
        let (result, reverting) = try body(&snapshot.manager) { () throws(StoreError) in
            try history.history(upTo: known)
        }
        let changes = snapshot.manager.changes
        // What goes in place right after the list (the sync state), written before it is changed.
        var afterList: (() throws(StoreError) -> Void)?
        if changes.changeList {
            // Still the list that was read, under a lock that is still the list's: checked before
            // the history is touched, and again just before the list is changed.
            let (lockedFile, identity) = (lock.lockedFile, snapshot.identity)
            let checkUnchanged = { () throws(StoreError) in
                guard lockedFile.isStillInPlace, FileIdentity.current(at: path) == identity else {
                    throw StoreError.replacedMeanwhile(file: path)
                }
            }
            try checkUnchanged()
            try FileSystem.checkWritable(path)
            // Numbered after the changes the list has not: the list is written whole at that revision.
            if let notInList { notice?(.changesNotInList(list: path, changes: notInList)) }
            let number = known + 1
            var historyFlush: ChangeJournal.PendingFlush?
            if !changes.steps.isEmpty {
                let entry = HistoryEntry(
                    number: number, time: now.map { $0().timeIntervalSince1970.rounded(.down) }, command: command,
                    kind: reverting?.0 ?? .change, reverts: reverting?.1 ?? [],
                    steps: changes.steps, results: changes.touchedItems, migration: snapshot.migration)
                historyFlush = try history.append(entry, afterRevision: number - 1)
            }
            if notInList == nil, let line = journalLine(for: snapshot, touched: changes.touchedItems) {
                // The history's line is on disk before the journal's, which makes the change.
                try historyFlush?.wait()
                let journal = ListJournal(dataPath: path)
                let listDigest = snapshot.listDigest
                afterList = try preparingAlong { () throws(StoreError) in
                    Self.listDigest(
                        of: try listDigest(), journal: FileSystem.digest(of: snapshot.journal.keptBytes + line))
                }
                try checkUnchanged()
                try journal.append(line, at: snapshot.journal.end, readSize: snapshot.journal.size)
                writeIndex(snapshot.index, of: path)
            } else {
                try writeWhole(
                    snapshot, at: path, revision: number, historyFlush: historyFlush,
                    beforeReplacing: {
                        written throws(StoreError) in
                        afterList = try preparingAlong { () throws(StoreError) in try Self.listDigest(at: written) }
                        try checkUnchanged()
                    })
            }
        } else {
            afterList = try preparingAlong { () throws(StoreError) in try Self.listDigest(at: path) }
            writeIndex(snapshot.index, of: path)
        }
        try afterList?()
        _ = consume lock
        return result
    }

    /// The change made to `snapshot`'s list as a line of its journal, when the list keeps one and
    /// the line keeps it within its bounds; `nil` when the list is to be written whole.
    private func journalLine(for snapshot: Snapshot, touched: [TouchedItem]) -> [UInt8]? {
        let journal = snapshot.journal
        guard snapshot.document.continuesInJournal, !snapshot.needsWritingWhole, snapshot.fileSize >= journalFromBytes,
            journal.lines.count < Self.journalLineLimit, !snapshot.manager.steps.isEmpty
        else { return nil }
        let line = ListJournal.bytes(
            of: ListJournal.Line(
                revision: snapshot.revision + 1, nextNumber: snapshot.manager.nextNumber,
                listDigest: try? snapshot.listDigest(), steps: snapshot.manager.journalSteps(touched: touched)))
        guard journal.end + line.count <= max(Self.journalByteAllowance, snapshot.fileSize / 16) else { return nil }
        return line
    }

    /// Writes the list whole, atomically, at `revision` (folding its journal in, and keeping one
    /// from now on when it is long), once the history's line is on disk; then removes the journal.
    private func writeWhole(
        _ snapshot: Snapshot, at path: String, revision: Int, historyFlush: ChangeJournal.PendingFlush?,
        beforeReplacing: (_ written: String) throws(StoreError) -> Void
    ) throws(StoreError) {
        var document = snapshot.document
        document.nextNumber = snapshot.manager.nextNumber
        document.revision = revision
        // Lines of the journal taken in are bound to the file they continued: a crash before the
        // journal is removed leaves them, which readers then know for folded.
        let tookJournal = snapshot.document.continuesInJournal || !snapshot.journal.lines.isEmpty
        document.foldedJournalOf = tookJournal ? try snapshot.listDigest() : nil
        document.continuesInJournal = snapshot.fileSize >= journalFromBytes
        let items = [snapshot.manager.openStored.array, snapshot.manager.doneStored.array]
        // No index may outlive the file it was made from: the next may have its inode (the spare
        // takes turns with the list), its size and, where times are coarse, its time. (One that
        // cannot be removed, another user's, is never read: `writeIndex`.)
        unlink(path + Self.indexSuffix)
        // A long list's index is made as it is written, from where each item goes: the next
        // change need not scan the list to make one (`ListIndex`).
        var index = document.continuesInJournal ? ListIndex.Builder(capacity: items[0].count + items[1].count) : nil
        var itemsRange: Range<Int>?
        // The history's line is flushed while the list is written; the list replaces the old
        // one only once both are on disk.
        var writtenDigest: UInt64?
        try FileSystem.writeAtomically(
            to: path, permissions: Self.filePermissions, limit: sizeLimit,
            beforeReplacing: { written throws(StoreError) in
                if index != nil { writtenDigest = try FileSystem.digest(ofFileAt: written) }
                try historyFlush?.wait()
                try beforeReplacing(written)
            }
        ) {
            append throws(StoreError) in
            itemsRange = try document.write(
                items: items, append,
                noting: index == nil
                    ? nil
                    : { item, written in
                        if let written { index?.add(written, of: item) } else { index?.addUndescribable() }
                    })
        }
        // The list holds the journal's lines now; left behind by a crash, readers skip them. (A
        // journal beside a list that keeps none is another list's: it goes too.)
        try? ListJournal(dataPath: path).remove()
        // Under the lock still: the file in place is the one just written.
        // Only of the very file written: another program's edit in place between the rename and
        // the identity taken here (its time put back) would be a file the index does not describe.
        if let itemsRange, let writtenDigest, let identity = FileIdentity.current(at: path),
            (try? FileSystem.digest(ofFileAt: path)) == writtenDigest, FileIdentity.current(at: path) == identity
        {
            writeIndex(
                index?.bytes(itemsRange: itemsRange, identity: identity, revision: revision, fileDigest: writtenDigest),
                of: path)
        }
    }

    /// The index beside a long list: its name with this added (`ListIndex`).
    static let indexSuffix = ".index"

    /// Puts the index made of the list as read (`Snapshot.index`) beside it, under the list's
    /// lock: the list file is the one it was made from, unless written whole since, which made
    /// none. Only time is lost when this fails: readers scan the list, as without it.
    private func writeIndex(_ index: [UInt8]?, of path: String) {
        guard let index else { return }
        try? FileSystem.writeAtomically(
            to: path + Self.indexSuffix, permissions: Self.filePermissions, keepingSpare: false, limit: .max
        ) {
            append throws(StoreError) in try append(index)
        }
    }

    /// The path to read and replace: the file itself, or the file a symbolic link points to, so
    /// that a linked list stays linked and shares one lock with every other way to reach it. A
    /// link another user planted in a folder others can write to is not followed (see
    /// `OwnFiles.checkLinkMayBeFollowed`).
    private func dataPath() throws(StoreError) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
        try OwnFiles.checkLinkMayBeFollowed(path, status: status)
        guard let resolved = FileSystem.resolvedPath(path) else { throw FileSystem.failure("follow the link", path) }
        return resolved
    }

    /// What a read found: the document and the list it holds.
    private struct Snapshot {
        var document: StoreDocument
        var manager: ItemManager
        /// The file read; `nil` when there was none.
        var identity: FileIdentity?
        /// What reading a file of an older form changed, for the history of the change that
        /// writes it anew.
        var migration: HistoryEntry.Migration?
        /// Whether reading changed what the file holds (its form, numbers it lacked): the next
        /// change writes it whole, not in the journal.
        var needsWritingWhole = false
        /// The list file's length in bytes.
        var fileSize = 0
        /// The digest of the list file as read, worked out when asked for.
        var listDigest: ListDigest = { nil }
        /// What the journal held after the list file's revision, taken into `manager`.
        var journal = ListJournal.Contents()
        /// The index of the list file as read, made when asked for because the list had to be
        /// scanned (it had none: written by an older todo, or its index was lost): a change that
        /// goes to the journal leaves it for the next commands.
        var index: [UInt8]?
        /// The revision of the list as read: the file's, and one more for each journal line.
        var revision: Int { (document.revision ?? 0) + journal.lines.count }
    }

    /// How often a read without the lock starts again when the list was written whole while its
    /// journal was being read.
    static let readAttempts = 5

    private func read(at path: String, makingIndex: Bool = false) throws(StoreError) -> Snapshot {
        var attempt = 1
        while true {
            let snapshot: Snapshot
            do throws(StoreError) {
                snapshot = try readOnce(at: path, makingIndex: makingIndex, mayReadAgain: attempt < Self.readAttempts)
            } catch .replacedMeanwhile where attempt < Self.readAttempts {
                attempt += 1
                continue
            }
            // A change that wrote the list whole meanwhile may have removed the journal read.
            guard snapshot.document.continuesInJournal, FileIdentity.current(at: path) != snapshot.identity,
                attempt < Self.readAttempts
            else { return snapshot }
            attempt += 1
        }
    }

    private func readOnce(at path: String, makingIndex: Bool, mayReadAgain: Bool) throws(StoreError) -> Snapshot {
        guard let (bytes, identity) = try FileSystem.readOwnFile(at: path, limit: sizeLimit, mapping: true) else {
            var manager = ItemManager(now: now)
            if let newID { manager.newID = newID }
            manager.localZone = timeZone
            return Snapshot(document: StoreDocument(), manager: manager, identity: nil)
        }
        let fileSize = bytes.count
        let text = StoredText(owning: bytes)
        // A long list's index saves scanning its items (`ListIndex`); only this user's own, and
        // only when it was made from this very file.
        let isLong = fileSize >= journalFromBytes
        let index = isLong ? FileSystem.mapCompanionFile(at: path + Self.indexSuffix, limit: sizeLimit) : nil
        // The file's digest binds its journal to it: the index knows it, else it is worked out
        // once, when asked for.
        var fileDigest: UInt64?
        let digest = { () -> UInt64 in
            if let fileDigest { return fileDigest }
            let digest = bytes.digest
            fileDigest = digest
            return digest
        }
        var document = try StoreDocument(
            text: text, file: path,
            indexed: index.map { index in
                { start, revision in
                    let found = withExtendedLifetime(index) {
                        ListIndex.items(
                            from: index, text: text, identity: identity, revision: revision, arrayStart: start)
                    }
                    fileDigest = found?.fileDigest
                    return found.map { ($0.items, $0.arrayEnd) }
                }
            })
        let newIndex =
            makingIndex && isLong && fileDigest == nil && document.continuesInJournal
            ? document.itemsRange.flatMap {
                ListIndex.bytes(
                    of: document.items, in: text, itemsRange: $0, identity: identity, revision: document.revision ?? 0,
                    fileDigest: digest())
            }
            : nil
        // The items move into the manager; the document keeps only what surrounds them.
        var items = document.items
        document.items = StoredItems()
        let wholeDays = items.bringToCurrentForm(ItemForm(version: document.readVersion), timeZone: timeZone)
        let migration =
            document.readVersion < StoreDocument.currentVersion
            ? HistoryEntry.Migration(
                fromVersion: document.readVersion, toVersion: StoreDocument.currentVersion, wholeDays: wholeDays,
                timeZone: timeZone.name) : nil
        let needsWritingWhole = migration != nil || wholeDays > 0 || !items.unnumbered.isEmpty
        var manager: ItemManager
        do {
            // Consumed: a copy left here would make the journal's steps copy every item.
            manager = try ItemManager(stored: consume items, nextNumber: document.nextNumber, now: now)
        } catch {
            throw .invalidContent(file: path, reason: Self.reason(for: error))
        }
        if let newID { manager.newID = newID }
        manager.localZone = timeZone
        var journal = ListJournal.Contents()
        var journalIgnored = false
        // Looked for beside every list file: one that says it does not go on in a journal (a
        // version 2 file, or a bare array, written by another program over a long list's) must
        // not leave a journal's changes unread, and then removed by the next change.
        let file = ListJournal(dataPath: path)
        do throws(StoreError) {
            if let read = try file.read(
                after: document.revision ?? 0, folded: document.foldedJournalOf, listDigest: digest, limit: sizeLimit)
            {
                journal = read
            } else {
                // Not this user's own: never used, and the next change writes the list whole.
                journalIgnored = true
                notice?(.journalIgnored(journal: file.path, list: path))
            }
            if let (revision, reason) = manager.replay(journal.lines) {
                throw .invalidContent(file: file.path, reason: "change \(revision) does not fit the list: \(reason)")
            }
        } catch {
            // A reader that stalled while the list was written whole and changed again reads
            // the journal of the new file: it starts again on that file.
            if mayReadAgain, FileIdentity.current(at: path) != identity { throw .replacedMeanwhile(file: path) }
            throw error
        }
        let listDigest = { () throws(StoreError) -> UInt64? in digest() }
        return Snapshot(
            document: document, manager: manager, identity: identity, migration: migration,
            needsWritingWhole: needsWritingWhole || journalIgnored, fileSize: fileSize, listDigest: listDigest,
            journal: journal,
            index: newIndex)
    }

    private static func reason(for error: ItemManagerError) -> String {
        switch error {
        case .duplicateID(let existing): return "two items have the id \(existing.id.uuidString)"
        case .duplicateNumber(let existing): return "two items have the number \(existing.number)"
        default: return error.description
        }
    }
}
