import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why todo will not use a file at one of the paths it keeps (the list, its lock, history and spare):
/// the list may sit in a folder others can write to, and what they plant there must never be
/// followed, filled, truncated or made private on their behalf.
public enum UnusableFileReason: Equatable, Sendable {
    /// A symbolic link where todo keeps a file of its own (the lock, history or spare).
    case symbolicLink
    /// A symbolic link to the list made by another user in a folder others can write to.
    case linkFromAnotherUser(owner: UInt32)
    /// A FIFO, a device or a socket: reading it could wait forever or never end.
    case notRegularFile
    /// A file of a folder being imported that is a link to somewhere outside the folder.
    case linkOutOfFolder
    /// A file that belongs to another user: todo changes only its own user's files.
    case anotherOwner(owner: UInt32, user: UInt32)
    /// Larger than todo reads (`OwnFiles.sizeLimit`).
    case tooLarge(size: Int, limit: Int)
    /// One of the files todo keeps beside the list (its history, its sync state) that the group or
    /// others may write to: what it says could be anyone's, and it may name a command to run.
    case writableByOthers(mode: UInt32)
}

/// Where a file is and what it was when read: a file replaced since (even by one reusing the inode)
/// has a different identity, since a rename, a write, `chmod` and `chown` all change its
/// status-change time.
package struct FileIdentity: Equatable {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    package let modified: timespec
    package let changed: timespec

    package init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modified = status.st_mtimespec
        changed = status.st_ctimespec
        #else
        modified = status.st_mtim
        changed = status.st_ctim
        #endif
    }

    /// The identity of what `path` names now (not following a final symbolic link); `nil` when nothing is there.
    package static func current(at path: String) -> FileIdentity? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// Whether `self` and `other` are the same file (device and inode), whatever its contents.
    package func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }

    package static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
        lhs.isSameFile(as: rhs) && lhs.size == rhs.size && lhs.modified.tv_sec == rhs.modified.tv_sec
            && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }
}

/// The checks that keep todo to its own files, whatever others put beside them.
public enum OwnFiles {
    /// The list and the files kept beside it always have these permissions, whatever the umask:
    /// only the owner may read or write them.
    package static let filePermissions: mode_t = 0o600
    /// The largest list or history file todo reads: far above any real list (a million items are
    /// about 250 MB), and it stops a device, a sparse file or a planted giant from being loaded.
    public static let sizeLimit = 1 << 30

    /// The user todo runs as, whose files it may change.
    package static var user: uid_t { geteuid() }

    package static func unusable(_ path: String, _ reason: UnusableFileReason) -> StoreError {
        .unusableFile(path: path, reason: reason)
    }

    /// Opens one of the files todo keeps beside the list (the lock or the history) for reading and
    /// writing, creating it (mode 0600) when there is none: never through a symbolic link, never a
    /// FIFO or device (opened without waiting, then checked), and only when this user owns it. Its
    /// permissions are then made 0600 whatever they were. A file whose contents todo reads back
    /// (the history, not the lock) must also be one no one else may write to (`reasonNotToTrust`).
    /// `operation` names what failed.
    package static func openCompanion(
        _ path: String, operation: String, readsContents: Bool
    ) throws(StoreError) -> Int32 {
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        let descriptor = FileSystem.retryingOnInterrupt { open(path, flags, OwnFiles.filePermissions) }
        guard descriptor >= 0 else {
            let code = errno
            // What was there may explain the failure better than the system's words.
            if let reason = reasonNotToUse(path) { throw unusable(path, reason) }
            throw FileSystem.failure(operation, path, code: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = FileSystem.failure(operation, path)
            close(descriptor)
            throw error
        }
        if let reason = readsContents ? reasonNotToTrust(status) : reasonNotToChange(status) {
            close(descriptor)
            throw unusable(path, reason)
        }
        // Blocking again, for the writes that follow.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        if status.st_mode & 0o7777 != OwnFiles.filePermissions, fchmod(descriptor, OwnFiles.filePermissions) != 0 {
            let error = FileSystem.failure(operation, path)
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Why a file with `status` must not be changed (written, truncated, renamed, made private), if it must not.
    package static func reasonNotToChange(_ status: stat) -> UnusableFileReason? {
        if status.st_mode & S_IFMT == S_IFLNK { return .symbolicLink }
        if status.st_mode & S_IFMT != S_IFREG { return .notRegularFile }
        if status.st_uid != user { return .anotherOwner(owner: UInt32(status.st_uid), user: UInt32(user)) }
        return nil
    }

    /// Why what a file with `status` says must not be taken as this user's own (read as history or
    /// sync state, or locked), if it must not: whatever `reasonNotToChange` refuses, and a file the
    /// group or others may write to, since anyone could have written it.
    package static func reasonNotToTrust(_ status: stat) -> UnusableFileReason? {
        if let reason = reasonNotToChange(status) { return reason }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 { return .writableByOthers(mode: UInt32(status.st_mode & 0o7777)) }
        return nil
    }

    /// Why what `path` names must not be changed, if it must not; `nil` also when nothing is there.
    package static func reasonNotToUse(_ path: String) -> UnusableFileReason? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return reasonNotToChange(status)
    }

    /// Whether the symbolic link at `path` (with `status`, from `lstat`) may be followed to the
    /// list: the kernel's rule for sticky folders (`fs.protected_symlinks`), for every folder that
    /// others may write to. A link this user made, or the folder's owner made, is followed; one
    /// that another user planted beside it is not.
    package static func checkLinkMayBeFollowed(_ path: String, status: stat) throws(StoreError) {
        guard status.st_uid != user else { return }
        var folder = stat()
        let directory = PathText.folder(of: path)
        guard stat(directory.isEmpty ? "." : directory, &folder) == 0 else {
            throw FileSystem.failure("follow the link", path)
        }
        let othersMayWrite = folder.st_mode & (S_IWGRP | S_IWOTH) != 0
        if othersMayWrite, status.st_uid != folder.st_uid {
            throw unusable(path, .linkFromAnotherUser(owner: UInt32(status.st_uid)))
        }
    }
}
