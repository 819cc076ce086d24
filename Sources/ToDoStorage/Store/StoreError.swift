import ToDoModel

/// Why the store could not read or change the data file. When one is thrown the file is as it was.
public enum StoreError: Error, Equatable, Sendable {
    /// The file is not valid JSON (or not valid UTF-8).
    case invalidJSON(file: String, JSONSyntaxError)
    /// The file is JSON but not a to-do list: a wrong type, a missing field, two items with one id
    /// or one number.
    case invalidContent(file: String, reason: String)
    /// The file was written by a newer version of the program, in a format this one does not know.
    case unsupportedVersion(file: String, version: Int, supported: Int)
    /// The operating system refused an operation; `code` is the `errno` value.
    case fileSystem(path: String, operation: String, code: Int32)
    /// Another process held the lock for longer than the store waits.
    case lockTimeout(lockFile: String, seconds: Double)
    /// A file at one of the list's paths is one todo will not use: another user's, a link, a FIFO
    /// or device, or too large. Nothing was changed.
    case unusableFile(path: String, reason: UnusableFileReason)
    /// The change would make a file larger than todo reads back (`OwnFiles.sizeLimit`): it was
    /// refused before anything was replaced.
    case tooLargeToWrite(file: String, limit: Int)
    /// The list was replaced by another process during this change, which therefore holds a lock
    /// that is no longer the list's (its lock file was removed): nothing was changed.
    case replacedMeanwhile(file: String)

    /// The system's words for a file-system failure, as "Permission denied"; `nil` for the others.
    public var systemMessage: String? {
        guard case .fileSystem(_, _, let code) = self else { return nil }
        return FileSystem.message(forErrorCode: code)
    }

    /// Whether the data file itself is unusable (as opposed to the system failing around it).
    public var isUnreadableFile: Bool {
        switch self {
        case .invalidJSON, .invalidContent, .unsupportedVersion, .unusableFile: return true
        case .fileSystem, .lockTimeout, .replacedMeanwhile, .tooLargeToWrite: return false
        }
    }
}

extension StoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidJSON(let file, let error):
            return "cannot read \(file): \(error); the file was left unchanged"
        case .invalidContent(let file, let reason):
            return "cannot read \(file): \(reason); the file was left unchanged"
        case .unsupportedVersion(let file, let version, let supported):
            return "cannot read \(file): it has format version \(version), written by a newer todo"
                + " (this one reads version \(supported)); the file was left unchanged"
        case .fileSystem(let path, let operation, let code):
            return "cannot \(operation) \(path): \(FileSystem.message(forErrorCode: code))"
        case .lockTimeout(let lockFile, let seconds):
            return "another todo process is changing the list (it has held \(lockFile) for more than"
                + " \(secondsText(seconds))); nothing was changed, try again"
        case .unusableFile(let path, let reason):
            return Self.description(of: reason, at: path)
        case .tooLargeToWrite(let file, let limit):
            return "the change would make \(file) larger than the \(limit) bytes todo reads back; nothing was changed"
                + " (remove or export and remove items first)"
        case .replacedMeanwhile(let file):
            return "another process replaced \(file) while this change was being made (was its lock file removed?);"
                + " nothing was changed, try again"
        }
    }

    private static func description(of reason: UnusableFileReason, at path: String) -> String {
        switch reason {
        case .symbolicLink:
            return "cannot use \(path): it is a symbolic link, and todo does not follow links for the files it keeps"
                + " beside the list; remove it if it is not yours; nothing was changed"
        case .linkFromAnotherUser(let owner):
            return "cannot use \(path): it is a symbolic link made by another user (uid \(owner)) in a folder others"
                + " can write to, and todo does not follow it; remove it, or give the file's own path; nothing was changed"
        case .notRegularFile:
            return "cannot use \(path): it is not a regular file (a FIFO, a device or a socket); nothing was changed"
        case .linkOutOfFolder:
            return
                "cannot use \(path): it is a link out of the folder, and todo reads only the folder's own files; nothing was changed"
        case .anotherOwner(let owner, let user):
            return "cannot use \(path): it belongs to another user (uid \(owner)), and todo changes only files of its"
                + " own user (uid \(user)); run todo as uid \(owner), or remove the file if it is not theirs to keep;"
                + " nothing was changed"
        case .writableByOthers(let mode):
            return
                "cannot use \(path): others may write to it (mode \(String(mode, radix: 8))), so todo does not trust what it says;"
                + " if its contents are yours, chmod 600 it; otherwise remove it; nothing was changed"
        case .tooLarge(let size, let limit):
            return
                "cannot read \(path): it is \(size) bytes, more than the \(limit) todo reads; the file was left unchanged"
        }
    }

}

extension StoreError {
    /// A file of todo's own (the sync state, the reminders' record) that could not be read as
    /// `error` says; `currentVersion` is the version of it this todo reads.
    package static func unreadable(_ file: String, _ error: JSONDecodingError, currentVersion: Int) -> StoreError {
        switch error {
        case .syntax(let syntax): .invalidContent(file: file, reason: "not JSON: \(syntax)")
        case .shape(let shape): .invalidContent(file: file, reason: shape.description)
        case .newerVersion(let version):
            .invalidContent(
                file: file,
                reason: "format version \(version) is from a newer todo (this one reads version \(currentVersion))")
        }
    }
}
