import ToDoModel
import ToDoStorage

/// The journal beside a long list (`items.json.journal`): the changes made since the list file
/// was last written whole, one line each, so that a change to a list of megabytes writes and
/// flushes a line instead of the whole file.
///
/// A list file that may continue in its journal says so by its version
/// (`StoreDocument.journaledVersion`), which a todo that does not know the journal refuses
/// instead of losing what the journal holds. Each line carries the revision it brings the list
/// to, the next number, the digest of the list file it continues (`FileSystem.digest(of:)`), the
/// change's steps with the items as they left them (`JournalStep`, in the list's own item form,
/// so members todo does not know are kept), and a digest of the line:
///
/// `{"revision":13,"nextNumber":348,"list":"90C2…","steps":[{"remove":"ID","done":false,"at":3},{"insert":ITEM,"done":true,"at":40}],"check":"1F0E…"}`
///
/// A journal is replayed only onto the very file it continues: one whose list file another
/// program changed, or that a copy of an older list file found beside it, is refused, never
/// applied to a list it was not written for (lines written before todo bound them, without
/// `list`, are taken as they were).
///
/// The line is written and flushed under the list's lock, after the history's line: a line that
/// ends in a line feed with its digest right is a committed change. A last line without either
/// (a crash while writing it) is left out, and cut off by the next change. Lines at or below the
/// list file's revision were folded into it (a crash after the list was written whole and before
/// the journal was removed); those after it must follow on one by one.
struct ListJournal {
    let path: String

    init(dataPath: String) {
        path = dataPath + Self.suffix
    }

    static let suffix = ".journal"

    /// What the journal holds after the list file's revision.
    struct Contents {
        var lines: [Line] = []
        /// Where the lines to keep end: a change appends its line here, cutting off what follows
        /// (a torn line, or lines the list file already holds).
        var end = 0
        /// How many bytes the file has.
        var size = 0
        /// The bytes before `end`, which the file keeps when a change appends its line.
        var keptBytes: [UInt8] = []
    }

    /// A change as one line of the journal.
    struct Line: JSONRecord {
        var revision: Int
        var nextNumber: Int
        /// The digest of the list file the line continues; `nil` in a line of an older todo.
        var listDigest: UInt64?
        var steps: [JournalStep]

        static let unread = Line(revision: 0, nextNumber: 0, listDigest: nil, steps: [])
        static let members: [JSONMember<Line>] = [
            .required("revision", { $1(&$0.revision) }, .whole(in: 1...ToDoItem.largestNumber)),
            .required("nextNumber", { $1(&$0.nextNumber) }, .whole(in: 1...ToDoItem.largestNumber + 1)),
            .optional(
                "list", { $1(&$0.listDigest) },
                .string(
                    written: HexDigit.digestText, read: HexDigit.digest(_:),
                    refusing: "the list file's digest, 16 hexadecimal digits")),
            .required("steps", { $1(&$0.steps) }, .array(of: .of(JournalStep.self)))
        ]
        static let missing = "a change without its revision, next number or steps"
    }

    /// The lines after `revision`, the list file's, whose digest `listDigest` gives when asked;
    /// `folded` is the file it took the journal in from, when it was written whole from one.
    /// Throws when a line before the last is damaged, when one cannot be read, when they do not
    /// follow on from the list file, or continue another list file: the list cannot be known
    /// then, and nothing is written. `nil` when the journal is not this user's own (another user's
    /// planted in a folder others can write to, a link, not a plain file): never used, said by the
    /// caller. One of the user's own that others may write to is refused, as the history is.
    func read(
        after revision: Int, folded: UInt64?, listDigest: () -> UInt64, limit: Int
    ) throws(StoreError) -> Contents? {
        // Part of the list: only this user's own file (see `OwnFiles.reasonNotToTrust`).
        let read: (bytes: OwnedBytes, identity: FileIdentity)?
        do {
            read = try FileSystem.readCompanionFile(at: path, limit: limit)
        } catch .unusableFile(let file, let reason) {
            switch reason {
            case .symbolicLink, .linkFromAnotherUser, .anotherOwner, .notRegularFile, .linkOutOfFolder: return nil
            // This user's own, that others could have written to, or too large: it may hold the
            // user's changes, and is refused as the history is, never thrown away.
            case .writableByOthers, .tooLarge: throw .unusableFile(path: file, reason: reason)
            }
        }
        guard let (bytes, _) = read else { return Contents() }
        return try contents(of: bytes.array, after: revision, folded: folded, listDigest: listDigest)
    }

    /// The list file the journal continues.
    var listPath: String { String(path.dropLast(Self.suffix.count)) }

    private func contents(
        of bytes: [UInt8], after revision: Int, folded: UInt64?,
        listDigest: () -> UInt64
    ) throws(StoreError) -> Contents {
        var contents = Contents(size: bytes.count)
        var start = 0
        var lineNumber = 0
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lineNumber += 1
            let line = bytes[start..<newline]
            let next = newline + 1
            guard let body = Self.checkedBody(of: line) else {
                // A damaged last line is one a crash cut short; one before others, damage.
                if !bytes[next...].contains(UInt8(ascii: "\n")) { break }
                throw .invalidContent(file: path, reason: "line \(lineNumber) is damaged")
            }
            let read: Line
            do {
                read = try JSONScanner.scanDocument(in: Array(body) + [UInt8(ascii: "}")]) {
                    scanner throws(JSONDecodingError) in
                    try Line(scanning: &scanner, path: { "" })
                }
            } catch {
                throw .invalidContent(file: path, reason: "line \(lineNumber) cannot be read: \(error)")
            }
            start = next
            // Folded into the list file already (a crash before the journal was removed): a line
            // bound to the file it was folded from, or (an older todo's, unbound) at or below the
            // file's revision. What follows must be so too, or start anew.
            let isFolded = read.listDigest.map { $0 == folded } ?? (read.revision <= revision)
            if isFolded {
                guard contents.lines.isEmpty else {
                    throw .invalidContent(file: path, reason: "line \(lineNumber) goes back to change \(read.revision)")
                }
                continue
            }
            // Any other line continues this very file, or is refused: never replayed onto a file
            // it was not written for, nor skipped for a revision another program counted up.
            if let bound = read.listDigest, bound != listDigest() {
                throw .invalidContent(
                    file: path,
                    reason:
                        "its changes from \(read.revision) on continue another version of \(listPath) (changed by another"
                        + " program, or put back from a copy, since they were written), and were not applied to it. To use the list as"
                        + " \(listPath) holds it now, move the journal away (mv \(HistoryEntry.shellQuoted(path)) \(HistoryEntry.shellQuoted(path + ".old")))"
                )
            }
            let expected = revision + contents.lines.count + 1
            guard read.revision == expected else {
                throw .invalidContent(
                    file: path,
                    reason: "line \(lineNumber) is change \(read.revision), where change \(expected) was due")
            }
            contents.lines.append(read)
            contents.end = next
        }
        contents.keptBytes = Array(bytes[..<contents.end])
        return contents
    }

    /// The line without its digest member and closing brace, when the digest is right.
    private static func checkedBody(of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let suffixLength = checkPrefix.count + 16 + 2
        guard line.count > suffixLength else { return nil }
        let bodyEnd = line.endIndex - suffixLength
        let suffix = line[bodyEnd...]
        guard suffix.starts(with: checkPrefix), suffix.suffix(2).elementsEqual(#""}"#.utf8) else { return nil }
        guard let digest = HexDigit.digest(spelledBy: suffix.dropFirst(checkPrefix.count).prefix(16)) else {
            return nil
        }
        let body = line[..<bodyEnd]
        return FileSystem.digest(of: body) == digest ? body : nil
    }

    private static let checkPrefix = Array(#","check":""#.utf8)

    /// `line` as the journal keeps it, with its digest and line feed.
    static func bytes(of line: Line) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        line.write(to: &writer)
        // Without its closing brace: the digest covers what comes before its own member.
        var bytes = writer.line()
        bytes.removeLast(2)
        let digest = FileSystem.digest(of: bytes)
        bytes.append(contentsOf: checkPrefix)
        bytes.append(contentsOf: HexDigit.digestText(digest).utf8)
        bytes.append(contentsOf: #""}"#.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Writes `line` at `offset`, cutting off whatever follows there, and flushes it to disk: the
    /// change is made once this returns. When it cannot be, the file is cut back to `offset`.
    /// The file must still have `readSize` bytes, as the transaction read it: another's line
    /// written meanwhile (a change whose lock file was removed under it) is never cut off, and
    /// the change starts again (`StoreError.replacedMeanwhile`).
    func append(_ line: [UInt8], at offset: Int, readSize: Int) throws(StoreError) {
        // Never through a planted link, nor into another user's file (see `OwnFiles`).
        let descriptor = try OwnFiles.openCompanion(path, operation: "write", readsContents: true)
        defer { close(descriptor) }
        // Two changes that both think they hold the list's lock check the size and write one
        // after the other.
        guard FileSystem.retryingOnInterrupt({ flock(descriptor, LOCK_EX) }) == 0 else {
            throw FileSystem.failure("lock", path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileSystem.failure("write", path) }
        guard Int(status.st_size) == readSize, status.st_nlink > 0 else { throw .replacedMeanwhile(file: listPath) }
        if Int(status.st_size) != offset {
            guard FileSystem.retryingOnInterrupt({ ftruncate(descriptor, off_t(offset)) }) == 0 else {
                throw FileSystem.failure("write", path)
            }
        }
        do throws(StoreError) {
            guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
                throw FileSystem.failure("write", path)
            }
            try FileSystem.writeAll(line, to: descriptor, path: path)
            guard FileSystem.synchronize(descriptor) else { throw FileSystem.failure("write", path) }
        } catch {
            _ = ftruncate(descriptor, off_t(offset))
            throw error
        }
    }

    /// Removes the journal once the list file holds all of it; a journal that is not there is fine.
    func remove() throws(StoreError) {
        if unlink(path) != 0, errno != ENOENT { throw FileSystem.failure("remove", path) }
    }
}
