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

    /// The system's words for a file-system failure, as "Permission denied"; `nil` for the others.
    public var systemMessage: String? {
        guard case .fileSystem(_, _, let code) = self else { return nil }
        return FileSystem.message(forErrorCode: code)
    }

    /// Whether the data file itself is unusable (as opposed to the system failing around it).
    public var isUnreadableFile: Bool {
        switch self {
        case .invalidJSON, .invalidContent, .unsupportedVersion: return true
        case .fileSystem, .lockTimeout: return false
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
                + " \(formatted(seconds)) seconds); nothing was changed, try again"
        }
    }

    private func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
