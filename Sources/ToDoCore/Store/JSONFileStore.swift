import Foundation

/// Keeps an `ItemManager` in a JSON file (see `StoreDocument` for the format). Reading takes no
/// lock, since the file is only ever replaced whole; every change is one transaction under an
/// exclusive lock: read the current file, apply the change, write it atomically and durably.
public struct JSONFileStore: Sendable {
    /// The data file, as given (it may be a symbolic link; the file it points to is changed).
    public let fileURL: URL
    /// How many seconds a change waits for another process's transaction before giving up.
    public let lockTimeout: Double
    /// The clock that stamps created and completed times on items; `nil` records none.
    private let now: (@Sendable () -> Date)?

    /// The data file always has these permissions, whatever the umask: only the owner may read or
    /// write the list.
    static let filePermissions: mode_t = 0o600
    /// Missing directories are created with these permissions.
    static let directoryPermissions: mode_t = 0o700

    public init(fileURL: URL, lockTimeout: Double = 10, now: (@Sendable () -> Date)? = nil) {
        self.fileURL = fileURL
        self.lockTimeout = lockTimeout
        self.now = now
    }

    /// The list as the file holds it now; an empty list when there is no file yet.
    public func load() throws(StoreError) -> ItemManager {
        try read(at: try dataPath()).manager
    }

    /// Runs `change` on the current list as one transaction and returns its result. The file is
    /// written only when the list changed; when `change` throws, nothing is written and the error
    /// is rethrown as it was.
    public func update<Result>(_ change: (inout ItemManager) throws -> Result) throws -> Result {
        let path = try dataPath()
        try FileSystem.createDirectories((path as NSString).deletingLastPathComponent, mode: Self.directoryPermissions)
        let lock = try FileLock(path: path + ".lock", timeout: lockTimeout)

        var snapshot = try read(at: path)
        let result = try change(&snapshot.manager)
        if snapshot.manager.changeCount > 0 {
            snapshot.document.nextNumber = snapshot.manager.nextNumber
            try FileSystem.checkWritable(path)
            let items = [snapshot.manager.toDoItems, snapshot.manager.doneItems].joined()
            try FileSystem.writeAtomically(to: path, permissions: Self.filePermissions) { append throws(StoreError) in
                try snapshot.document.write(items: items, append)
            }
        }
        _ = consume lock
        return result
    }

    /// The path to read and replace: the file itself, or the file a symbolic link points to, so
    /// that a linked list stays linked and shares one lock with every other way to reach it.
    private func dataPath() throws(StoreError) -> String {
        let path = fileURL.path
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else { throw FileSystem.failure("follow the link", path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What a read found: the document and the list it holds.
    private struct Snapshot {
        var document: StoreDocument
        var manager: ItemManager
    }

    private func read(at path: String) throws(StoreError) -> Snapshot {
        guard let bytes = try FileSystem.readFile(at: path) else {
            return Snapshot(document: StoreDocument(), manager: ItemManager(now: now))
        }
        var document = try StoreDocument(bytes: bytes, file: path)
        // The items move into the manager; the document keeps only what surrounds them.
        let items = document.items
        document.items = StoredItems()
        do {
            let manager = try ItemManager(stored: items, nextNumber: document.nextNumber, now: now)
            return Snapshot(document: document, manager: manager)
        } catch {
            throw .invalidContent(file: path, reason: Self.reason(for: error))
        }
    }

    private static func reason(for error: ItemManagerError) -> String {
        switch error {
        case .duplicateID(let existing): return "two items have the id \(existing.id.uuidString)"
        case .duplicateNumber(let existing): return "two items have the number \(existing.number)"
        default: return error.description
        }
    }
}
