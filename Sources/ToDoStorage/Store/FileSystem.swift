import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations the store is built on, each retrying on `EINTR` and reporting
/// failures as `StoreError.fileSystem` with the path and what was being done.
package enum FileSystem {
    /// The system's text for an `errno` value, as "Permission denied".
    package static func message(forErrorCode code: Int32) -> String {
        String(cString: strerror(code))
    }

    package static func failure(_ operation: String, _ path: String, code: Int32 = errno) -> StoreError {
        .fileSystem(path: path, operation: operation, code: code)
    }

    /// The whole file at `path`, or `nil` when there is no file there: any file the user names,
    /// a pipe included (`todo import <(curl …)`).
    package static func readFile(at path: String) throws(StoreError) -> [UInt8]? {
        try read(path, flags: O_RDONLY | O_CLOEXEC, limit: nil, check: { _ throws(StoreError) in })?.bytes.array
    }

    /// A file another program wrote, to import: opened without waiting (a FIFO named `b.ics`
    /// never blocks), read only when it is a regular file (not `/dev/zero` through a link, nor
    /// a device or socket), and at most `limit` bytes; `nil` when there is none.
    package static func readFileToImport(at path: String, limit: Int) throws(StoreError) -> [UInt8]? {
        try read(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, limit: limit) { status throws(StoreError) in
            if status.st_mode & S_IFMT != S_IFREG { throw OwnFiles.unusable(path, .notRegularFile) }
            if Int(status.st_size) > limit {
                throw OwnFiles.unusable(path, .tooLarge(size: Int(status.st_size), limit: limit))
            }
        }?.bytes.array
    }

    /// Whether `path`, through any links, stays inside the folder `folder` (itself resolved).
    package static func staysInside(_ folder: String, _ path: String) -> Bool {
        guard let resolved = resolvedPath(path) else { return false }
        return resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The whole of one of the list's own files (the list, its history), with its identity, or
    /// `nil` when there is none: never through a final symbolic link, never a FIFO or device
    /// (opened without waiting), and never more than `OwnFiles.sizeLimit` bytes. The bytes are in
    /// memory of their own, which items read from the list may point into. With `mapping`, a
    /// file of `mapFromBytes` or more is mapped instead of read (`OwnedBytes(mapping:count:)`):
    /// only for the list itself, which todo replaces by renaming, never writes into.
    package static func readOwnFile(
        at path: String, limit: Int = OwnFiles.sizeLimit, mapping: Bool = false
    ) throws(StoreError) -> (bytes: OwnedBytes, identity: FileIdentity)? {
        try readKept(path, limit: limit, mapFromBytes: mapping ? mapFromBytes : nil) { status in
            status.st_mode & S_IFMT != S_IFREG ? .notRegularFile : nil
        }
    }

    /// The size from which `readOwnFile` maps a list instead of reading it: below it, reading is
    /// as fast, and the file needs no descriptor kept for it.
    package static let mapFromBytes = 1 << 20

    /// The whole of one of the files todo keeps beside the list (its history, its sync state), as
    /// `readOwnFile` reads the list, and only when this user owns it and no one else may write to
    /// it (`OwnFiles.reasonNotToTrust`): in a folder others can write to, a file planted or moved
    /// there by another user is refused, never read.
    package static func readCompanionFile(
        at path: String, limit: Int = OwnFiles.sizeLimit
    ) throws(StoreError) -> (bytes: OwnedBytes, identity: FileIdentity)? {
        try readKept(path, limit: limit, refusing: OwnFiles.reasonNotToTrust)
    }

    /// One of the files todo keeps beside the list, mapped read-only, when it may be used as
    /// `readCompanionFile` would read it; `nil` when there is none, it may not (another user's, a
    /// link, not a plain file, over `limit` bytes), it is empty or it cannot be mapped. For a file
    /// that only saves time, the list's index, which is then not used. Like the list, it is only
    /// ever replaced by renaming.
    package static func mapCompanionFile(at path: String, limit: Int) -> OwnedBytes? {
        let mapped = try? readKept(path, limit: limit, mapFromBytes: 0, refusing: OwnFiles.reasonNotToTrust)
        guard let (bytes, _) = mapped ?? nil, bytes.isMapped else { return nil }
        return bytes
    }

    /// A file todo keeps, read whole (or mapped, from `mapFromBytes`) as `readOwnFile` says,
    /// unless `refusing` gives a reason not to use it (checked on the opened file) or it is larger
    /// than `limit`.
    private static func readKept(
        _ path: String, limit: Int, mapFromBytes: Int? = nil, refusing: (stat) -> UnusableFileReason?
    ) throws(StoreError) -> (bytes: OwnedBytes, identity: FileIdentity)? {
        try read(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, limit: limit, mapFromBytes: mapFromBytes)
        { status throws(StoreError) in
            if let reason = refusing(status) { throw OwnFiles.unusable(path, reason) }
            if status.st_size > limit {
                throw OwnFiles.unusable(path, .tooLarge(size: Int(status.st_size), limit: limit))
            }
        }
    }

    /// The file at `path`, opened with `flags`, once `check` accepts it: mapped when it is a
    /// plain file of at least `mapFromBytes`, else read whole.
    private static func read(
        _ path: String, flags: Int32, limit: Int?, mapFromBytes: Int? = nil, check: (stat) throws(StoreError) -> Void
    ) throws(StoreError) -> (bytes: OwnedBytes, identity: FileIdentity)? {
        let descriptor = retryingOnInterrupt { open(path, flags) }
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP, flags & O_NOFOLLOW != 0 { throw OwnFiles.unusable(path, .symbolicLink) }
            throw failure("read", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("read", path) }
        if status.st_mode & S_IFMT == S_IFDIR { throw failure("read", path, code: EISDIR) }
        try check(status)
        if let mapFromBytes, status.st_mode & S_IFMT == S_IFREG, status.st_size >= mapFromBytes,
            let mapped = OwnedBytes(mapping: descriptor, count: Int(status.st_size))
        {
            return (mapped, FileIdentity(status))
        }

        // Read into uninitialized memory, a byte more than the size: filling a large buffer with
        // zeros first would cost a third of reading it. A file that grew meanwhile is read on.
        var readError: Int32 = 0
        let size = max(Int(status.st_size), 0) + 1
        let contents = OwnedBytes(capacity: size)
        contents.append(upTo: size) { buffer in
            let (length, error) = readInTwoHalves(descriptor, buffer)
            readError = error
            return length
        }
        if readError == 0, contents.count == size {
            let chunk = 1 << 16
            while true {
                var count = 0
                contents.append(upTo: chunk) { buffer in
                    (count, readError) = readingUntilFull(descriptor, buffer, at: contents.count)
                    return count
                }
                if let limit, contents.count > limit {
                    throw OwnFiles.unusable(path, .tooLarge(size: contents.count, limit: limit))
                }
                if count < chunk || readError != 0 { break }
            }
        }
        if readError != 0 { throw failure("read", path, code: readError) }
        return (contents, FileIdentity(status))
    }

    /// Reads the file from its start into `buffer` until it is full or the file ends. A large
    /// file's second half is read on another core meanwhile: copying from the page cache into fresh
    /// pages is a fifth of the time to read a long list. Returns the length read and the error code
    /// of a failure, else 0.
    static func readInTwoHalves(
        _ descriptor: Int32, _ buffer: UnsafeMutableBufferPointer<UInt8>,
        minimumBytes: Int = Parallelism.readFileInTwoHalvesMinimumBytes
    ) -> (length: Int, error: Int32) {
        guard buffer.count >= minimumBytes else { return readingUntilFull(descriptor, buffer, at: 0) }
        let half = buffer.count / 2
        let secondHalf = BackgroundWork {
            readingUntilFull(descriptor, UnsafeMutableBufferPointer(rebasing: buffer[half...]), at: half)
        }
        let first = readingUntilFull(descriptor, UnsafeMutableBufferPointer(rebasing: buffer[..<half]), at: 0)
        let second = secondHalf.result()
        // A first half cut short means the file ends there, whatever the second read found.
        guard first.error == 0, first.length == half else { return first }
        return (half + second.length, second.error)
    }

    /// Reads into `buffer` from `offset` in the file until it is full or the file ends, and returns
    /// how many bytes were read, and the error code of a failure, else 0.
    static func readingUntilFull(
        _ descriptor: Int32, _ buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> (length: Int, error: Int32) {
        var length = 0
        while length < buffer.count {
            let count = retryingOnInterrupt {
                pread(descriptor, buffer.baseAddress! + length, buffer.count - length, off_t(offset + length))
            }
            if count < 0 { return (length, errno) }
            if count == 0 { break }
            length += count
        }
        return (length, 0)
    }

    /// Reads up to `count` bytes from `offset` in the file at `path`, open as `descriptor`: fewer
    /// only where the file ends.
    package static func readBytes(
        _ descriptor: Int32, path: String, at offset: Int, count: Int
    ) throws(StoreError) -> [UInt8] {
        var error: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, length in
            (length, error) = readingUntilFull(descriptor, buffer, at: offset)
        }
        if error != 0 { throw failure("read", path, code: error) }
        return bytes
    }

    /// The digest (`digest(of:)`) of the file at `path` as it is now; `nil` when there is none.
    package static func digest(ofFileAt path: String) throws(StoreError) -> UInt64? {
        guard let (bytes, _) = try readOwnFile(at: path, mapping: true) else { return nil }
        return withExtendedLifetime(bytes) { digest(of: UnsafeBufferPointer(start: bytes.start, count: bytes.count)) }
    }

    /// Throws when a file exists at `path` that its owner made read-only, that this process may
    /// not write, or that belongs to another user: replacing it by rename would quietly undo the
    /// protection, or take the list from its owner.
    package static func checkWritable(_ path: String) throws(StoreError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFREG, let reason = OwnFiles.reasonNotToChange(status) {
            throw OwnFiles.unusable(path, reason)
        }
        if status.st_mode & S_IWUSR == 0 || access(path, W_OK) != 0 {
            throw failure("write", path, code: EACCES)
        }
    }

    /// Creates `path` and any missing parents with `mode`; existing directories are left alone.
    package static func createDirectories(_ path: String, mode: mode_t) throws(StoreError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw failure("create directory", path, code: ENOTDIR) }
            return
        }
        let parent = PathText.folder(of: path)
        if !parent.isEmpty, parent != path { try createDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0, errno != EEXIST { throw failure("create directory", path) }
    }

    /// Replaces the file at `path` with what `produce` writes, so that a reader or a crash at any
    /// moment sees either the old file or the new one: write the spare file beside it, flush it to
    /// disk, put it in place of `path` in one rename, then flush the directory so that the rename
    /// itself is durable. `produce` is given a function that appends bytes, so that a large list is
    /// written in pieces rather than built whole in memory first. Without `keepingSpare`, the old
    /// file goes, instead of staying as the next spare (see `replace`). `beforeReplacing` runs once
    /// the new file is on disk, just before it takes the old one's place, given its path; when it
    /// throws, nothing is replaced. A file larger than `limit` (what todo reads back) is never
    /// put in place.
    package static func writeAtomically(
        to path: String, permissions: mode_t, keepingSpare: Bool = true, limit: Int = OwnFiles.sizeLimit,
        beforeReplacing: (_ written: String) throws(StoreError) -> Void = { _ in },
        _ produce: (_ append: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) {
        let prepared = try prepareReplacement(
            of: path, permissions: permissions, keepingSpare: keepingSpare, limit: limit, produce)
        try beforeReplacing(prepared.temporaryPath)
        try prepared.commit()
    }

    /// A file written and flushed beside the one it is to replace, not yet in its place: removed
    /// unless `commit()` puts it there.
    package final class PreparedReplacement {
        package let path: String
        package let temporaryPath: String
        private let isSpare: Bool
        private let keepingSpare: Bool
        private let permissions: mode_t
        private var committed = false

        fileprivate init(path: String, temporaryPath: String, isSpare: Bool, keepingSpare: Bool, permissions: mode_t) {
            self.path = path
            self.temporaryPath = temporaryPath
            self.isSpare = isSpare
            self.keepingSpare = keepingSpare
            self.permissions = permissions
        }

        /// Puts the file in place in one rename, and flushes the directory so that the rename is durable.
        package func commit() throws(StoreError) {
            // The old file becomes the next spare only when it is as private as the new one: a list
            // someone made readable to others must not stay readable as the spare.
            var old = stat()
            let swapping =
                keepingSpare && isSpare && lstat(path, &old) == 0 && OwnFiles.reasonNotToChange(old) == nil
                && old.st_mode & 0o7777 == permissions
            guard swapping ? FileSystem.replace(path, with: temporaryPath) : rename(temporaryPath, path) == 0 else {
                throw failure("replace", path)
            }
            committed = true
            let directory = PathText.folder(of: path)
            let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
            guard directoryDescriptor >= 0 else { throw failure("flush", directory) }
            defer { close(directoryDescriptor) }
            guard synchronize(directoryDescriptor) else { throw failure("flush", directory) }
        }

        deinit {
            // A write that failed, or was never put in place, leaves no file: on a full disk, that gives the space back.
            if !committed { unlink(temporaryPath) }
        }
    }

    /// Writes what `produce` appends to the spare file beside `path` (see `openSpare`), with
    /// exactly `permissions`, flushed to disk; refused past `limit` bytes, as soon as it is
    /// crossed (the reader would refuse the file).
    package static func prepareReplacement(
        of path: String, permissions: mode_t, keepingSpare: Bool = true, limit: Int = OwnFiles.sizeLimit,
        _ produce: (_ append: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> PreparedReplacement {
        let directory = PathText.folder(of: path)
        let (descriptor, temporaryPath, isSpare) = try openSpare(
            for: path, permissions: permissions, directory: directory)
        let prepared = PreparedReplacement(
            path: path, temporaryPath: temporaryPath, isSpare: isSpare, keepingSpare: keepingSpare,
            permissions: permissions)
        defer { close(descriptor) }
        // Whatever the umask allowed, the file gets exactly these permissions.
        guard fchmod(descriptor, permissions) == 0 else { throw failure("write", path) }
        // Errors name the data file: the spare is ours, not the user's.
        var length = 0
        try produce { bytes throws(StoreError) in
            guard length + bytes.count <= limit else { throw StoreError.tooLargeToWrite(file: path, limit: limit) }
            try writeAll(bytes, to: descriptor, path: path)
            length += bytes.count
        }
        // A reused spare may be longer than what was written.
        guard retryingOnInterrupt({ ftruncate(descriptor, off_t(length)) }) == 0,
            synchronize(descriptor)
        else { throw failure("write", path) }
        return prepared
    }

    /// Where the spare of the file at `path` is: hidden beside it, as `.items.json.spare`.
    package static func sparePath(for path: String) -> String {
        "\(PathText.folder(of: path))/.\(PathText.lastName(of: path)).spare"
    }

    /// Opens the spare file, hidden beside the data file as `.items.json.spare`, for writing from
    /// its start. Each write swaps it with the data file (see `replace`), so it holds the previous
    /// list; its disk blocks are reused when it is this user's plain file that nothing else has
    /// open and that has no other name. Otherwise (a reader still reading that list, a hard link,
    /// a symbolic link, a system without leases) it is replaced by a new file; where it cannot be
    /// removed (another user's file in a sticky folder, as /tmp) it is left alone, never used, and
    /// a new file of a unique name takes its part. Returns the descriptor, the file's path and
    /// whether that is the spare's.
    private static func openSpare(
        for path: String, permissions: mode_t, directory: String
    ) throws(StoreError) -> (descriptor: Int32, path: String, isSpare: Bool) {
        let sparePath = Self.sparePath(for: path)
        #if os(Linux)
        let existing = retryingOnInterrupt { open(sparePath, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        if existing >= 0 {
            if isOnlyOpenHere(existing) {
                _ = fcntl(existing, F_SETFL, fcntl(existing, F_GETFL) & ~O_NONBLOCK)
                return (existing, sparePath, true)
            }
            close(existing)
        }
        #endif
        unlink(sparePath)
        let descriptor = retryingOnInterrupt {
            open(sparePath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        }
        if descriptor >= 0 { return (descriptor, sparePath, true) }
        guard errno == EEXIST else { throw failure("create a file in", directory) }
        var template = Array("\(sparePath).XXXXXX".utf8CString)
        let unique = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard unique >= 0 else { throw failure("create a file in", directory) }
        _ = fcntl(unique, F_SETFD, FD_CLOEXEC)
        return (unique, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), false)
    }

    #if os(Linux)
    /// Whether `descriptor` is a plain file of this user's with one name that no other descriptor
    /// has open. Linux grants a write lease only then (to root whatever the owner, hence the owner
    /// check); it is released at once, having answered the question.
    private static func isOnlyOpenHere(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, OwnFiles.reasonNotToChange(status) == nil, status.st_nlink == 1,
            fcntl(descriptor, setLease, Int32(F_WRLCK)) == 0
        else { return false }
        return fcntl(descriptor, setLease, Int32(F_UNLCK)) == 0
    }

    /// Linux's `F_SETLEASE` and `RENAME_EXCHANGE`, which Glibc's Swift module does not declare.
    private static let setLease: Int32 = 1024
    private static let renameExchange: UInt32 = 2

    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// `renameat2` (Linux 3.15, glibc 2.28), looked up at run time for the same reason.
    private static let renameat2: RenameAt2? = dlsym(dlopen(nil, RTLD_NOW), "renameat2").map {
        unsafeBitCast($0, to: RenameAt2.self)
    }
    #endif

    /// Puts the file at `source` in place of `destination` in one atomic step. On Linux the two
    /// swap names, so that the old list's disk blocks become the next spare instead of being
    /// freed: on a file system mounted with `discard`, freeing a large file costs more than writing
    /// it. Where swapping is not supported (or there is no old list), a plain rename.
    fileprivate static func replace(_ destination: String, with source: String) -> Bool {
        #if os(Linux)
        if let renameat2, renameat2(AT_FDCWD, source, AT_FDCWD, destination, renameExchange) == 0 { return true }
        #endif
        return rename(source, destination) == 0
    }

    package static func writeAll(_ contents: [UInt8], to descriptor: Int32, path: String) throws(StoreError) {
        var offset = 0
        while offset < contents.count {
            let count = retryingOnInterrupt { writeSome(contents, from: offset, to: descriptor) }
            guard count > 0 else { throw failure("write", path) }
            offset += count
        }
    }

    /// Writes what one `write(2)` takes of `bytes` from `offset` on to `descriptor` (standard
    /// output, say), and returns how many bytes it took, or -1 with `errno` set.
    package static func writeSome(_ bytes: [UInt8], from offset: Int, to descriptor: Int32) -> Int {
        guard offset < bytes.count else { return 0 }
        return bytes.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        }
    }

    /// Reads what one `read(2)` gives from `descriptor` (standard input, say) into the start of
    /// `chunk`, at most its count, and returns how many bytes it read, 0 at the end, or -1 with
    /// `errno` set.
    /// `path` with every link followed and every `.` and `..` taken away (`realpath`); `nil` when
    /// that fails, and `errno` says why.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The process's current folder (`/` when it has none it can name: removed, or out of reach).
    package static func currentDirectory() -> String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }

    /// The names in the folder at `path` (not `.` and `..`), in the order the folder lists them.
    package static func names(inFolder path: String) throws(StoreError) -> [String] {
        guard let folder = opendir(path) else { throw failure("read", path) }
        defer { closedir(folder) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        guard errno == 0 else { throw failure("read", path) }
        return names
    }

    package static func readSome(_ descriptor: Int32, into chunk: inout [UInt8]) -> Int {
        chunk.withUnsafeMutableBytes { buffer in
            #if canImport(Glibc)
            Glibc.read(descriptor, buffer.baseAddress!, buffer.count)
            #elseif canImport(Musl)
            Musl.read(descriptor, buffer.baseAddress!, buffer.count)
            #else
            Darwin.read(descriptor, buffer.baseAddress!, buffer.count)
            #endif
        }
    }

    /// Flushes a file's data to the disk itself (on macOS `fsync` stops at the drive's cache).
    package static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return retryingOnInterrupt { fsync(descriptor) } == 0
    }

    package static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

extension FileSystem {
    /// A 64-bit digest of `bytes`, xxHash64's round and final mix over one lane: any change to a
    /// file changes it but for a one-in-2^64 accident (it is no defence against a crafted file,
    /// but whoever can write the list can change it anyway). A megabyte takes well under one
    /// millisecond.
    static func digest(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var accumulator = DigestRound.prime3 ^ UInt64(bytes.count)
        let words = bytes.count / 8
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            for word in 0..<words { accumulator = DigestRound.mix(accumulator, DigestRound.word(raw, 8 * word)) }
        }
        return DigestRound.finish(accumulator, tailOf: bytes, from: 8 * words)
    }

    /// `digest(of:)` of bytes in an array.
    package static func digest(of bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { digest(of: $0) }
    }

    package static func digest(of bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { digest(of: $0) }
    }

    /// The same kind of digest over four lanes of words side by side (xxHash64's layout), which a
    /// core works out four times as fast: for the 8.8 MB of a long list's index (`ListIndex`), read
    /// by every command. Not `digest(of:)`'s values: those are kept in files (the journal's lines).
    static func wideDigest(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var lanes = (DigestRound.prime1, DigestRound.prime2, DigestRound.prime3, UInt64(bytes.count))
        let stripes = bytes.count / 32
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            for stripe in 0..<stripes {
                let offset = 32 * stripe
                lanes = (
                    DigestRound.mix(lanes.0, DigestRound.word(raw, offset)),
                    DigestRound.mix(lanes.1, DigestRound.word(raw, offset + 8)),
                    DigestRound.mix(lanes.2, DigestRound.word(raw, offset + 16)),
                    DigestRound.mix(lanes.3, DigestRound.word(raw, offset + 24))
                )
            }
        }
        var accumulator = DigestRound.mix(DigestRound.mix(DigestRound.mix(lanes.0, lanes.1), lanes.2), lanes.3)
        // The last words that fill no stripe, then the bytes that fill no word.
        var offset = 32 * stripes
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                accumulator = DigestRound.mix(accumulator, DigestRound.word(UnsafeRawPointer(base), offset))
                offset += 8
            }
        }
        return DigestRound.finish(accumulator, tailOf: bytes, from: offset)
    }
}

/// The steps the digests share: xxHash64's round and final mix.
private enum DigestRound {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87, prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F,
        prime3: UInt64 = 0x1656_67B1_9E37_79F9

    static func word(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    static func mix(_ accumulator: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = accumulator &+ word &* prime2
        return (mixed << 31 | mixed >> 33) &* prime1
    }

    /// The bytes of `bytes` from `offset` (fewer than 8) mixed in as one word, then the final mix.
    static func finish(_ accumulator: UInt64, tailOf bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> UInt64 {
        var last: UInt64 = 0
        for index in offset..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
        var accumulator = mix(accumulator, last)
        accumulator ^= accumulator >> 33
        accumulator &*= prime2
        accumulator ^= accumulator >> 29
        accumulator &*= prime3
        return accumulator ^ accumulator >> 32
    }
}
