#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file beside the data file. The kernel drops the lock when the
/// holder exits in any way, `kill -9` included, so a crash never leaves the list locked.
struct FileLock: ~Copyable {
    /// How long to sleep between attempts while another process holds the lock.
    static let retryInterval = 0.01

    private let descriptor: Int32

    /// Takes the lock at `path`, creating the file (mode 0600) if needed, and waits up to about
    /// `timeout` seconds for another holder to let go. Waiting counts attempts rather than reading
    /// a clock.
    init(path: String, timeout: Double) throws(StoreError) {
        let descriptor = FileSystem.retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw FileSystem.failure("lock", path) }
        // An older lock file may have been created with looser permissions; ours is private.
        _ = fchmod(descriptor, 0o600)
        let attempts = max(1, Int((timeout / Self.retryInterval).rounded(.up)) + 1)
        for attempt in 1...attempts {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                self.descriptor = descriptor
                return
            }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw FileSystem.failure("lock", path, code: code)
            }
            if attempt < attempts { usleep(useconds_t(Self.retryInterval * 1_000_000)) }
        }
        close(descriptor)
        throw .lockTimeout(lockFile: path, seconds: timeout)
    }

    deinit {
        // Closing the descriptor releases the lock.
        close(descriptor)
    }
}
