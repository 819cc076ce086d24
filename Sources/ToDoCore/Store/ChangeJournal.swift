import ToDoModel
import ToDoStorage

/// The history file beside the data file (`items.json.history`): one line of JSON per change
/// (`HistoryEntry`), oldest first. A change's line is written and flushed before the data file is
/// replaced, under the same lock, and its number is the revision the data file gets. So a crash
/// between the two leaves a line numbered past the data file's revision: readers leave such lines
/// out, and the next change cuts them off, with any torn last line, before adding its own.
struct ChangeJournal {
    let path: String
    /// Where the items of lines in the first form are read (`ItemForm`).
    let timeZone: TimeZoneRules

    /// The file is rewritten with only the latest `keptChanges` lines when a change would make it
    /// hold more than this many beyond them, so that trimming costs little per change.
    static let trimSlack = 25
    /// The file is also trimmed when longer than this, keeping at least the newest change.
    static let byteLimit = 64 << 20

    init(dataPath: String, timeZone: TimeZoneRules) {
        path = dataPath + ".history"
        self.timeZone = timeZone
    }

    /// The changes up to `revision` (the data file's), the latest `ChangeHistory.keptChanges` of
    /// them; lines that cannot be read are left out.
    func history(upTo revision: Int) throws(StoreError) -> ChangeHistory {
        // What undo takes back: only this user's own file (see `OwnFiles.reasonNotToTrust`).
        guard let (contents, _) = try FileSystem.readCompanionFile(at: path) else { return ChangeHistory(entries: []) }
        return history(of: contents.array, upTo: revision)
    }

    private func history(of bytes: [UInt8], upTo revision: Int) -> ChangeHistory {
        var entries: [HistoryEntry] = []
        var unreadable = 0
        let local = CivilTime(rules: timeZone)
        for line in Self.lines(of: bytes) {
            // Lines past the revision are a crash's leftovers, and older ones are not kept: neither is shown.
            guard let number = HistoryEntry.number(atStartOf: line) else {
                unreadable += 1
                continue
            }
            guard number <= revision, number > revision - ChangeHistory.keptChanges else { continue }
            guard let entry = HistoryEntry(line: line, local: local) else {
                unreadable += 1
                continue
            }
            // Numbers only grow; a smaller one is left from a list that was replaced.
            entries.removeAll { $0.number >= number }
            entries.append(entry)
        }
        return ChangeHistory(entries: entries, unreadableLines: unreadable)
    }

    /// The changes the history records past `revision` (the list's) when there are two or more:
    /// changes the list does not hold (its journal was lost or left behind, or the list file put
    /// back from a copy), which the next change keeps, numbered after them; `nil` when there are
    /// none, or one, which is a crash's leftover (written before the list, which it never
    /// reached). Reads only the end of the file.
    func changesNotInList(after revision: Int) throws(StoreError) -> ClosedRange<Int>? {
        let descriptor = FileSystem.retryingOnInterrupt { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        // Only this user's own history is taken at its word (see `OwnFiles.reasonNotToTrust`).
        guard fstat(descriptor, &status) == 0, OwnFiles.reasonNotToTrust(status) == nil else { return nil }
        let past = try OpenFile(descriptor: descriptor, path: path).numbersPast(revision, size: Int(status.st_size))
        guard past.count >= 2, let first = past.last, let last = past.first, first <= last else { return nil }
        return first...last
    }

    /// Adds `entry` (numbered `revision` + 1) at the end, after cutting off what a crash may have
    /// left (lines numbered past `revision`, a torn last line), or rewrites the file without its
    /// oldest lines. The line is flushed to disk on another thread meanwhile, so that the data
    /// file is written at the same time: the data file must not be replaced before
    /// `PendingFlush.wait()` has returned.
    func append(_ entry: HistoryEntry, afterRevision revision: Int) throws(StoreError) -> PendingFlush {
        // Never through a planted link, nor into another user's file (see `OwnFiles`).
        let descriptor = try OwnFiles.openCompanion(path, operation: "write", readsContents: true)
        var handedOn = false
        defer { if !handedOn { close(descriptor) } }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileSystem.failure("write", path) }
        let file = OpenFile(descriptor: descriptor, path: path)
        let end = try file.endOfKeptLines(size: Int(status.st_size), upTo: revision)
        let line = entry.line()
        let first = end > 0 ? HistoryEntry.number(atStartOf: try file.read(at: 0, count: 32)) : nil
        if let first,
            entry.number - first >= ChangeHistory.keptChanges + Self.trimSlack || end + line.count > Self.byteLimit
        {
            try rewrite(keeping: try file.read(at: 0, count: end), adding: line, newest: entry.number)
            return PendingFlush(done: ())
        }
        if end < Int(status.st_size) {
            guard FileSystem.retryingOnInterrupt({ ftruncate(descriptor, off_t(end)) }) == 0 else {
                throw FileSystem.failure("write", path)
            }
        }
        do throws(StoreError) {
            try file.write(line, at: end)
        } catch {
            // A line cut short (a full disk) would be cut off by the next change anyway; cutting it
            // now gives the space back.
            _ = ftruncate(descriptor, off_t(end))
            throw error
        }
        handedOn = true
        return PendingFlush(descriptor: descriptor, path: path, end: end)
    }

    /// The history's new line being flushed to disk on another thread.
    final class PendingFlush {
        private let flush: BackgroundWork<Int32>?
        private let descriptor: Int32
        private let path: String
        private let end: Int
        private var waited = false

        init(descriptor: Int32, path: String, end: Int) {
            self.descriptor = descriptor
            self.path = path
            self.end = end
            flush = BackgroundWork { FileSystem.synchronize(descriptor) ? 0 : errno }
        }

        init(done: Void) {
            flush = nil
            descriptor = -1
            path = ""
            end = 0
        }

        /// Waits for the line to be on disk; throws, having taken the line off, when it could not be.
        func wait() throws(StoreError) {
            guard let flush, !waited else { return }
            waited = true
            defer { close(descriptor) }
            let code = flush.result()
            if code != 0 {
                _ = ftruncate(descriptor, off_t(end))
                throw FileSystem.failure("write", path, code: code)
            }
        }

        deinit {
            // Not waited for (the data file could not be written): the flush still ends first.
            if let flush, !waited {
                _ = flush.result()
                close(descriptor)
            }
        }
    }

    static let permissions: mode_t = 0o600

    /// Replaces the file, atomically, with the lines of the last `keptChanges` changes within the
    /// byte limit, and `line`.
    private func rewrite(keeping bytes: [UInt8], adding line: [UInt8], newest: Int) throws(StoreError) {
        var kept = Self.lines(of: bytes).filter { line in
            HistoryEntry.number(atStartOf: line).map { $0 > newest - ChangeHistory.keptChanges } ?? false
        }
        var length = kept.reduce(line.count) { $0 + $1.count + 1 }
        while length > Self.byteLimit, !kept.isEmpty {
            length -= kept.removeFirst().count + 1
        }
        // No spare is kept: the history is rewritten once in many changes.
        try FileSystem.writeAtomically(to: path, permissions: Self.permissions, keepingSpare: false) {
            append throws(StoreError) in
            for old in kept { try append(Array(old) + [UInt8(ascii: "\n")]) }
            try append(line)
        }
    }

    /// The lines of `bytes`, without their line feeds; a last line without one is torn, and left out.
    static func lines<Bytes: Collection<UInt8>>(of bytes: Bytes) -> [Bytes.SubSequence] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()
        return lines.filter { !$0.isEmpty }
    }
}

/// The history file open for reading and writing at offsets.
private struct OpenFile {
    let descriptor: Int32
    let path: String

    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        try FileSystem.readBytes(descriptor, path: path, at: offset, count: count)
    }

    func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw FileSystem.failure("write", path)
        }
        try FileSystem.writeAll(bytes, to: descriptor, path: path)
    }

    /// Where the lines to keep end: before a torn last line and before lines numbered past
    /// `revision`, which a crash left before the data file was replaced. Looks only at the end of
    /// the file, a piece at a time.
    func endOfKeptLines(size: Int, upTo revision: Int) throws(StoreError) -> Int {
        try linesPast(revision, size: size).end
    }

    /// The numbers of the lines past `revision`, newest first.
    func numbersPast(_ revision: Int, size: Int) throws(StoreError) -> [Int] {
        try linesPast(revision, size: size).numbers
    }

    /// Where the lines up to `revision` end (before a torn last line), and the numbers of the
    /// whole lines after them, newest first.
    private func linesPast(_ revision: Int, size: Int) throws(StoreError) -> (end: Int, numbers: [Int]) {
        var end = size
        if end > 0, try read(at: end - 1, count: 1) != [UInt8(ascii: "\n")] {
            end = try startOfLine(before: end)
        }
        var numbers: [Int] = []
        while end > 0 {
            let start = try startOfLine(before: end - 1)
            // A line that is not an entry is kept, and ends the search: it was not written here.
            guard let number = HistoryEntry.number(atStartOf: try read(at: start, count: min(32, end - start))),
                number > revision
            else { break }
            numbers.append(number)
            end = start
        }
        return (end, numbers)
    }

    /// Where the line holding the byte before `offset` starts: just after the line feed before it.
    private func startOfLine(before offset: Int) throws(StoreError) -> Int {
        var end = offset
        let piece = 1 << 16
        while end > 0 {
            let start = max(0, end - piece)
            let bytes = try read(at: start, count: end - start)
            if let newline = bytes.lastIndex(of: UInt8(ascii: "\n")) { return start + newline + 1 }
            end = start
        }
        return 0
    }
}
