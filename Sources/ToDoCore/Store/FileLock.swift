import ToDoModel
import ToDoStorage

/// An exclusive `flock` on a lock file beside the data file. The kernel drops the lock when the
/// holder exits in any way, `kill -9` included, so a crash never leaves the list locked.
struct FileLock: ~Copyable {
    /// How long to sleep between attempts while another process holds the lock.
    static let retryInterval = 0.01

    private let descriptor: Int32
    /// The file the lock is on, to check that it still has its name.
    let lockedFile: LockedFile

    /// Takes the lock at `path`, creating the file (mode 0600) if needed, and waits up to about
    /// `timeout` seconds for another holder to let go. Waiting counts attempts rather than reading
    /// a clock. The file must be this user's own plain file (see `OwnFiles.openCompanion`): a link
    /// or another user's file planted there is refused, never made private or locked. A lock
    /// file removed or replaced while its lock was being taken is opened again: a lock on a file
    /// that no longer has the name excludes nobody.
    init(path: String, timeout: Double) throws(StoreError) {
        let attempts = max(
            1, Int((min(timeout, JSONFileStore.longestLockTimeout) / Self.retryInterval).rounded(.up)) + 1)
        var descriptor = try OwnFiles.openCompanion(path, operation: "lock", readsContents: false)
        var attempt = 1
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                var status = stat()
                if fstat(descriptor, &status) == 0 {
                    let locked = LockedFile(path: path, identity: FileIdentity(status))
                    if locked.isStillInPlace {
                        self.descriptor = descriptor
                        self.lockedFile = locked
                        return
                    }
                }
                close(descriptor)
                descriptor = try OwnFiles.openCompanion(path, operation: "lock", readsContents: false)
                continue
            }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw FileSystem.failure("lock", path, code: code)
            }
            guard attempt < attempts else { break }
            attempt += 1
            usleep(useconds_t(Self.retryInterval * 1_000_000))
        }
        close(descriptor)
        throw .lockTimeout(lockFile: path, seconds: timeout)
    }

    deinit {
        // Closing the descriptor releases the lock.
        close(descriptor)
    }
}

/// The file a lock was taken on.
struct LockedFile {
    let path: String
    let identity: FileIdentity

    /// Whether the lock file still has its name: `false` once someone removed or replaced it, so
    /// that another process may have taken a lock of its own on the new file.
    var isStillInPlace: Bool {
        FileIdentity.current(at: path)?.isSameFile(as: identity) == true
    }
}
