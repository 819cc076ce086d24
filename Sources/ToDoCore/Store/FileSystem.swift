#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few POSIX file operations the store is built on, each retrying on `EINTR` and reporting
/// failures as `StoreError.fileSystem` with the path and what was being done.
enum FileSystem {
    /// The system's text for an `errno` value, as "Permission denied".
    static func message(forErrorCode code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func failure(_ operation: String, _ path: String, code: Int32 = errno) -> StoreError {
        .fileSystem(path: path, operation: operation, code: code)
    }

    /// The whole file at `path`, or `nil` when there is no file there.
    static func readFile(at path: String) throws(StoreError) -> [UInt8]? {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("read", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("read", path) }
        if status.st_mode & S_IFMT == S_IFDIR { throw failure("read", path, code: EISDIR) }

        var contents = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var length = 0
        while true {
            if length == contents.count { contents.append(contentsOf: repeatElement(0, count: contents.count)) }
            let count = contents.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { read(descriptor, buffer.baseAddress! + length, buffer.count - length) }
            }
            if count < 0 { throw failure("read", path) }
            if count == 0 { break }
            length += count
        }
        contents.removeSubrange(length...)
        return contents
    }

    /// Throws when a file exists at `path` that its owner made read-only, or that this process may
    /// not write: replacing it by rename would quietly undo the protection.
    static func checkWritable(_ path: String) throws(StoreError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        if status.st_mode & S_IWUSR == 0 || access(path, W_OK) != 0 {
            throw failure("write", path, code: EACCES)
        }
    }

    /// Creates `path` and any missing parents with `mode`; existing directories are left alone.
    static func createDirectories(_ path: String, mode: mode_t) throws(StoreError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw failure("create directory", path, code: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0, errno != EEXIST { throw failure("create directory", path) }
    }

    /// Replaces the file at `path` with what `produce` writes, so that a reader or a crash at any
    /// moment sees either the old file or the new one: write a temporary file beside it, flush it to
    /// disk, rename it over `path`, then flush the directory so the rename itself is durable.
    /// `produce` is given a function that appends bytes, so that a large list is written in pieces
    /// rather than built whole in memory first.
    static func writeAtomically(
        to path: String, permissions: mode_t,
        _ produce: (_ append: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporaryPath = "\(directory)/\(temporaryPrefix(for: path))\(UUID().uuidString)"
        let descriptor = retryingOnInterrupt {
            open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        }
        guard descriptor >= 0 else { throw failure("create a file in", directory) }
        var succeeded = false
        defer { if !succeeded { unlink(temporaryPath) } }
        do {
            defer { close(descriptor) }
            // Whatever the umask allowed, the file gets exactly these permissions.
            guard fchmod(descriptor, permissions) == 0 else { throw failure("write", path) }
            // Errors name the data file: the temporary file is ours, not the user's.
            try produce { bytes throws(StoreError) in try writeAll(bytes, to: descriptor, path: path) }
            guard synchronize(descriptor) else { throw failure("write", path) }
        }
        guard rename(temporaryPath, path) == 0 else { throw failure("replace", path) }
        succeeded = true
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw failure("flush", directory) }
        defer { close(directoryDescriptor) }
        guard synchronize(directoryDescriptor) else { throw failure("flush", directory) }
    }

    /// Deletes temporary files that an interrupted write left beside `path`. Only call this while
    /// holding the store's lock, when no other process can be writing one.
    static func removeTemporaryFiles(for path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = temporaryPrefix(for: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink("\(directory)/\(name)")
        }
    }

    /// Temporary files are hidden and named after the data file, as `.items.json.tmp-<uuid>`.
    private static func temporaryPrefix(for path: String) -> String {
        ".\((path as NSString).lastPathComponent).tmp-"
    }

    private static func writeAll(_ contents: [UInt8], to descriptor: Int32, path: String) throws(StoreError) {
        var offset = 0
        while offset < contents.count {
            let count = contents.withUnsafeBytes { buffer in
                retryingOnInterrupt { write(descriptor, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard count > 0 else { throw failure("write", path) }
            offset += count
        }
    }

    /// Flushes a file's data to the disk itself (on macOS `fsync` stops at the drive's cache).
    private static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return retryingOnInterrupt { fsync(descriptor) } == 0
    }

    static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
